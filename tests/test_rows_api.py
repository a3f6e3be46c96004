"""Claims to rows and back (specextract.rows), typed exports, the Python API (issues 13, 14)."""
from __future__ import annotations

import builtins
import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

import specextract
from batchkit import make_corpus, run_cli
from specextract import rows
from specextract.codebook import VERDICTS
from specextract.records import CheckedClaim, Claim

CLAIM = Claim("d", "A100", "fp32", Decimal("19.50"), "19.5 TFLOPS", 3, 14, variant="SXM4",
              operator="~", qualifier="tensor;sparse", precision_exp=-1, sentence="s",
              link="possessive")
CHECKED = CheckedClaim(CLAIM, "approximate", Decimal("19.5"), "80GB SXM4", "non-tensor", 0.0125,
                       "why", "src", "high", "also says 15")
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_claim_and_checked_claim_round_trip_through_string_rows():
    assert rows.claim_from_row(rows.claim_to_row(CLAIM)) == CLAIM
    back = rows.checked_from_row(rows.checked_to_row(CHECKED))
    assert back == CHECKED and back.link == "possessive"
    assert rows.record_from_row(rows.claim_to_row(CLAIM)) == CLAIM
    assert CLAIM.as_row() == rows.claim_to_row(CLAIM)
    assert CHECKED.as_row() == rows.checked_to_row(CHECKED)


def test_typed_rows_read_back_to_the_same_claim():
    typed = rows.typed_row(rows.checked_to_row(CHECKED))
    assert typed["value"] == 19.5 and typed["start"] == 3 and typed["precision_exp"] == -1
    assert typed["expected"] == 19.5 and typed["deviation"] == 0.0125
    assert rows.checked_from_row(typed) == CHECKED
    big = Claim("d", "A100", "transistors", Decimal("54200000000"), "542亿", 0, 4, precision_exp=8)
    assert rows.typed_row(big.as_row())["value"] == 54200000000
    assert rows.claim_from_row({**big.as_row(), "value": 5.42e10}) == big    # Parquet's float


def test_a_missing_precision_is_the_written_one():
    row = {**CLAIM.as_row(), "value": "540", "precision_exp": ""}
    assert rows.claim_from_row(row).precision_exp == 1


def test_gold_row_from_a_claim_and_a_checked_claim():
    bare, judged = rows.gold_row(CLAIM), rows.gold_row(CHECKED)
    assert (bare.verdict, bare.expected, bare.unit) == ("", None, "TFLOPS")
    assert (judged.verdict, judged.expected, judged.entity) == ("approximate", Decimal("19.5"), "A100")


def test_checked_claim_exposes_the_claims_fields():
    for name in ("doc_id", "entity", "attribute", "value", "surface", "start", "end", "variant",
                 "operator", "qualifier", "baseline", "metric", "precision_exp", "sentence",
                 "link", "unit", "qualifiers"):
        assert getattr(CHECKED, name) == getattr(CLAIM, name), name
    assert CHECKED.claim is CLAIM
    with pytest.raises(AttributeError):
        CHECKED.entity = "H100"


def test_no_public_name_shadows_a_builtin():
    import importlib
    check = importlib.import_module("specextract.check")
    errors = importlib.import_module("specextract.errors")
    public = set(specextract.__all__) | set(check.__all__) | {
        n for n in vars(errors) if not n.startswith("_")}
    assert not {n for n in public if hasattr(builtins, n)}
    assert not hasattr(check, "ReferenceError")
    assert issubclass(specextract.ReferenceTableError, specextract.DataFileError)


def test_to_frame_is_typed():
    claims = specextract.check(specextract.extract(
        "NVIDIA A100 的 FP32 为 19.5 TFLOPS，FP64 为 97 TFLOPS，晶体管 542 亿。", doc_id="t"))
    frame = specextract.to_frame(claims)
    assert len(frame) == len(claims) == 3
    assert str(frame["value"].dtype) == "float64" and str(frame["expected"].dtype) == "float64"
    assert str(frame["start"].dtype) == "Int64" and str(frame["verdict"].dtype) == "category"
    assert list(frame["verdict"].cat.categories) == list(VERDICTS)
    assert frame["value"].tolist() == [19.5, 97.0, 54_200_000_000.0]
    assert (frame["link"] != "").all()
    assert specextract.to_frame([CLAIM])["verdict"].isna().all()


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("api")
    result = run_cli("run", make_corpus(base / "corpus", 3), "--out", base / "out")
    assert result.exit_code == 0, result.output
    return base / "out"


