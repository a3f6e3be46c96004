"""Store: checked claim rows per document -> one SQLite file, and back.

Enters: a document's record and its claim rows (one transaction each), run counts.
Leaves: what the store knows of a path (skip / re-check / re-extract), claim rows for
exports and the report. ``db`` holds the schema and the writes; ``queries`` the reads the
report and the run's summary draw from; ``lock`` the one-run-at-a-time lock file;
``faults`` which errors stop a run; ``recover`` salvages a damaged store.
"""
from __future__ import annotations

from .db import CLAIM_STORE_COLUMNS, Store
from .lock import LockedError, LockFile

__all__ = ["CLAIM_STORE_COLUMNS", "LockFile", "LockedError", "Store"]
