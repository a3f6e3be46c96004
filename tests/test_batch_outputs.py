"""The non-extraction side of `specextract run`: checking next to extraction, the verdict
cache, claims.csv and the report written from SQL, incremental report pages."""
from __future__ import annotations

import csv
import decimal
import importlib
import io
import os
import re
from dataclasses import fields
from decimal import Decimal
from pathlib import Path

import pytest

from batchkit import article, dump_store, make_corpus, run_cli, write_reference
from specextract.batch import run as batch
from specextract.output.export import write_csv_to
from specextract.output.pages import esc
from specextract.records import CheckedClaim, Claim
from specextract.check.reference import load_reference
from specextract.check.consensus import CONSENSUS_COLUMNS, consensus
from specextract.output.index import consensus_table
from specextract.store.db import CLAIM_STORE_COLUMNS, Store

check_module = importlib.import_module("specextract.check.checker")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "corpus", 6)


def pages(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (out / "report" / "docs").iterdir()}


def page_stats(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (out / "report" / "docs").iterdir()}


# --- records and the checker -----------------------------------------------------------
def test_claim_as_row_matches_the_dataclass_fields():
    claim = Claim("d", "A100", "fp32", Decimal("19.50"), "19.5 TFLOPS", 3, 14, variant="SXM4",
                  operator="~", qualifier="tensor;sparse", precision_exp=-1, sentence="s")
    row = claim.as_row()
    assert list(row) == ["doc_id", "entity", "attribute", "value", "surface", "start", "end",
                         "variant", "operator", "qualifier", "baseline", "metric",
                         "precision_exp", "sentence", "link", "unit"]
    assert row["value"] == "19.5" and row["start"] == "3" and row["precision_exp"] == "-1"
    assert row["unit"] == "TFLOPS" and all(isinstance(v, str) for v in row.values())
    assert batch.claim_from_row(row) == Claim(**{**claim.__dict__, "value": Decimal("19.5")})


def test_claim_from_row_reads_every_field_in_order():
    claim = Claim("d", "H100", "speedup", Decimal("3"), "3x", 3, 5, variant="SXM5",
                  operator="~", qualifier="sparse", baseline="A100", metric="fp16",
                  precision_exp=-1, sentence="s", link="clause")
    defaults = Claim("", "H100", "speedup", Decimal("0"), "", 0, 0)
    assert all(getattr(claim, f.name) != getattr(defaults, f.name) for f in fields(Claim)
               if f.name not in ("entity", "attribute"))
    assert batch.claim_from_row(claim.as_row()) == claim
    assert batch.claim_from_row({"entity": "H100", "attribute": "speedup", "value": "3",
                                 "operator": "="}) == Claim("", "H100", "speedup",
                                                             Decimal("3"), "", 0, 0)
    with pytest.raises(decimal.InvalidOperation):
        batch.claim_from_row({**claim.as_row(), "value": "x", "start": "y"})
    with pytest.raises(ValueError, match="'y'"):
        batch.claim_from_row({**claim.as_row(), "start": "y", "precision_exp": "z"})
    with pytest.raises(ValueError, match="'z'"):
        batch.claim_from_row({**claim.as_row(), "end": "z", "precision_exp": "w"})


def test_checked_verdicts_equal_check_one_whatever_the_order():
    """The same figure written as TOPS and as TFLOPS gets the unit diagnosis it deserves,
    whichever of the two is checked first (workers see documents in any order)."""
    ref = load_reference()
    tops = Claim("d", "L20", "int8", Decimal("225"), "225 TFLOPS", 0, 10, qualifier="tensor")
    plain = Claim("d", "L20", "int8", Decimal("225"), "225 TOPS", 20, 28, qualifier="tensor")
    uncached = [check_module.check_one(c, ref) for c in (tops, plain)]
    for order in ((tops, plain), (plain, tops)):
        got = {c.surface: check_module.check([c], ref)[0] for c in order}
        assert got["225 TFLOPS"].diagnosis == uncached[0].diagnosis
        assert got["225 TOPS"].diagnosis == uncached[1].diagnosis
    assert "unit mix-up" in uncached[0].diagnosis and "unit mix-up" not in uncached[1].diagnosis


# --- checking in the workers -------------------------------------------------------------
def test_documents_are_checked_where_they_are_extracted(tmp_path, corpus):
    ref = load_reference()
    path = str(next(iter(sorted(corpus.iterdir()))).absolute())
    spec = batch.reference_spec(ref)
    result = batch.process_task(batch.DocumentTask(path, reference=spec))
    assert result["checked"] == spec.check_version and result["claims"][0]["verdict"]
    bare = batch.process_task(batch.DocumentTask(path))   # no reference: the parent checks
    assert "checked" not in bare and "verdict" not in bare["claims"][0]
    assert batch.checked_rows(bare["claims"], ref) == result["claims"]


