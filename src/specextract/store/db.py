"""The batch store: one SQLite file holding documents, their claims and the runs.

    store = Store.open("out/specextract.db")        # creates it, takes the run lock
    store.known(path)                               # what the store has for a file
    store.put_document(doc, rows)                   # one document, one transaction
    store.close()

Tables: ``documents`` (keyed by path; doc_id stays the codebook column), ``claims`` (the
codebook's columns, then the export's: offsets, sentence, verdict evidence; keyed by
path and position), ``runs`` and ``schema_version``. WAL mode; each document is written
in one transaction, so a run killed at any point leaves a consistent store.

A file is recognised as a store by SQLite's header and ``PRAGMA application_id``, read
as bytes before SQLite opens it, so any other file is refused untouched. A new store is
built under a temporary name and renamed into place. One run at a time: ``open`` takes
an exclusive lock on ``<db>.lock`` (released by the OS when the process dies).
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from operator import itemgetter
from pathlib import Path

from ..errors import StoreError
from ..codebook import CLAIM_COLUMNS, EXTRA_COLUMNS
from .faults import damaged
from .lock import LockedError, LockFile

__all__ = ["Store", "StoreError", "LockedError", "Known", "check_identity"]

SCHEMA_VERSION = 1
APPLICATION_ID = 0x53505831          # "SPX1" in the SQLite header, offset 68
SQLITE_MAGIC = b"SQLite format 3\x00"
CLAIM_STORE_COLUMNS: tuple[str, ...] = CLAIM_COLUMNS + tuple(
    c for c in EXTRA_COLUMNS if c not in CLAIM_COLUMNS)
INTEGER_COLUMNS = frozenset({"start", "end", "precision_exp"})
VERDICT_COLUMNS: tuple[str, ...] = ("verdict", "expected", "expected_variant",
                                    "expected_condition", "deviation", "diagnosis", "source",
                                    "confidence", "self_contradiction")
DOCUMENT_COLUMNS: tuple[str, ...] = (
    "path", "doc_id", "content_hash", "size", "encoding", "format", "script", "status",
    "reason", "error", "pipeline_version", "reference_version", "check_version",
    "n_claims", "text", "processed_at")
RUN_COUNTS: tuple[str, ...] = ("documents", "processed", "unchanged", "rechecked", "failed",
                               "claims")


RETIRED_INDEX = "claims_verdict"   # an index on claims (verdict) that older stores hold
WAL_PAGES = 10_000   # pages in the WAL before SQLite checkpoints it (its default: 1,000)


def _q(name: str) -> str:
    return f'"{name}"'


def _schema_sql() -> str:
    claim_cols = ",\n  ".join(
        f"{_q(c)} {'INTEGER' if c in INTEGER_COLUMNS else 'TEXT'}" for c in CLAIM_STORE_COLUMNS)
    counts = ", ".join(f"{c} INTEGER NOT NULL DEFAULT 0" for c in RUN_COUNTS)
    return f"""
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE documents (
  path TEXT PRIMARY KEY, doc_id TEXT NOT NULL, content_hash TEXT, size INTEGER,
  encoding TEXT, format TEXT, script TEXT,
  status TEXT NOT NULL CHECK (status IN ('ok', 'error')), reason TEXT, error TEXT,
  pipeline_version TEXT NOT NULL, reference_version TEXT, check_version TEXT,
  n_claims INTEGER NOT NULL DEFAULT 0, text TEXT, processed_at TEXT NOT NULL);
CREATE INDEX documents_doc_id ON documents (doc_id);
CREATE TABLE claims (
  path TEXT NOT NULL REFERENCES documents (path) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  {claim_cols},
  PRIMARY KEY (path, seq));
CREATE TABLE runs (
  run_id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT,
  status TEXT NOT NULL, inputs TEXT, executor TEXT, pipeline_version TEXT,
  reference_version TEXT, reference_path TEXT, {counts});
