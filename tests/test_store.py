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


def test_claims_come_in_doc_id_path_seq_order_as_one_sorted_query_gives(tmp_path):
    """claim_values and claim_rows read document by document; the order is ORDER BY
    doc_id, path, seq's whatever the stored doc_ids: missing, shared by two paths, out of
    path order, or differing within one document, and seq 9 before 10."""
    db = tmp_path / "s.db"
    with Store.open(db) as store:
        for path, doc_id in [("/c/z.txt", "a"), ("/c/b.txt", "b"), ("/c/a.txt", "b"),
                             ("/c/m.txt", "a b"), ("/c/n.txt", "é")]:
            store.put_document({**DOC, "path": path, "doc_id": doc_id},
                               [row(str(v), doc_id=doc_id,
                                    verdict="supported" if v % 3 else "contradicted")
                                for v in range(12)])
    conn = sqlite3.connect(db)
    with conn:   # stored rows as an older or hand-edited store may hold them
        conn.execute("UPDATE claims SET doc_id = NULL WHERE path = '/c/n.txt' AND seq < 3")
        conn.execute("UPDATE claims SET doc_id = 'c' WHERE path = '/c/z.txt' AND seq % 2 = 1")
    sorted_rows = conn.execute("SELECT * FROM claims ORDER BY doc_id, path, seq").fetchall()
    conn.close()
    with Store.open(db, write=False) as store:
        names = [d[1] for d in store.conn.execute("PRAGMA table_info(claims)")]
        assert list(store.claim_values(names)) == sorted_rows
        assert not store.conn.in_transaction   # its read transaction ended with the rows
        by_rows = [(r["doc_id"], r["value"]) for r in store.claim_rows(verdicts=["supported"])]
        assert by_rows == [(r[names.index("doc_id")] or "", r[names.index("value")])
                           for r in sorted_rows if r[names.index("verdict")] == "supported"]
        assert [r["value"] for r in store.claim_rows(path="/c/z.txt")] == \
            [str(v) for v in (0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11)]
    assert len(sorted_rows) == 60


def test_claim_values_are_one_snapshot_while_another_process_writes(tmp_path):
    db = tmp_path / "s.db"
    with Store.open(db) as store:
        for name in "bd":
            store.put_document({**DOC, "path": f"/c/{name}.txt", "doc_id": name},
                               [row("19.5", doc_id=name), row("15", doc_id=name)])
    with Store.open(db, write=False) as reader:
        values = reader.claim_values(["doc_id", "value"])
        first = next(values)
        writer = sqlite3.connect(db)
        with writer:
            writer.execute("PRAGMA foreign_keys = ON")
            writer.execute("DELETE FROM documents WHERE path = '/c/d.txt'")
            writer.execute("UPDATE claims SET value = '99' WHERE path = '/c/b.txt'")
        writer.close()
        assert [first, *values] == [("b", "19.5"), ("b", "15"), ("d", "19.5"), ("d", "15")]
        assert list(reader.claim_values(["doc_id", "value"])) == [("b", "99"), ("b", "99")]


def test_a_reader_left_half_way_ends_quietly_after_its_store_closed(tmp_path, monkeypatch):
    """A failed export (a full disk) leaves its reader suspended; the store closes first,
    and the reader's end must raise nothing then."""
    import gc
    import sys
    raised = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    store = Store.open(tmp_path / "s.db")
    store.put_document(DOC, [row("19.5"), row("15")])
    values, rows = store.claim_values(), store.claim_rows()
    next(values), next(rows)
    store.close()
    del values, rows
    gc.collect()
    assert raised == []


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
