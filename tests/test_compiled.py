"""The compiled modules: used only when built from exactly these sources, and giving the
same claims, verdicts, document pages and consensus rows as the Python sources.

The comparison runs when a build is in use (``make run`` makes one; ``.ci/run`` sets
SPECEXTRACT_REQUIRE_COMPILED=1, so that a build that silently failed fails here instead of
leaving every run slower).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from specextract import compiled

ROOT = Path(__file__).resolve().parents[1]
OUTPUTS_SCRIPT = """
import json, sys
from pathlib import Path
from specextract import compiled, read_document, extract, check, load_reference
from specextract.output.index import consensus_table
from specextract.output.pages import document_page
from specextract.store.db import Store
ref, store = load_reference(), Store.in_memory()
rows, pages = [], []
for p in sorted(Path(sys.argv[1]).glob("*.txt")):
    doc = read_document(p)
    claims = extract(doc.text, doc_id=doc.doc_id)
    checked = [c.as_row() for c in check(claims, ref)]
    record = {"path": doc.doc_id, "doc_id": doc.doc_id, "status": "ok", "text": doc.text,
              "pipeline_version": ""}
    rows += [c.as_row() for c in claims]
    pages.append(document_page(record, checked))
    store.put_document(record, checked)
print(json.dumps({"mode": compiled.mode()[0], "rows": rows, "pages": pages,
                  "consensus": "".join(consensus_table(store, ref))}, default=str))
"""


def outputs_of(folder: Path, pure: bool) -> dict:
    """The claims of every .txt file of ``folder``, their checked pages and the consensus."""
    env = dict(os.environ, SPECEXTRACT_PURE="1" if pure else "0")
    done = subprocess.run([sys.executable, "-c", OUTPUTS_SCRIPT, str(folder)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_a_required_build_is_in_use():
    if os.environ.get("SPECEXTRACT_REQUIRE_COMPILED") != "1":
        pytest.skip("a compiled build is required only where SPECEXTRACT_REQUIRE_COMPILED=1")
    usable, why = compiled.build_status()
    assert usable, why
    assert compiled.mode()[0] == "compiled", compiled.mode()


def test_compiled_and_python_modules_give_identical_claims_pages_and_consensus():
    usable, why = compiled.build_status()
    if not usable:
        pytest.skip(f"no compiled build in use: {why}")
    fast, pure = outputs_of(ROOT / "corpus", pure=False), outputs_of(ROOT / "corpus", pure=True)
    assert (fast["mode"], pure["mode"]) == ("compiled", "pure")
    assert len(fast["rows"]) > 500
    assert fast["rows"] == pure["rows"]
    assert "v-contradicted" in "".join(fast["pages"])  # pages carry verdicts
    assert fast["pages"] == pure["pages"]
    assert fast["consensus"].count("<tr>") > 100
    assert fast["consensus"] == pure["consensus"]


def write_manifest(tmp_path: Path, **fields) -> Path:
    manifest = {"python": sys.implementation.cache_tag, "sources": compiled.sources_hash(),
                "modules": ["specextract.extract.claims"], **fields}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    return path


@pytest.fixture
def manifest_at(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)

    def use(**fields):
        monkeypatch.setattr(compiled, "MANIFEST", write_manifest(tmp_path, **fields))
    return use


def test_a_build_from_these_sources_is_usable(manifest_at):
    manifest_at()
    assert compiled.build_status()[0]


def test_a_build_from_other_sources_is_stale(manifest_at):
    manifest_at(sources="0" * 64)
    usable, why = compiled.build_status()
    assert not usable and why.startswith("stale")


def test_a_build_for_another_python_is_not_used(manifest_at):
    manifest_at(python="cpython-39")
    usable, why = compiled.build_status()
    assert not usable and "cpython-39" in why


def test_the_pure_variable_turns_the_build_off(manifest_at, monkeypatch):
    manifest_at()
    monkeypatch.setenv(compiled.PURE_VARIABLE, "1")
    assert compiled.build_status() == (False, f"{compiled.PURE_VARIABLE} is set")


def test_no_build_means_python(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "missing.json")
    usable, why = compiled.build_status()
    assert not usable and "no compiled build" in why


def test_any_source_change_changes_the_hash(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "extract").mkdir(parents=True)
    (package / "extract" / "a.py").write_text("X = 1\n")
    monkeypatch.setattr(compiled, "PACKAGE_DIR", package)
    monkeypatch.setattr(compiled, "OUT", package / "_compiled")
    before = compiled.sources_hash()
    (package / "other.py").write_text("Y = 2\n")  # a module that is not compiled counts too
    assert compiled.sources_hash() != before
