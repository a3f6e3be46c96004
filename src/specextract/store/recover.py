"""Salvage a damaged store into a new one: ``specextract store recover DAMAGED NEW``.

Every documents and claims row SQLite can still read is copied, read by rowid ranges that
are halved around the damage down to single rows (a row that cannot be read is lost; the
damaged file is opened read-only and never written). A document that lost claims is
stored as failed ("recovered"), so the next run extracts it again; the runs history is
not copied.
"""
from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ..errors import StoreError
from .db import DOCUMENT_COLUMNS, Store, check_identity

CHUNK = 512
RECOVERED = "recovered"


def salvage(conn: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[tuple]:
    """The readable rows of ``table`` (``columns``), by rowid."""
    cols = ", ".join(f'"{c}"' for c in columns)
    try:
        top = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    except sqlite3.DatabaseError:
        pages, size = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count",
                                                                             "page_size"))
        top = pages * size // 16
    stack = [(lo, min(lo + CHUNK - 1, top)) for lo in range(top - top % CHUNK, -1, -CHUNK)]
    while stack:
        lo, hi = stack.pop()
        try:
            rows = conn.execute(f"SELECT {cols} FROM {table} WHERE rowid BETWEEN ? AND ?",
                                (lo, hi)).fetchall()
        except sqlite3.DatabaseError:
            if lo < hi:
                mid = (lo + hi) // 2
                stack.extend([(mid + 1, hi), (lo, mid)])
            continue
        yield from rows


def recover(source: str | Path, target: str | Path) -> Counter:
    """Copy what ``source`` still holds into the new store ``target``; counts of documents,
    claims and documents to extract again."""
    source, target = Path(source), Path(target)
    if target.exists():
        raise StoreError(f"{target}: exists; recover into a new file")
    check_identity(source)
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    counts: Counter = Counter()
    try:
        with Store.open(target) as store:
            claim_cols = [r[1] for r in store.conn.execute("PRAGMA table_info(claims)")]
            have = {r[1] for r in _table_info(src, "claims")}
            claim_cols = [c for c in claim_cols if c in have]
            with store.conn:
                for row in salvage(src, "documents", list(DOCUMENT_COLUMNS)):
                    store.conn.execute(f"INSERT OR IGNORE INTO documents "
                                       f"({', '.join(DOCUMENT_COLUMNS)}) VALUES "
                                       f"({', '.join('?' * len(DOCUMENT_COLUMNS))})", row)
                    counts["documents"] += 1
                paths = {r[0] for r in store.conn.execute("SELECT path FROM documents")}
                at = claim_cols.index("path")
                names = ", ".join(f'"{c}"' for c in claim_cols)
                for row in salvage(src, "claims", claim_cols):
                    if row[at] in paths:
                        store.conn.execute(f"INSERT OR IGNORE INTO claims ({names}) VALUES "
                                           f"({', '.join('?' * len(claim_cols))})", row)
                        counts["claims"] += 1
                counts["again"] = store.conn.execute(
                    "UPDATE documents SET status = 'error', reason = ?, error = path || "
                    "': claims lost in recovery; extracted again on the next run' "
                    "WHERE status = 'ok' AND n_claims != (SELECT count(*) FROM claims "
                    "WHERE claims.path = documents.path)", (RECOVERED,)).rowcount
    finally:
        src.close()
    return counts


def _table_info(conn: sqlite3.Connection, table: str) -> list[tuple]:
    try:
        return conn.execute(f"PRAGMA table_info({table})").fetchall()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot read the table {table} of the damaged store: {exc}") from None