"""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Known:
    """What the store holds about one file."""

    content_hash: str | None
    status: str
    pipeline_version: str
    check_version: str | None
    n_claims: int


def check_identity(path: Path) -> None:
    """Raise StoreError unless ``path`` is a specextract store; reads bytes only."""
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the store ({exc.strerror or exc})") from None
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise StoreError(f"{path}: not a specextract store (not an SQLite database); "
                         "it was left untouched: choose another --db")
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise StoreError(f"{path}: not a specextract store (an SQLite database of another "
                         "program); it was left untouched: choose another --db")


class Store:
    """An open store. ``write=True`` holds the run lock until ``close``."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock: LockFile | None) -> None:
        self.path, self.conn, self._lock = path, conn, lock
        self._seen: list[str] = []    # paths mark_seen noted since the last _flush_seen

    @classmethod
    def open(cls, path: str | os.PathLike, *, write: bool = True) -> "Store":
        path = Path(path)
        if path.exists():
            check_identity(path)
        elif not write:
            raise StoreError(f"{path}: no such store (run `specextract run` first)")
        lock = None
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = LockFile.acquire(path.with_name(path.name + ".lock"))
        try:
            if not path.exists():
                _create(path)
            check_identity(path)
            conn = _open_checked(path, write)
        except BaseException:
            if lock:
                lock.release()
            raise
        return cls(path, conn, lock)

    @classmethod
    def in_memory(cls) -> "Store":
        """An empty store in memory (no file, no lock): to run the store's queries over
        claims that were never stored, as ``check.consensus`` does."""
        conn = sqlite3.connect(":memory:")
        conn.executescript(_schema_sql())
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        conn.execute("PRAGMA foreign_keys = ON")
        return cls(Path(":memory:"), conn, None)

    def close(self) -> None:
        self.conn.close()
        if self._lock:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- documents -------------------------------------------------------------------
    def known(self, path: str) -> Known | None:
        row = self.conn.execute(
            "SELECT content_hash, status, pipeline_version, check_version, n_claims "
            "FROM documents WHERE path = ?", (path,)).fetchone()
        return Known(*row) if row else None

    def put_document(self, doc: dict, rows: list[dict[str, str]]) -> None:
        """Replace one document and its claims atomically (``doc`` holds DOCUMENT_COLUMNS)."""
        record = {c: doc.get(c) for c in DOCUMENT_COLUMNS}
        record.update(n_claims=len(rows), processed_at=now())
        with self.conn:
            self.conn.execute("DELETE FROM claims WHERE path = ?", (record["path"],))
            self.conn.execute(
                f"INSERT OR REPLACE INTO documents ({', '.join(DOCUMENT_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(DOCUMENT_COLUMNS))})",
                [record[c] for c in DOCUMENT_COLUMNS])
            self._insert_claims(record["path"], rows)

    def _insert_claims(self, path: str, rows: list[dict[str, str]]) -> None:
        sql, values = _claim_inserter(CLAIM_STORE_COLUMNS)
        self.conn.executemany(sql, (values(path, seq, r) for seq, r in enumerate(rows)))

    def put_verdicts(self, path: str, rows: list[dict[str, str]], reference_version: str,
                     check_version: str) -> None:
        """Replace the verdict columns of one document's claims (rows in seq order)."""
        sets = ", ".join(f"{_q(c)} = ?" for c in VERDICT_COLUMNS)
        with self.conn:
            self.conn.executemany(
                f"UPDATE claims SET {sets} WHERE path = ? AND seq = ?",
                ([r.get(c, "") for c in VERDICT_COLUMNS] + [path, seq]
                 for seq, r in enumerate(rows)))
            self.conn.execute("UPDATE documents SET reference_version = ?, check_version = ?, "
                              "processed_at = ? WHERE path = ?",
                              (reference_version, check_version, now(), path))

    def documents(self, *, with_text: bool = False) -> Iterator[dict]:
        cols = [c for c in DOCUMENT_COLUMNS if with_text or c != "text"]
        cur = self.conn.execute(f"SELECT {', '.join(cols)} FROM documents ORDER BY doc_id, path")
        for row in cur:
            yield dict(zip(cols, row))

    def document(self, path: str) -> dict | None:
        row = self.conn.execute(f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents "
                                "WHERE path = ?", (path,)).fetchone()
        return dict(zip(DOCUMENT_COLUMNS, row)) if row else None

    # --- documents this run's inputs name ---------------------------------------------
    def mark_seen(self, path: str) -> None:
        """Note that this run's inputs name ``path`` (kept here, and written to a temporary
        table of this connection when unseen or prune_unseen asks)."""
        self._seen.append(path)

    def _flush_seen(self) -> None:
        with self.conn:
            self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS seen (path TEXT PRIMARY KEY)")
            self.conn.executemany("INSERT OR IGNORE INTO temp.seen (path) VALUES (?)",
                                  ((p,) for p in self._seen))
        self._seen.clear()

    def unseen(self, limit: int = 3) -> tuple[int, list[str]]:
        """How many stored documents this run's inputs did not name, and a few of them."""
        self._flush_seen()
        where = "FROM documents WHERE path NOT IN (SELECT path FROM temp.seen)"
        (count,) = self.conn.execute(f"SELECT count(*) {where}").fetchone()
        some = [r[0] for r in self.conn.execute(f"SELECT path {where} ORDER BY path LIMIT ?",
                                                (limit,))]
        return count, some

    def prune_unseen(self) -> int:
        """Remove the documents (and claims) this run's inputs did not name; how many."""
        self._flush_seen()
        with self.conn:
            self.conn.execute("DELETE FROM claims WHERE path NOT IN (SELECT path FROM temp.seen)")
            return self.conn.execute("DELETE FROM documents WHERE path NOT IN "
                                     "(SELECT path FROM temp.seen)").rowcount

    # --- claims ----------------------------------------------------------------------
    def claim_rows(self, *, path: str | None = None, verdicts: Iterable[str] = (),
                   with_path: bool = False) -> Iterator[dict[str, str]]:
        """Claim rows as strings (codebook columns first), in document and text order."""
        cols = CLAIM_STORE_COLUMNS + (("path",) if with_path else ())
        # cells as strings ("" for NULL) made by SQLite: integers print as str() does
        cells = ", ".join(f"coalesce(CAST({_q(c)} AS TEXT), '')" if c in INTEGER_COLUMNS
                          else f"coalesce({_q(c)}, '')" for c in cols)
        verdicts = list(verdicts)
        where = f"verdict IN ({', '.join('?' * len(verdicts))})" if verdicts else ""
        if path is None:
            rows = self._document_order(f"SELECT {cells} FROM claims", where, verdicts)
        else:
            rows = self.conn.execute(
                f"SELECT {cells} FROM claims WHERE path = ?{f' AND {where}' if where else ''}"
                " ORDER BY doc_id, path, seq", [path, *verdicts])
        for row in rows:
            yield dict(zip(cols, row))

    def claim_values(self, columns: Iterable[str] | None = None) -> Iterator[tuple]:
        """Claim rows as the cursor gives them (tuples of ``columns``, default every claim
        column; integers as ints, NULL as None), in document and text order: for exports
        that stream the whole store."""
        cols = tuple(columns) if columns is not None else CLAIM_STORE_COLUMNS
        return self._document_order(f"SELECT {', '.join(map(_q, cols))} FROM claims")

    def _document_order(self, select: str, where: str = "",
                        args: Sequence[str] = ()) -> Iterator[tuple]:
        """The rows of ``select`` (FROM claims, without WHERE) that meet ``where`` (with
        ``args``), as ORDER BY doc_id, path, seq gives them, read one document at a time
        along the table's (path, seq) key: sorting only the (doc_id, path) pairs costs
        less than sorting every whole row (claims.csv of 10,000 bench articles: 4.8 s
        instead of 5.5 s). One read transaction, so the rows are one snapshot of the
        store, as a single query's would be."""
        also = f" AND {where}" if where else ""
        own = not self.conn.in_transaction
        if own:
            self.conn.execute("BEGIN")
        try:
            documents = self.conn.execute(
                f"SELECT DISTINCT path, doc_id FROM claims{f' WHERE {where}' if where else ''}"
                " ORDER BY doc_id, path", args).fetchall()
            one = f"{select} WHERE path = ? AND doc_id IS ?{also} ORDER BY seq"
            for path, doc_id in documents:
                # (not ``yield from``: closing this reader would close the cursor, which
                # raises once the connection is closed)
                for row in self.conn.execute(one, (path, doc_id, *args)):
                    yield row
        finally:
            if own:
                _end_read(self.conn)

    def verdict_counts(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT verdict, count(*) FROM claims GROUP BY verdict"))

    # --- runs ------------------------------------------------------------------------
    def start_run(self, **meta: str) -> int:
        with self.conn:
            self.conn.execute("UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
            cur = self.conn.execute(
                "INSERT INTO runs (started_at, status, inputs, executor, pipeline_version, "
                "reference_version, reference_path) VALUES (?, 'running', ?, ?, ?, ?, ?)",
                (now(), meta.get("inputs"), meta.get("executor"), meta.get("pipeline_version"),
                 meta.get("reference_version"), meta.get("reference_path")))
        return int(cur.lastrowid)

    def finish_run(self, run_id: int, status: str, counts: dict[str, int]) -> None:
        sets = ", ".join(f"{c} = ?" for c in RUN_COUNTS)
        with self.conn:
            self.conn.execute(f"UPDATE runs SET finished_at = ?, status = ?, {sets} "
                              "WHERE run_id = ?",
                              [now(), status] + [counts.get(c, 0) for c in RUN_COUNTS] + [run_id])

    def runs(self) -> list[dict]:
        cur = self.conn.execute("SELECT * FROM runs ORDER BY run_id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur]


def _cell(column: str, value: object) -> object:
    if column in INTEGER_COLUMNS:
        return int(value) if value not in ("", None) else None
    return "" if value is None else str(value)


@lru_cache(maxsize=8)
def _claim_inserter(columns: tuple[str, ...]):
    """(INSERT statement, values(path, seq, row)) for the claims table: a row's cells as
    _cell makes them. The statement lists text columns first, then integer ones, so that
    rows holding every column with text as strings (Claim.as_row's) take a fast path
    that reads them all at once."""
    texts = tuple(c for c in columns if c not in INTEGER_COLUMNS)
    ints = tuple(c for c in columns if c in INTEGER_COLUMNS)
    cols = ("path", "seq") + texts + ints
    sql = (f"INSERT INTO claims ({', '.join(map(_q, cols))}) "
           f"VALUES ({', '.join('?' * len(cols))})")
    text_cells, int_cells = _getter(texts), _getter(ints)

    def values(path: str, seq: int, row: dict) -> tuple:
        try:
            text_values, int_values = text_cells(row), int_cells(row)
        except KeyError:
            text_values = None
        if text_values is None or (text_values and set(map(type, text_values)) != _STR):
            return (path, seq, *[_cell(c, row.get(c, "")) for c in texts + ints])
        return (path, seq, *text_values,
                *[int(v) if v not in ("", None) else None for v in int_values])
    return sql, values


_STR = {str}


def _end_read(conn: sqlite3.Connection) -> None:
    """End a read transaction begun here, if it is still open: a reader left half-way
    (its consumer failed) may be closed only after its connection was."""
    try:
        if conn.in_transaction:
            conn.execute("COMMIT")
    except sqlite3.ProgrammingError:   # the connection is closed: nothing is open
        pass


def _getter(columns: tuple[str, ...]):
    """row -> tuple of the row's cells in ``columns`` (KeyError when one is missing)."""
    if len(columns) > 1:
        return itemgetter(*columns)
    if columns:
        return lambda row: (row[columns[0]],)
    return lambda row: ()


def _open_checked(path: Path, write: bool) -> sqlite3.Connection:
    """A connection to a store whose schema is usable; StoreError when SQLite finds the
    file damaged (it is left as it is, for the user to recover). The file is checked
    read-only first (schema, ``PRAGMA quick_check``), so that a damaged store is neither
    written nor has its WAL merged into it."""
    conn = None
    sidecars = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    existed = {p for p in sidecars if p.exists()}
    try:
        conn = _connect(path, False)
        _check_schema(conn, path, False, alter=not write)
        _quick_check(conn, path)
        if write:
            conn.close()
            conn = _connect(path, True)
            _check_schema(conn, path, True)
        return conn
    except BaseException as exc:
        if conn is not None:
            conn.close()
        for sidecar in sidecars:  # only what this attempt created; an old WAL holds data
            if sidecar not in existed:
                sidecar.unlink(missing_ok=True)
        if not isinstance(exc, sqlite3.DatabaseError):
            raise
        raise damaged(path, str(exc)) from None


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """DamagedStoreError unless SQLite's quick_check finds every page sound."""
    problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise damaged(path, "; ".join(" ".join(p.split()) for p in problems))


def _connect(path: Path, write: bool) -> sqlite3.Connection:
    if write:
        conn = sqlite3.connect(path, timeout=30)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")   # WAL + NORMAL: consistent after a crash
        # fewer checkpoints (each syncs the file to disk); consistency is the WAL's as before
        conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
    else:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _create(path: Path) -> None:
    """Build an empty store under a temporary name, then rename it into place."""
    tmp = path.with_name(f".{path.name}.creating-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.executescript(_schema_sql())
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            conn.commit()
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _check_schema(conn: sqlite3.Connection, path: Path, write: bool, *,
                  alter: bool = True) -> None:
    try:
        (version,) = conn.execute("SELECT version FROM schema_version").fetchone()
        cols = [r[1] for r in conn.execute("PRAGMA table_info(claims)")]
    except (sqlite3.DatabaseError, TypeError) as exc:
        conn.close()
        raise damaged(path, str(exc)) from None
    if version != SCHEMA_VERSION:
        conn.close()
        raise StoreError(f"{path}: store schema version {version}, this specextract "
                         f"writes version {SCHEMA_VERSION}; use a new --db")
    missing = [c for c in CLAIM_STORE_COLUMNS if c not in cols]
    if not alter:
        return
    if missing and not write:
        conn.close()
        raise StoreError(f"{path}: the store lacks the claim columns {missing}; "
                         "run `specextract run` on it first")
    with conn:  # a column the codebook added; the new pipeline version re-extracts anyway
        for column in missing:
            kind = "INTEGER" if column in INTEGER_COLUMNS else "TEXT"
            conn.execute(f"ALTER TABLE claims ADD COLUMN {_q(column)} {kind}")
        if write:   # stores made before it was dropped: no query needs it, writes update it
            conn.execute(f"DROP INDEX IF EXISTS {RETIRED_INDEX}")
