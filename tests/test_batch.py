"""`specextract run`: the store, incremental re-runs, re-checks, failures, usage errors."""
from __future__ import annotations

import csv
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from batchkit import article, dump_store, make_corpus, run_cli, write_reference
from specextract.batch import versions
from specextract.extract import document as pipeline
from specextract.codebook import CLAIM_COLUMNS, EXTRA_COLUMNS
from specextract.store.db import Store


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "corpus", 4)


@pytest.fixture
def extractions(monkeypatch) -> list[str]:
    """Every document the pipeline extracts in this process, by doc_id."""
    calls: list[str] = []
    real = pipeline.process_document

    def counting(doc):
        calls.append(doc.doc_id)
        return real(doc)
    monkeypatch.setattr(pipeline, "process_document", counting)
    return calls


def claims_csv(out: Path) -> list[dict[str, str]]:
    with (out / "claims.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_run_writes_store_claims_csv_and_report(tmp_path, corpus):
    out = tmp_path / "out"
    result = run_cli("run", corpus, "--out", out)
    assert result.exit_code == 0, result.output
    assert "4 documents: 4 processed, 0 unchanged" in result.output
    with (out / "claims.csv").open(encoding="utf-8") as fh:
        header = fh.readline().strip().split(",")
    assert header == list(CLAIM_COLUMNS) + list(EXTRA_COLUMNS)
    rows = claims_csv(out)
    assert {r["doc_id"] for r in rows} == {f"art_{i:03d}" for i in range(4)}
    assert (out / "report" / "index.html").is_file()
    with Store.open(out / "specextract.db", write=False) as store:
        docs = list(store.documents())
        assert {d["status"] for d in docs} == {"ok"}
        assert all(d["pipeline_version"] == versions.pipeline_version() for d in docs)
        assert sum(d["n_claims"] for d in docs) == len(rows)
        [run] = store.runs()
        assert (run["status"], run["processed"], run["failed"]) == ("finished", 4, 0)
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_rerun_processes_nothing(tmp_path, corpus, extractions):
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    assert len(extractions) == 4
    before = dump_store(out / "specextract.db")
    extractions.clear()
    result = run_cli("run", corpus, "--out", out)
    assert result.exit_code == 0
    assert extractions == []
    assert "0 processed, 4 unchanged, 0 re-checked" in result.output
    assert dump_store(out / "specextract.db") == before


def test_changed_file_is_reprocessed_and_its_claims_replaced(tmp_path, corpus, extractions):
    out = tmp_path / "out"
    run_cli("run", corpus, "--out", out)
    extractions.clear()
    (corpus / "art_001.txt").write_text("NVIDIA A100 的单精度算力为 77 TFLOPS。", encoding="utf-8")
    result = run_cli("run", corpus, "--out", out)
    assert extractions == ["art_001"]
    assert "1 processed, 3 unchanged" in result.output
    mine = [r for r in claims_csv(out) if r["doc_id"] == "art_001"]
    assert [(r["entity"], r["attribute"], r["value"]) for r in mine] == [("A100", "fp32", "77")]


def test_new_reference_rechecks_without_extracting(tmp_path, corpus, monkeypatch):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    ref1 = write_reference(tmp_path / "ref1.csv", a100_fp32="19.5")
    ref2 = write_reference(tmp_path / "ref2.csv", a100_fp32="25")
    assert run_cli("run", corpus, "--out", out, "--reference", ref1).exit_code == 0
    verdict = {(r["doc_id"], r["attribute"], r["value"]): r["verdict"] for r in claims_csv(out)}
    assert verdict[("art_000", "fp32", "19.5")] == "supported"

    def no_extraction(doc):
        raise AssertionError(f"extracted {doc.doc_id} again")
    with monkeypatch.context() as m:
        m.setattr(pipeline, "process_document", no_extraction)
        result = run_cli("run", corpus, "--out", out, "--reference", ref2)
    assert result.exit_code == 0, result.output
    assert "0 processed, 0 unchanged, 4 re-checked" in result.output
    rows = {(r["doc_id"], r["attribute"], r["value"]): r for r in claims_csv(out)}
    assert rows[("art_000", "fp32", "19.5")]["verdict"] == "contradicted"
    assert rows[("art_000", "fp32", "19.5")]["expected"] == "25"
    # the re-checked store equals a store built from scratch with the new reference
    assert run_cli("run", corpus, "--out", fresh, "--reference", ref2).exit_code == 0
    assert dump_store(out / "specextract.db") == dump_store(fresh / "specextract.db")


def test_new_pipeline_version_reextracts(tmp_path, corpus, extractions, monkeypatch):
    out = tmp_path / "out"
    run_cli("run", corpus, "--out", out)
    extractions.clear()
    monkeypatch.setattr("specextract.batch.run.pipeline_version", lambda: "0.1.0+lexicon-edited")
    result = run_cli("run", corpus, "--out", out)
    assert len(extractions) == 4 and "4 processed" in result.output


def _imports_by_syntax_tree(source: str, package: list[str]) -> set[str]:
    """What versions._imports_of must find in a module of ``package``, read off the full
    syntax tree."""
    import ast
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = package[: len(package) - (node.level - 1)]
                prefix = ".".join(parent + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "specextract":
                prefix = node.module.partition(".")[2]
            else:
                continue
            found |= {prefix} | {f"{prefix}.{a.name}".lstrip(".") for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name.partition(".")[2] for a in node.names
                      if a.name.split(".")[0] == "specextract"}
    return found - {""}


def test_imports_read_off_the_lines_are_those_of_the_syntax_tree(tmp_path):
    source = ("import os\nfrom . import a\ndef f():\n    if x:\n        from .b import c\n"
              "    else:\n        import specextract.d as dd, json\nclass K:\n    try:\n"
              "        pass\n    except E:\n        from ..e import (g,  # why\n"
              "            gg as g2,\n        )\n    finally:\n        from .h import i, \\\n"
              "            ii\n"
              "with m:\n    for q in r:\n        while s:\n            from .j import k\n"
              "        else:\n            from specextract.n import o  # note\n"
              "match t:\n    case 1:\n        from .u import v\n")
    sample = tmp_path / "sample.py"
    sample.write_text(source, encoding="utf-8")
    assert set(versions._imports_of(sample, "extract.sample")) == _imports_by_syntax_tree(
        source, ["extract"]) == {
        "extract", "extract.a", "extract.b", "extract.b.c", "d", "e", "e.g", "e.gg",
        "extract.h", "extract.h.i", "extract.h.ii", "extract.j", "extract.j.k", "n", "n.o",
        "extract.u", "extract.u.v"}
    for path in versions.PACKAGE_DIR.rglob("*.py"):
        parts = path.relative_to(versions.PACKAGE_DIR).with_suffix("").parts
        if parts == ("__init__",):
            continue   # the package itself: no module name, never walked
        package = list(parts[:-1])
        name = ".".join(package if parts[-1] == "__init__" else parts)
        expected = _imports_by_syntax_tree(path.read_text(encoding="utf-8"), package)
        # (a docstring line that reads like an import would be taken too: see below)
        assert set(versions._imports_of(path, name)) == expected, path
    documented = tmp_path / "documented.py"
    documented.write_text('"""Use it so:\n\n    from .widgets import knob\n"""\n', encoding="utf-8")
    assert versions._imports_of(documented, "extract.documented") == (
        "extract.widgets", "extract.widgets.knob")   # one module more to hash, none missed


def test_pipeline_version_covers_extraction_code_and_lexicons_not_the_reference():
    modules = {p.relative_to(versions.PACKAGE_DIR).as_posix()
               for p in versions.imported_modules(*versions.PIPELINE_ROOTS)}
    assert {"extract/document.py", "extract/blocks.py", "extract/claims.py",
            "extract/mentions.py", "extract/prose.py", "extract/tables.py",
            "extract/quantities.py", "normalize/text.py", "ingest/read.py",
            "extract/__init__.py", "normalize/__init__.py"} <= modules
    assert not {m for m in modules if m.split("/")[0] in ("cli.py", "store", "batch", "output",
                                                          "check")}
    data = {p.name for p in versions.data_files()}
    assert {"chips.tsv", "attributes.tsv", "units.tsv"} <= data
    assert "specs.csv" not in data


def test_module_files_are_found_as_the_import_system_finds_them():
    # a.py, else a/__init__.py; names that are no module (imported functions) give None
    names = set(versions._package_sources()) | {"extract.claims.extract", "nothing", "data"}
    for name in names:
        base = versions.PACKAGE_DIR.joinpath(*name.split("."))
        expected = next((c for c in (base.with_suffix(".py"), base / "__init__.py")
                         if c.is_file()), None)
        assert versions._module_file(name) == expected, name
    assert versions._module_file("extract") == versions.PACKAGE_DIR / "extract" / "__init__.py"
    assert versions._module_file("extract.claims.extract") is None


def test_same_file_name_in_two_folders_keeps_both(tmp_path):
    for folder, value in (("a", "19.5"), ("b", "15")):
        (tmp_path / "in" / folder).mkdir(parents=True)
        (tmp_path / "in" / folder / "x.txt").write_text(
            f"NVIDIA A100 的单精度算力为 {value} TFLOPS。", encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("run", tmp_path / "in", "--out", out).exit_code == 0
    rows = claims_csv(out)
    assert sorted((r["doc_id"], r["value"]) for r in rows) == [("x", "15"), ("x", "19.5")]
    assert len(list((out / "report" / "docs").iterdir())) == 2


def test_bad_file_among_good_ones_exits_1_and_is_named(tmp_path, corpus):
    (corpus / "broken.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    out = tmp_path / "out"
    result = run_cli("run", corpus, "--out", out)
    assert result.exit_code == 1
    assert "1 failed" in result.output
    assert "failed: " in result.output and "broken.txt: binary (PNG image)" in result.output
    with Store.open(out / "specextract.db", write=False) as store:
        bad = [d for d in store.documents() if d["status"] == "error"]
    assert [(d["doc_id"], d["reason"]) for d in bad] == [("broken", "binary")]
    assert "broken.txt: binary" in (out / "report" / "index.html").read_text(encoding="utf-8")
    assert len({r["doc_id"] for r in claims_csv(out)}) == 4
    again = run_cli("run", corpus, "--out", out)  # failures are retried, and still fail
    assert again.exit_code == 1 and "4 unchanged" in again.output


def test_interrupted_run_resumes_to_the_same_store(tmp_path, corpus, monkeypatch):
    out, whole = tmp_path / "out", tmp_path / "whole"
    real, seen = pipeline.process_document, []

    def interrupt_third(doc):
        seen.append(doc.doc_id)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(doc)
    with monkeypatch.context() as m:
        m.setattr(pipeline, "process_document", interrupt_third)
        result = run_cli("run", corpus, "--out", out)
    assert result.exit_code == 130 and "interrupted" in result.output
    with Store.open(out / "specextract.db", write=False) as store:
        assert len(list(store.documents())) == 2
        assert store.runs()[-1]["status"] == "interrupted"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    assert run_cli("run", corpus, "--out", whole).exit_code == 0
    assert dump_store(out / "specextract.db") == dump_store(whole / "specextract.db")


@pytest.mark.parametrize("content", [b"", b"just some text, not a database\n" * 10,
                                     bytes(range(256)) * 8], ids=["empty", "text", "binary"])
def test_store_refuses_a_file_that_is_not_a_store(tmp_path, corpus, content):
    db = tmp_path / "thing.db"
    db.write_bytes(content)
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--db", db)
    assert result.exit_code == 2
    assert "not a specextract store" in result.output
    assert db.read_bytes() == content
    assert not (tmp_path / "thing.db.lock").exists()


def test_store_refuses_another_programs_sqlite_file(tmp_path, corpus):
    db = tmp_path / "other.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE documents (path TEXT PRIMARY KEY, note TEXT)")
    conn.execute("INSERT INTO documents VALUES ('a', 'keep me')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for args in (("run", corpus, "--out", tmp_path / "out", "--db", db),
                 ("export", "--db", db)):
        result = run_cli(*args)
        assert result.exit_code == 2
        assert "not a specextract store (an SQLite database of another program)" in result.output
    assert db.read_bytes() == before


def test_a_second_concurrent_run_is_told_the_store_is_locked(tmp_path, corpus):
    db = tmp_path / "out" / "specextract.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from specextract.store.db import Store; "
         f"s = Store.open({str(db)!r}); print('ready', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        result = run_cli("run", corpus, "--out", tmp_path / "out")
        assert result.exit_code == 2
        assert f"locked by another run (pid {holder.pid})" in result.output
    finally:
        holder.communicate("", timeout=30)
    assert run_cli("run", corpus, "--out", tmp_path / "out").exit_code == 0


@pytest.mark.parametrize("args,message", [
    (("--workers", "0"), "--workers"),
    (("--dask", "nowhere"), "--dask takes 'local'"),
    (("--send-bytes",), "--send-bytes needs --dask"),
    (("--workers", "2", "--dask", "local"), "not both"),
], ids=["workers-0", "dask-address", "send-bytes", "workers-and-dask"])
def test_usage_errors_exit_2(tmp_path, corpus, args, message):
    result = run_cli("run", corpus, "--out", tmp_path / "out", *args)
    assert result.exit_code == 2 and message in result.output


def test_no_input_files_is_a_usage_error(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run_cli("run", tmp_path / "empty", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "no input files" in result.output


def test_missing_input_fails_with_its_reason(tmp_path, corpus):
    result = run_cli("run", corpus, tmp_path / "nope.txt", "--out", tmp_path / "out")
    assert result.exit_code == 1 and "nope.txt: missing" in result.output


def test_inputs_mix_files_folders_and_globs(tmp_path, corpus):
    shutil.copy(corpus / "art_000.txt", tmp_path / "single.txt")
    (corpus / ".hidden.txt").write_text(article(9), encoding="utf-8")
    result = run_cli("run", tmp_path / "single.txt", str(corpus / "art_00[12].txt"),
                     "--out", tmp_path / "out")
    assert result.exit_code == 0 and "3 documents" in result.output
    result = run_cli("run", corpus, "--out", tmp_path / "out2")
    assert "4 documents" in result.output


def test_undecodable_file_name_is_stored_with_escapes(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    name = os.fsdecode(b"\xce\xc4\xd5\xc2.txt")   # a GBK file name on a UTF-8 file system
    try:
        (folder / name).write_text("NVIDIA A100 的单精度算力为 19.5 TFLOPS。", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system does not take undecodable names")
    out = tmp_path / "out"
    assert run_cli("run", folder, "--out", out).exit_code == 0
    [row] = claims_csv(out)
    assert row["doc_id"] == "\\udcce\\udcc4\\udcd5\\udcc2" and row["value"] == "19.5"
    assert "0 processed, 1 unchanged" in run_cli("run", folder, "--out", out).output
