"""`specextract export` and OUT/claims.csv: formats, verdict filter, formula cells, BOM."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from batchkit import make_corpus, run_cli
from specextract.codebook import CLAIM_COLUMNS

FORMULA_ARTICLE = ('=HYPERLINK("http://evil.example/","click") NVIDIA A100 的单精度算力为 '
                   "19.5 TFLOPS。\n@SUM(A1:A9) H100 FP64 is 60 TFLOPS.\n")


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("export")
    corpus = make_corpus(base / "corpus", 3)
    (corpus / "formula.txt").write_text(FORMULA_ARTICLE, encoding="utf-8")
    result = run_cli("run", corpus, "--out", base / "out")
    assert result.exit_code == 0, result.output
    return base / "out"


def read_csv_bytes(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def test_claims_csv_neutralises_formula_cells(store):
    rows = read_csv_bytes((store / "claims.csv").read_bytes())
    sentences = [r["sentence"] for r in rows if r["doc_id"] == "formula"]
    assert sentences and all(s.startswith("'") for s in sentences), sentences
    assert any(s.startswith("'=HYPERLINK") for s in sentences)
    assert any(s.startswith("'@SUM") for s in sentences)
    assert {r["operator"] for r in rows} >= {"="}   # the codebook's "=" stays as it is
    assert not (store / "claims.csv").read_bytes().startswith(b"\xef\xbb\xbf")


@pytest.mark.parametrize("excel", [False, True], ids=["plain", "excel"])
def test_export_csv_bom_only_with_excel(store, tmp_path, excel):
    target = tmp_path / "claims.csv"
    args = ["export", "--db", store / "specextract.db", "-o", target] + (["--excel"] if excel else [])
    assert run_cli(*args).exit_code == 0
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") == excel
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert list(rows[0])[:len(CLAIM_COLUMNS)] == list(CLAIM_COLUMNS)
    assert data.removeprefix(b"\xef\xbb\xbf") == (store / "claims.csv").read_bytes()


def test_export_verdict_filter(store, tmp_path):
    target = tmp_path / "bad.csv"
    result = run_cli("export", "--db", store / "specextract.db", "--verdict", "contradicted",
                     "--verdict", "approximate", "-o", target)
    assert result.exit_code == 0
    rows = read_csv_bytes(target.read_bytes())
    assert rows and {r["verdict"] for r in rows} <= {"contradicted", "approximate"}
    everything = read_csv_bytes((store / "claims.csv").read_bytes())
    assert len(rows) == sum(r["verdict"] in ("contradicted", "approximate") for r in everything)


def test_export_jsonl_to_stdout(store):
    result = run_cli("export", "--db", store / "specextract.db", "--format", "jsonl")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and lines[0]["doc_id"] and "sentence" in lines[0]
    formula = [l for l in lines if l["doc_id"] == "formula"]
    assert formula[0]["sentence"].startswith("=HYPERLINK")   # JSON keeps the text as it is


def test_export_csv_to_stdout_is_neutralised(store):
    result = run_cli("export", "--db", store / "specextract.db")
    assert result.exit_code == 0 and "'=HYPERLINK" in result.stdout


def test_export_parquet(store, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "claims.parquet"
    assert run_cli("export", "--db", store / "specextract.db", "--format", "parquet",
                   "-o", target).exit_code == 0
    table = pq.read_table(target)
    assert table.column_names[:len(CLAIM_COLUMNS)] == list(CLAIM_COLUMNS)
    assert str(table.schema.field("start").type) == "int64"
    assert table.num_rows == len(read_csv_bytes((store / "claims.csv").read_bytes()))


@pytest.mark.parametrize("args,message", [
    (("--format", "parquet"), "needs -o"),
    (("--format", "jsonl", "--excel"), "--excel applies to --format csv only"),
    (("--verdict", "wrong"), "Invalid value"),
], ids=["parquet-stdout", "excel-jsonl", "bad-verdict"])
def test_export_usage_errors(store, args, message):
    result = run_cli("export", "--db", store / "specextract.db", *args)
    assert result.exit_code == 2 and message in result.output


def test_export_missing_store(tmp_path):
    result = run_cli("export", "--db", tmp_path / "none.db")
    assert result.exit_code == 2 and "no such store" in result.output
