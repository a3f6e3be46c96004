"""Gold/prediction CSV loading: good files load, each malformed file names file, row, problem."""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest

from specextract.eval.gold import (
    ClaimRow, GoldError, claims_to_rows, load_claims_csv, load_gold, main, merge_gold_parts,
)
from specextract.errors import SpecExtractError
from specextract.records import CheckedClaim, Claim
from specextract.codebook import CLAIM_COLUMNS

REPO = Path(__file__).resolve().parents[1]

A100_FP32 = dict(doc_id="d1", entity="A100", variant="", attribute="fp32", value="19.5",
                 unit="TFLOPS", operator="=", qualifier="", baseline="", metric="",
                 surface="19.5 TFLOPS", verdict="supported", expected="19.5")
H100_SPEEDUP = dict(doc_id="d1", entity="H100", variant="SXM5", attribute="speedup", value="3",
                    unit="x", operator="~", qualifier="", baseline="A100", metric="compute",
                    surface="3倍", verdict="unverifiable", expected="")


def csv_text(rows: list[dict], header=CLAIM_COLUMNS) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(header), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def write(tmp_path: Path, text: str | bytes, name: str = "claims.csv") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- good files ----------------------------------------------------------------------

def test_good_file_loads(tmp_path):
    rows = load_gold(write(tmp_path, csv_text([A100_FP32, H100_SPEEDUP])))
    assert [r.line for r in rows] == [2, 3]
    first, second = rows
    assert first.value == Decimal("19.5") and first.expected == Decimal("19.5")
    assert (second.entity, second.baseline, second.metric, second.expected) == ("H100", "A100", "compute", None)
    assert second.surface == "3倍"


def test_extra_columns_and_any_column_order_are_accepted(tmp_path):
    header = ["start", *reversed(CLAIM_COLUMNS), "diagnosis"]
    rows = load_claims_csv(write(tmp_path, csv_text([{**A100_FP32, "start": "4"}], header)))
    assert rows[0].attribute == "fp32" and rows[0].surface == "19.5 TFLOPS"


@pytest.mark.parametrize("encode", [
    pytest.param(lambda t: t.encode("utf-8-sig"), id="utf8-bom"),
    pytest.param(lambda t: t.replace("\n", "\r\n").encode("utf-8"), id="crlf"),
])
def test_bom_and_crlf_are_accepted(tmp_path, encode):
    rows = load_gold(write(tmp_path, encode(csv_text([A100_FP32, H100_SPEEDUP]))))
    assert [r.line for r in rows] == [2, 3]


def test_prediction_file_may_leave_verdict_empty(tmp_path):
    path = write(tmp_path, csv_text([{**A100_FP32, "verdict": "", "expected": ""}]))
    assert load_claims_csv(path)[0].verdict == ""
    with pytest.raises(GoldError, match=r"row 2: empty verdict"):
        load_gold(path)


def test_empty_operator_means_equals(tmp_path):
    rows = load_gold(write(tmp_path, csv_text([{**A100_FP32, "operator": ""}])))
    assert rows[0].operator == "="


def test_row_number_is_the_line_where_a_multiline_row_starts(tmp_path):
    text = csv_text([{**A100_FP32, "surface": "19.5\nTFLOPS"}, {**A100_FP32, "entity": "a 100"}])
    with pytest.raises(GoldError) as err:
        load_gold(write(tmp_path, text))
    assert err.value.line == 4 and "first at row 2" in str(err.value)


# --- malformed files -----------------------------------------------------------------

def without(column: str) -> list[str]:
    return [c for c in CLAIM_COLUMNS if c != column]


