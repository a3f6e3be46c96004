"""Claims as pandas DataFrames, typed like the Parquet export.

    frame = specextract.to_frame(specextract.check(claims))
    with specextract.open_store("out/specextract.db") as store:
        wrong = store.claims(verdict="contradicted")

Columns: the codebook's, then the export's (``output.export.EXPORT_COLUMNS``);
``value``/``expected``/``deviation`` float64, offsets Int64, ``verdict`` a categorical of
the codebook's verdicts, everything else strings.
"""
from __future__ import annotations

import os
from collections.abc import Iterable

from ..codebook import VERDICTS
from ..records import CheckedClaim, Claim
from ..rows import INTEGER_COLUMNS, NUMBER_COLUMNS, number, record_to_row
from .export import EXPORT_COLUMNS


def frame_from_rows(rows: Iterable[dict]):
    """A typed DataFrame of claim rows (string cells, as the store and CSV hold them)."""
    import pandas as pd
    rows = list(rows)
    data = {}
    for column in EXPORT_COLUMNS:
        cells = [r.get(column, "") for r in rows]
        if column in INTEGER_COLUMNS:
            data[column] = pd.array([number(c) for c in cells], dtype="Int64")
        elif column in NUMBER_COLUMNS:
            data[column] = pd.array([number(c) for c in cells], dtype="float64")
        elif column == "verdict":
            data[column] = pd.Categorical([c or None for c in cells], categories=list(VERDICTS))
        else:
            data[column] = pd.array(["" if c is None else str(c) for c in cells], dtype=object)
    return pd.DataFrame(data, columns=EXPORT_COLUMNS)


def to_frame(claims: Iterable[Claim | CheckedClaim]):
    """Claims or checked claims as a typed DataFrame, one row per claim, in order."""
    return frame_from_rows(record_to_row(c) for c in claims)


class StoreReader:
    """A store opened read-only (no run lock): its claims and documents as DataFrames."""

    def __init__(self, path: str | os.PathLike) -> None:
        from ..store.db import Store
        self._store = Store.open(path, write=False)
        self.path = self._store.path

    def claims(self, verdict: str | Iterable[str] = ()):
        """Every claim (or those with the given verdict or verdicts), typed as to_frame's."""
        verdicts = (verdict,) if isinstance(verdict, str) else tuple(verdict)
        unknown = [v for v in verdicts if v not in VERDICTS]
        if unknown:
            raise ValueError(f"unknown verdict {unknown[0]!r} (known: {', '.join(VERDICTS)})")
        return frame_from_rows(self._store.claim_rows(verdicts=verdicts))

    def documents(self):
        """One row per document: path, doc_id, status, reason, n_claims, ... (no text)."""
        import pandas as pd
        return pd.DataFrame(list(self._store.documents()))

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> "StoreReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | os.PathLike) -> StoreReader:
    """Open a store a run wrote, read-only; StoreError when it is missing or not a store."""
    return StoreReader(path)
