"""The SQLite store on its own: creation, identity, schema versions, atomic writes."""
from __future__ import annotations

import sqlite3

import pytest

from specextract.codebook import VERDICTS
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


def _indexes(db) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                           "AND name NOT LIKE 'sqlite_%'")}
    finally:
        conn.close()


def test_claims_carry_no_verdict_index_and_older_stores_lose_theirs(tmp_path):
    db = tmp_path / "s.db"
    Store.open(db).close()
    assert store_module.RETIRED_INDEX not in _indexes(db)
    conn = sqlite3.connect(db)
    conn.execute(f"CREATE INDEX {store_module.RETIRED_INDEX} ON claims (verdict)")
    conn.commit()
    conn.close()
    Store.open(db, write=False).close()           # reading leaves the file as it is
    assert store_module.RETIRED_INDEX in _indexes(db)
    with Store.open(db) as store:
        store.put_document(DOC, [row("19.5"), row("15", verdict="contradicted")])
        assert store.verdict_counts() == {"supported": 1, "contradicted": 1}
    assert store_module.RETIRED_INDEX not in _indexes(db)


def test_verdict_tallies_read_once_what_the_three_count_queries_give(tmp_path):
    from specextract.store import queries
    with Store.open(tmp_path / "s.db") as store:
        store.put_document(DOC, [row("19.5"), row("15", verdict="contradicted"),
                                 row("15", entity="H100"), row("9", entity="V100", attribute="fp64"),
                                 row("7", entity="V100", verdict="approximate"),
                                 row("1", entity=None, attribute=None, verdict="unverifiable")])
        store.conn.execute("UPDATE claims SET verdict = NULL WHERE entity = 'H100' "
                           "OR attribute = 'fp64'")   # claims not checked yet
        counts = ", ".join(f"sum(verdict = '{v}')" for v in VERDICTS)   # one read per key

        def by(column):
            return store.conn.execute(f"SELECT coalesce({column}, ''), {counts} FROM claims "
                                      "GROUP BY 1 ORDER BY count(*) DESC, 1").fetchall()
        tallies = queries.verdict_tallies(store.conn)
        assert tallies == (store.verdict_counts(), by("entity"), by("attribute"))
        assert ("H100", None, None, None, None) in tallies[1]   # SQLite's sum of nothing


def test_unseen_counts_the_documents_this_run_did_not_name(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.put_document(DOC, [row("19.5")])
        store.put_document({**DOC, "path": "/c/b.txt", "doc_id": "b"}, [])
        store.mark_seen("/c/b.txt")
        store.mark_seen("/c/new.txt")
        assert store.unseen() == (1, ["/c/a.txt"])
        store.mark_seen("/c/a.txt")
        assert store.unseen() == (0, [])


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


def test_the_listed_order_key_sorts_claims_as_doc_id_path_seq_do():
    """queries.LISTED_ORDER stands in for ``ORDER BY doc_id, path, seq`` (a group's first
    claim): prefixes, a missing doc_id, non-ASCII and control characters, seq 9 before 10,
    seq up to 2^32 - 1; each claim gets its own key."""
    from itertools import product

    from specextract.store.queries import LISTED_JOIN, LISTED_ORDER, LISTED_RANKS
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE claims (path TEXT NOT NULL, seq INTEGER NOT NULL, doc_id TEXT)")
    doc_ids = [None, "", "a", "a b", "ab", "a\x01", "b", "é", "\U0001d400"]
    paths = ["p", "p ", "p1", "p/1", "p\x01", "pé", "q"]
    seqs = (0, 2, 9, 10, 100, 2**32 - 1)
    conn.executemany("INSERT INTO claims VALUES (?, ?, ?)",
                     [(p, s, d) for d, p, s in product(doc_ids, paths, seqs)])
    listed = conn.execute("SELECT doc_id, path, seq FROM claims "
                          "ORDER BY doc_id, path, seq").fetchall()
    keyed = conn.execute(f"WITH {LISTED_RANKS} SELECT claims.doc_id, claims.path, claims.seq, "
                         f"{LISTED_ORDER} FROM claims {LISTED_JOIN} "
                         f"ORDER BY {LISTED_ORDER}").fetchall()
    assert [k[:3] for k in keyed] == listed and len(listed) == len(doc_ids) * len(paths) * 6
    assert len({k[3] for k in keyed}) == len(keyed)