# id, rows (the bad one last), header, expected line, expected problem
MALFORMED = [
    ("missing-column", [A100_FP32], without("unit"), 1, "missing required column(s): unit"),
    ("duplicate-header-column", [A100_FP32], [*CLAIM_COLUMNS, "entity"], 1, "'entity' appears twice"),
    ("bad-attribute", [{**A100_FP32, "attribute": "fp33"}], None, 2, "unknown attribute 'fp33'"),
    ("wrong-unit", [{**A100_FP32, "unit": "GFLOPS"}], None, 2, "canonical unit 'TFLOPS'"),
    ("unit-of-another-attribute", [{**A100_FP32, "attribute": "memory_size"}], None, 2, "canonical unit 'GB'"),
    ("value-comma", [A100_FP32, {**H100_SPEEDUP, "value": "3,5"}], None, 3, "value '3,5' is not a plain decimal"),
    ("value-exponent", [{**A100_FP32, "value": "1.95e1"}], None, 2, "not a plain decimal"),
    ("value-with-unit", [{**A100_FP32, "value": "19.5TFLOPS"}], None, 2, "not a plain decimal"),
    ("value-negative", [{**A100_FP32, "value": "-19.5"}], None, 2, "not a plain decimal"),
    ("value-fullwidth", [{**A100_FP32, "value": "１９.５"}], None, 2, "not a plain decimal"),
    ("value-empty", [{**A100_FP32, "value": ""}], None, 2, "not a plain decimal"),
    ("expected-not-decimal", [{**A100_FP32, "expected": "n/a"}], None, 2, "expected 'n/a' is not a plain decimal"),
    ("bad-operator", [{**A100_FP32, "operator": "≈"}], None, 2, "unknown operator '≈'"),
    ("bad-qualifier", [{**A100_FP32, "qualifier": "dense;fast"}], None, 2, "unknown qualifier 'fast'"),
    ("bad-verdict", [{**A100_FP32, "verdict": "true"}], None, 2, "unknown verdict 'true'"),
    ("unverifiable-with-expected", [{**A100_FP32, "verdict": "unverifiable"}], None, 2, "unverifiable claim with an expected"),
    ("supported-without-expected", [{**A100_FP32, "expected": ""}], None, 2, "supported claim without an expected"),
    ("speedup-without-baseline", [{**H100_SPEEDUP, "baseline": ""}], None, 2, "without a baseline"),
    ("speedup-bad-metric", [{**H100_SPEEDUP, "metric": "flops"}], None, 2, "unknown metric 'flops'"),
    ("baseline-on-non-speedup", [{**A100_FP32, "baseline": "V100"}], None, 2, "speedup claims only"),
    ("empty-entity", [{**A100_FP32, "entity": ""}], None, 2, "empty entity"),
    ("empty-surface", [{**A100_FP32, "surface": ""}], None, 2, "empty surface"),
    ("duplicate-key", [A100_FP32, H100_SPEEDUP, {**A100_FP32, "value": "19.50", "surface": "19.50"}],
     None, 4, "duplicate claim key (d1, A100, fp32, 19.5), first at row 2"),
    ("duplicate-key-entity-case-space", [A100_FP32, {**A100_FP32, "entity": "a 100"}], None, 3, "duplicate claim key"),
]


@pytest.mark.parametrize("rows, header, line, problem",
                         [pytest.param(*case[1:], id=case[0]) for case in MALFORMED])
def test_malformed_row_names_file_row_and_problem(tmp_path, rows, header, line, problem):
    path = write(tmp_path, csv_text(rows, header or CLAIM_COLUMNS))
    with pytest.raises(GoldError) as err:
        load_gold(path)
    message = str(err.value)
    assert message.startswith(f"{path}, row {line}: ")
    assert problem in message
    assert (err.value.path, err.value.line) == (str(path), line)
    assert isinstance(err.value, SpecExtractError)  # the CLI turns it into a clean error


GBK = "doc_id\nd1,A100,,fp32,19.5\n".encode("utf-8") + "显存".encode("gbk")
MALFORMED_FILES = [
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3, "binary file"),
    ("utf16", csv_text([A100_FP32]).encode("utf-16"), 1, "binary file"),
    ("gbk-not-utf8", GBK, 3, "not UTF-8 text (invalid byte 0xcf"),
    ("empty", b"", 1, "empty file"),
    ("field-count", (csv_text([A100_FP32]) + "d1,A100\n").encode(), 3, "2 fields, header has 13"),
    ("bad-quoting", (csv_text([A100_FP32]) + 'd1,"A1"00\n').encode(), 3, "malformed CSV"),
]