def test_a_worker_that_cannot_check_leaves_it_to_the_parent(tmp_path, corpus, monkeypatch):
    assert run_cli("run", corpus, "--out", tmp_path / "normal").exit_code == 0
    monkeypatch.setattr(batch, "worker_reference", lambda spec: None)
    assert run_cli("run", corpus, "--out", tmp_path / "parent").exit_code == 0
    assert dump_store(tmp_path / "normal" / "specextract.db") == \
        dump_store(tmp_path / "parent" / "specextract.db")
    assert pages(tmp_path / "normal") == pages(tmp_path / "parent")


@pytest.mark.slow
def test_workers_recheck_a_new_reference_like_a_fresh_run(tmp_path, corpus):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    ref1 = write_reference(tmp_path / "ref1.csv", a100_fp32="19.5")
    ref2 = write_reference(tmp_path / "ref2.csv", a100_fp32="25")
    assert run_cli("run", corpus, "--out", out, "--reference", ref1).exit_code == 0
    result = run_cli("run", corpus, "--out", out, "--reference", ref2, "--workers", "2")
    assert "0 processed, 0 unchanged, 6 re-checked" in result.output, result.output
    assert run_cli("run", corpus, "--out", fresh, "--reference", ref2).exit_code == 0
    assert dump_store(out / "specextract.db") == dump_store(fresh / "specextract.db")
    assert pages(out) == pages(fresh)
    assert (out / "claims.csv").read_bytes() == (fresh / "claims.csv").read_bytes()


# --- report pages: only what changed -------------------------------------------------------
def test_report_pages_are_rewritten_only_for_changed_documents(tmp_path, corpus):
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    first = page_stats(out)
    assert len(first) == 6 and not (out / "report" / ".staging").exists()
    (corpus / "art_002.txt").write_text(article(7), encoding="utf-8")
    os.utime(corpus / "art_002.txt")
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    second = page_stats(out)
    changed = {name for name in first if second[name] != first[name]}
    assert len(changed) == 1 and next(iter(changed)).startswith("art_002-")
    # a missing page comes back; a page of a document that now fails goes
    missing = sorted(second)[0]
    (out / "report" / "docs" / missing).unlink()
    (corpus / "art_004.txt").write_bytes(b"\x00\x01\x02" * 50)
    assert run_cli("run", corpus, "--out", out).exit_code == 1
    third = pages(out)
    assert missing in third and not [n for n in third if n.startswith("art_004-")]
    # the same pages and index as a run from scratch
    fresh = tmp_path / "fresh"
    run_cli("run", corpus, "--out", fresh)
    assert third == pages(fresh)
    index = [(p / "report" / "index.html").read_text(encoding="utf-8").split("</p>", 2)[2]
             for p in (out, fresh)]
    assert index[0] == index[1]


def test_report_pages_stale_after_an_interrupted_run_are_redrawn(tmp_path, corpus, monkeypatch):
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    before = pages(out)
    (corpus / "art_001.txt").write_text(article(9), encoding="utf-8")
    from specextract.batch import job as runjob

    def stop(*args, **kwargs):
        raise KeyboardInterrupt
    with monkeypatch.context() as m:                   # stored, then stopped before the report
        m.setattr(runjob, "write_csv", stop)
        try:
            assert run_cli("run", corpus, "--out", out).exit_code != 0
        except KeyboardInterrupt:
            pass
    assert pages(out) == before
    result = run_cli("run", corpus, "--out", out)
    assert "0 processed, 6 unchanged" in result.output
    fresh = tmp_path / "fresh"
    run_cli("run", corpus, "--out", fresh)
    assert pages(out) == pages(fresh) != before


# --- claims.csv and the index from SQL -------------------------------------------------------
def test_claims_csv_from_cursor_tuples_equals_the_dict_rows(tmp_path, corpus):
    (corpus / "formula.txt").write_text("=HYPERLINK(\"x\") A100 的单精度算力为 -19.5 TFLOPS。\n"
                                        "+A100 显存 80GB，@H100 显存 -80GB。", encoding="utf-8")
    assert run_cli("run", corpus, "--out", tmp_path / "out").exit_code == 0
    with Store.open(tmp_path / "out" / "specextract.db", write=False) as store:
        by_dicts, by_tuples = io.StringIO(), io.StringIO()
        cols = list(CLAIM_STORE_COLUMNS)
        assert write_csv_to(store.claim_rows(), by_dicts, cols) == \
            write_csv_to(store.claim_values(), by_tuples, cols)
    assert by_dicts.getvalue() == by_tuples.getvalue()
    assert by_dicts.getvalue() == (tmp_path / "out" / "claims.csv").read_bytes().decode("utf-8")


