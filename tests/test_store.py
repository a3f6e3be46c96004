"""The SQLite store on its own: creation, identity, schema versions, atomic writes."""
from __future__ import annotations

import sqlite3

import pytest

from specextract.store import db as store_module
from specextract.store.db import APPLICATION_ID, Store, StoreError

DOC = {"path": "/c/a.txt", "doc_id": "a", "content_hash": "h1", "status": "ok",
       "pipeline_version": "p1", "check_version": "c1", "text": "A100 19.5 TFLOPS"}


def row(value: str, **kw: str) -> dict[str, str]:
    return {"doc_id": "a", "entity": "A100", "attribute": "fp32", "value": value,
            "unit": "TFLOPS", "surface": f"{value} TFLOPS", "start": "5", "end": "16",
            "verdict": "supported", **kw}


def test_new_store_is_marked_and_in_wal_mode(tmp_path):
    db = tmp_path / "s.db"
    Store.open(db).close()
    header = db.read_bytes()[:100]
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
    assert not list(tmp_path.glob(".s.db.creating-*"))


def test_put_document_replaces_claims_atomically(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.put_document(DOC, [row("19.5"), row("15")])
        with pytest.raises(ValueError):
            store.put_document({**DOC, "content_hash": "h2"}, [row("20"), row("9", start="x")])
        assert [r["value"] for r in store.claim_rows()] == ["19.5", "15"]
        assert store.known("/c/a.txt").content_hash == "h1"
        store.put_document({**DOC, "content_hash": "h2"}, [row("20")])
        assert [r["value"] for r in store.claim_rows()] == ["20"]
        assert store.known("/c/a.txt").n_claims == 1


def test_a_newer_schema_version_is_refused(tmp_path):
    db = tmp_path / "s.db"
    Store.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="schema version 99"):
        Store.open(db)


def test_a_claim_column_added_to_the_codebook_is_added_to_the_store(tmp_path, monkeypatch):
    db = tmp_path / "s.db"
    with Store.open(db) as store:
        store.put_document(DOC, [row("19.5")])
    monkeypatch.setattr(store_module, "CLAIM_STORE_COLUMNS",
                        store_module.CLAIM_STORE_COLUMNS + ("new_column",))
    with pytest.raises(StoreError, match="lacks the claim columns"):
        Store.open(db, write=False)
    with Store.open(db) as store:
        [claim] = store.claim_rows()
        assert claim["value"] == "19.5" and claim["new_column"] == ""


def test_read_only_open_needs_an_existing_store(tmp_path):
    with pytest.raises(StoreError, match="no such store"):
        Store.open(tmp_path / "none.db", write=False)
    assert not (tmp_path / "none.db").exists()
