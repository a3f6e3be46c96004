"""Typed errors. Each names the file (or input) and the problem, for a clean CLI message."""
from __future__ import annotations


class SpecExtractError(Exception):
    """Base class: every error specextract raises on purpose."""


class DocumentError(SpecExtractError):
    """An article could not be read as text.

    ``reason`` is a short, stable code (missing, directory, unreadable, binary,
    undecodable, empty, too-large) that the batch store records. The batch adds its own:
    timeout, internal-error and worker-died for a failed document, repaired for one
    stored with mended bytes (batch.py).
    """

    def __init__(self, path: str, reason: str, detail: str = "") -> None:
        self.path = str(path)
        self.reason = reason
        self.detail = detail
        message = f"{self.path}: {reason}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class WorkerDied(SpecExtractError):
    """A worker process died running a job (a side job, or a document with no ``lost``
    handler to record it as failed)."""


class DataFileError(SpecExtractError):
    """A bundled or user-supplied data file (lexicon, table) is malformed."""

    def __init__(self, path: str, row: int | None, problem: str) -> None:
        self.path, self.row, self.problem = str(path), row, problem
        where = f"{self.path}, row {row}" if row is not None else self.path
        super().__init__(f"{where}: {problem}")


class StoreError(SpecExtractError):
    """The batch store cannot be used: not a specextract store, locked by another run,
    a schema this version does not write. A usage problem: the CLI exits with status 2."""

    exit_code = 2


class DamagedStoreError(StoreError):
    """SQLite finds the store damaged (``PRAGMA quick_check``, or a read mid-run)."""


class DiskFullError(SpecExtractError):
    """No space left for the store, claims.csv or the report: the run stops (exit 1)."""

    exit_code = 1
