"""What the parent hands a worker for one document: typed, frozen, picklable.

    spec = ReferenceSpec.of(ref)                       # once per run
    task = make_task(path, store, version, reference=spec)
    result = process_task(task)                        # here, in a pool, on Dask

:func:`make_task` is the one place that builds a :class:`DocumentTask`; it asks the
store whether the document is known (its content hash, and its stored claims when only
the reference table or the checker changed). Both classes are frozen dataclasses of
plain values, so they pickle for process pools and Dask workers as they are.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import DocumentError
from ..ingest.read import MAX_BYTES, read_bytes
from ..store.db import Store

OK, ERROR, UNCHANGED = "ok", "error", "unchanged"   # the status of a task's result


@dataclass(frozen=True)
class ReferenceSpec:
    """The run's reference table as a worker finds it again: where it is and which
    versions the parent loaded (a worker with another table or checker leaves the
    checking to the parent)."""

    path: str                       # the table's file, resolved
    version: str                    # its content version
    ratios_version: str             # the version of its derived ratios
    check_version: str              # the checker version that checks against it
    extras: tuple[str, ...] = ()    # overlay tables (--reference-extra), resolved

    @classmethod
    def of(cls, ref) -> "ReferenceSpec":
        """The spec of a loaded :class:`~specextract.check.reference.Reference`."""
        from .versions import check_version
        return cls(str(Path(ref.path).resolve()), ref.version, ref.ratios_version,
                   check_version(ref), tuple(str(Path(p).resolve()) for p in ref.extras))

    @property
    def versions(self) -> tuple[str, str, str]:
        """(version, ratios version, checker version): what a loaded table must match."""
        return self.version, self.ratios_version, self.check_version


@dataclass(frozen=True)
class DocumentTask:
    """One document to read, extract and check (``batch.run.process_task``)."""

    path: str                                  # the file to read, absolute
    key: str = ""                              # the store's key; "" means ``path``
    max_bytes: int | None = None               # larger files fail as too-large
    timeout: float | None = None               # seconds; None: the default limit
    reference: ReferenceSpec | None = None     # None: the parent checks
    pages: str | None = None                   # the report's staging folder
    known_hash: str | None = None              # content hash the store holds, if current
    stored: tuple[dict, ...] | None = None     # stored claim rows to re-check if unchanged
    data: bytes | None = None                  # the file's bytes (--send-bytes)

    @property
    def store_key(self) -> str:
        """The path under which the store keeps this document."""
        return self.key or self.path


def make_task(path: Path, store: Store, version: str, send_bytes: bool = False, *,
              max_bytes: int | None = None, timeout: float | None = None,
              reference: ReferenceSpec | None = None, pages: str | None = None) -> DocumentTask:
    """The task for ``path``; marks it seen in the store. The store's key spells
    undecodable bytes of the name out (``safe_text``); the task reads the real path."""
    real = str(Path(path).absolute())
    key = safe_text(real)
    known = store.known(key)
    store.mark_seen(key)
    known_hash = stored = data = None
    if known and known.status == OK and known.pipeline_version == version:
        known_hash = known.content_hash
        if reference is not None and known.check_version != reference.check_version:
            stored = tuple(store.claim_rows(path=key))   # to re-check if unchanged
    if send_bytes:
        try:
            data = read_bytes(Path(real), max_bytes or MAX_BYTES)
        except DocumentError:
            pass  # the worker reads it again and reports the reason
    return DocumentTask(real, "" if key == real else key, max_bytes, timeout, reference, pages,
                        known_hash, stored, data)


def safe_text(text: str) -> str:
    """Text SQLite can store: undecodable bytes of a file name (lone surrogates) spelled
    out as backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