@pytest.mark.parametrize("data, line, problem", [pytest.param(*c[1:], id=c[0]) for c in MALFORMED_FILES])
def test_malformed_file_names_file_row_and_problem(tmp_path, data, line, problem):
    path = write(tmp_path, data)
    with pytest.raises(GoldError) as err:
        load_claims_csv(path)
    assert str(err.value).startswith(f"{path}, row {line}: ")
    assert problem in str(err.value)


def test_missing_file_is_a_gold_error(tmp_path):
    with pytest.raises(GoldError, match="cannot read file"):
        load_claims_csv(tmp_path / "nope.csv")


# --- records -> rows -----------------------------------------------------------------

def test_claims_to_rows_from_claim_and_checked_claim():
    claim = Claim(doc_id="d1", entity="A100", attribute="memory_bandwidth", value=Decimal("2039"),
                  surface="2,039 GB/s", start=0, end=10, operator="~")
    checked = CheckedClaim(claim=claim, verdict="supported", expected=Decimal("2039"))
    bare, judged = claims_to_rows([claim, checked])
    assert (bare.unit, bare.operator, bare.verdict, bare.expected) == ("GB/s", "~", "", None)
    assert (judged.verdict, judged.expected) == ("supported", Decimal("2039"))
    assert bare == ClaimRow(**{**vars(bare), "line": 99})  # line is not part of equality


# --- merging parts -------------------------------------------------------------------

def test_merge_sorts_parts_and_round_trips(tmp_path):
    (tmp_path / "parts").mkdir()
    b = write(tmp_path, csv_text([{**A100_FP32, "doc_id": "d2"}]), "parts/b.csv")
    a = write(tmp_path, csv_text([H100_SPEEDUP, A100_FP32], [*CLAIM_COLUMNS, "note"]), "parts/a.csv")
    out = tmp_path / "claims.csv"
    rows = merge_gold_parts([b, a], out)
    assert [(r.doc_id, r.entity) for r in rows] == [("d1", "A100"), ("d1", "H100"), ("d2", "A100")]
    assert out.read_text(encoding="utf-8").splitlines()[0] == ",".join(CLAIM_COLUMNS)
    assert load_gold(out) == rows


def test_merge_rejects_a_claim_in_two_parts_and_writes_nothing(tmp_path):
    a = write(tmp_path, csv_text([A100_FP32]), "a.csv")
    b = write(tmp_path, csv_text([H100_SPEEDUP, {**A100_FP32, "entity": "a100"}]), "b.csv")
    out = tmp_path / "claims.csv"
    with pytest.raises(GoldError) as err:
        merge_gold_parts([a, b], out)
    assert str(err.value).startswith(f"{b}, row 3: duplicate claim key")
    assert f"first in {a}, row 2" in str(err.value)
    assert not out.exists()


def test_merge_main_exit_codes(tmp_path, capsys):
    good = write(tmp_path, csv_text([A100_FP32]), "good.csv")
    bad = write(tmp_path, csv_text([{**A100_FP32, "unit": "GB"}]), "bad.csv")
    assert main([str(tmp_path / "out.csv"), str(good)]) == 0
    assert main([str(tmp_path / "out2.csv"), str(bad)]) == 1
    assert f"{bad}, row 2" in capsys.readouterr().err


# --- the repository's own gold data --------------------------------------------------

GOLD_FILES = sorted((REPO / "gold").glob("**/*.csv"))


@pytest.mark.skipif(not GOLD_FILES, reason="no gold files yet")
@pytest.mark.parametrize("path", GOLD_FILES, ids=[str(p.relative_to(REPO)) for p in GOLD_FILES])
def test_repository_gold_files_load(path):
    assert load_gold(path)