def test_open_store_claims_is_a_typed_frame(out):
    with specextract.open_store(out / "specextract.db") as store:
        frame = store.claims()
        wrong = store.claims(verdict="contradicted")
        docs = store.documents()
    with open(out / "claims.csv", encoding="utf-8", newline="") as fh:
        csv_rows = list(csv.DictReader(fh))
    assert len(frame) == len(csv_rows) and len(docs) == 3
    assert str(frame["value"].dtype) == "float64" and str(frame["end"].dtype) == "Int64"
    assert len(wrong) == sum(r["verdict"] == "contradicted" for r in csv_rows) > 0
    assert set(wrong["verdict"]) == {"contradicted"}
    with pytest.raises(ValueError, match="unknown verdict"):
        specextract.open_store(out / "specextract.db").claims(verdict="wrong")
    with pytest.raises(specextract.StoreError):
        specextract.open_store(out / "none.db")


def _claims_of_csv(path: Path) -> list[Claim]:
    with open(path, encoding="utf-8", newline="") as fh:
        return [rows.claim_from_row(r) for r in csv.DictReader(fh)]


def test_link_survives_store_csv_jsonl_and_parquet(out, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    db = out / "specextract.db"
    from_csv = _claims_of_csv(out / "claims.csv")
    assert from_csv and all(c.link for c in from_csv)
    jsonl = run_cli("export", "--db", db, "--format", "jsonl").stdout
    from_jsonl = [rows.claim_from_row(json.loads(line)) for line in jsonl.splitlines()]
    assert run_cli("export", "--db", db, "--format", "parquet", "-o", tmp_path / "c.parquet").exit_code == 0
    from_parquet = [rows.claim_from_row(r) for r in pq.read_table(tmp_path / "c.parquet").to_pylist()]
    with specextract.open_store(db) as store:
        from_frame = [rows.claim_from_row(r) for r in store.claims().to_dict("records")]
    assert from_jsonl == from_csv == from_parquet == from_frame


def test_jsonl_numbers_are_numbers(out):
    lines = [json.loads(l) for l in run_cli("export", "--db", out / "specextract.db",
                                            "--format", "jsonl").stdout.splitlines()]
    assert all(isinstance(l["value"], (int, float)) and isinstance(l["start"], int) for l in lines)
    assert all(l["expected"] is None or isinstance(l["expected"], (int, float)) for l in lines)
    assert any(isinstance(l["deviation"], float) for l in lines)


def test_parquet_types(out, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "claims.parquet"
    assert run_cli("export", "--db", out / "specextract.db", "--format", "parquet",
                   "-o", target).exit_code == 0
    schema = pq.read_schema(target)
    assert schema.field("value").type == pa.float64() == schema.field("expected").type
    assert schema.field("start").type == pa.int64() == schema.field("precision_exp").type
    assert pa.types.is_dictionary(schema.field("verdict").type)
    frame = pq.read_table(target).to_pandas()
    assert str(frame["verdict"].dtype) == "category"
    assert set(frame["verdict"].dropna()) <= set(VERDICTS)


def test_expected_value_and_diagnosis_agree_across_the_corpus():
    """Where a diagnosis names the figure the claim mis-states ("against 9.7", "vs 4800"),
    that figure is the expected value."""
    named = re.compile(r"(?:magnitude: \S+ is \S+ too \w+ against|factor \d+: \S+ vs|"
                       r"digits swapped: \S+ vs) ([\d.]+)")
    seen = 0
    for path in sorted(CORPUS.glob("*.txt"))[:24]:
        for c in specextract.check(specextract.extract(path.read_text(encoding="utf-8"))):
            if c.verdict != "contradicted" or c.attribute == "speedup":
                continue
            for figure in named.findall(c.diagnosis):
                seen += 1
                assert Decimal(figure) == c.expected, (c.surface, c.expected, c.diagnosis)
    assert seen