def _checked(doc: str, value: str, verdict: str, entity: str = "A100") -> CheckedClaim:
    return CheckedClaim(Claim(doc, entity, "fp32", Decimal(value), f"{value} TFLOPS", 0, 5),
                        verdict)


def test_consensus_means_one_line_per_value_with_documents_claims_and_verdicts():
    items = [_checked("d1", "19.5", "supported"), _checked("d2", "19.50", "supported"),
             _checked("d3", "15", "contradicted"), _checked("d3", "15", "contradicted"),
             _checked("d4", "15", "unverifiable"), _checked("d4", "15", "unverifiable"),
             _checked("d5", "15", "approximate"), _checked("d1", "60", "supported", "H100")]
    frame = consensus(items, load_reference())
    lines = frame.to_dict("records")
    assert list(frame.columns) == list(CONSENSUS_COLUMNS)
    assert [(x["entity"], x["value"], x["documents"], x["claims"]) for x in lines] == [
        ("A100", "15", 3, 5), ("A100", "19.5", 2, 2), ("H100", "60", 1, 1)]
    # most claims first; a tie goes to the verdict seen first (d3 before d4)
    assert lines[0]["verdicts"] == "contradicted:2; unverifiable:2; approximate:1"
    assert lines[0]["unit"] == "TFLOPS" and "19.5" in lines[0]["reference_values"].split("; ")


def test_consensus_of_the_cli_equals_the_reports(tmp_path):
    """One definition: the report's consensus (the run's store) and `specextract consensus`
    (a temporary store of the claims it checks) give the same lines."""
    corpus = make_corpus(tmp_path / "corpus", 12, paragraphs=2)
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    cli_csv = tmp_path / "consensus.csv"
    assert run_cli("consensus", "--claims", out / "claims.csv", "-o", cli_csv).exit_code == 0
    with cli_csv.open(encoding="utf-8", newline="") as fh:
        from_cli = [[esc(cell) for cell in row] for row in csv.reader(fh)]
    with Store.open(out / "specextract.db", write=False) as store:
        html = "".join(consensus_table(store, load_reference()))
    cells = [re.findall(r"<t[hd]>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", html)]
    assert cells[0] == list(CONSENSUS_COLUMNS) == from_cli[0]
    assert cells[1:] == from_cli[1:] and len(cells) > 10
    assert (out / "report" / "consensus.html").read_text(encoding="utf-8").count("<tr>") == \
        len(cells)


def test_the_report_takes_the_consensus_a_side_job_wrote_or_writes_it_when_that_failed(
        tmp_path, corpus):
    from specextract.output.report import write_report
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    written = (out / "report" / "consensus.html").read_bytes()

    class Failed:
        def get(self):
            raise RuntimeError("its worker died")

    class Done:   # what a side job returns; the page is its to write
        def get(self):
            return 0, []
    ref = load_reference()
    with Store.open(out / "specextract.db", write=False) as store:
        write_report(store, tmp_path / "failed", ref, consensus=Failed())
        write_report(store, tmp_path / "done", ref, consensus=Done())
    assert (tmp_path / "failed" / "consensus.html").read_bytes() == written
    assert not (tmp_path / "done" / "consensus.html").exists()
    assert (tmp_path / "done" / "index.html").exists()


def test_report_index_without_pandas(tmp_path, corpus):
    """A run imports neither pandas nor pyarrow (the report and the reference use the csv
    module and SQL)."""
    import subprocess
    import sys
    code = ("import sys; from specextract.cli import cli\n"
            "try:\n    cli.main(args=sys.argv[1:], prog_name='specextract')\n"
            "except SystemExit:\n    pass\n"
            "print('PANDAS' if {'pandas', 'pyarrow'} & set(sys.modules) else 'CLEAN')")
    done = subprocess.run([sys.executable, "-c", code, "run", str(corpus), "--out",
                           str(tmp_path / "out"), "--no-progress"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().endswith("CLEAN"), done.stdout + done.stderr
    header = (tmp_path / "out" / "claims.csv").read_text(encoding="utf-8").splitlines()[0]
    assert next(csv.reader([header])) == list(CLAIM_STORE_COLUMNS)
