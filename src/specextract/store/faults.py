"""Which errors stop a run: a full disk and a damaged store are never one document's fault.

    fatal = fatal_error(exc, store_path)    # DiskFullError, DamagedStoreError or None
"""
from __future__ import annotations

import errno
import sqlite3

from ..errors import DamagedStoreError, DiskFullError

FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
# SQLite's messages for SQLITE_FULL and SQLITE_CORRUPT / SQLITE_NOTADB / SQLITE_IOERR
FULL_WORDS = ("database or disk is full",)
DAMAGE_WORDS = ("malformed", "file is not a database", "disk i/o error")


def recover_hint(path) -> str:
    return (f"recover what it holds with `specextract store recover {path} NEW.db`, "
            "or run again into a fresh --db")


def damaged(path, detail: str) -> DamagedStoreError:
    return DamagedStoreError(f"{path}: damaged specextract store ({detail}); it was left "
                             f"untouched: {recover_hint(path)}")


def disk_full(where, detail: str) -> DiskFullError:
    return DiskFullError(f"{where}: no space left on the device ({detail}); the run stopped "
                         "and was recorded as failed; free some space (or use --out / --db "
                         "on another disk) and run again to resume")


def fatal_error(exc: BaseException, store_path) -> Exception | None:
    """The run-stopping error ``exc`` stands for, or None for an ordinary one."""
    if isinstance(exc, (DiskFullError, DamagedStoreError)):
        return exc
    if isinstance(exc, OSError) and exc.errno in FULL_ERRNOS:
        return disk_full(exc.filename or store_path, exc.strerror or str(exc))
    if isinstance(exc, sqlite3.DatabaseError):
        text = str(exc).lower()
        if any(w in text for w in FULL_WORDS):
            return disk_full(store_path, str(exc))
        if any(w in text for w in DAMAGE_WORDS):
            return damaged(store_path, str(exc))
    return None
