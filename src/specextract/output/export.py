"""Claim rows to CSV / JSON Lines / Parquet; CSV formula cells are neutralised.

CSV cells are text; JSON Lines and Parquet are typed (:func:`specextract.rows.typed_row`):
``value``, ``expected`` and ``deviation`` are numbers, offsets integers, and Parquet's
``verdict`` is a dictionary (categorical) column.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..codebook import CLAIM_COLUMNS, EXTRA_COLUMNS, VERDICTS
from ..rows import CATEGORY_COLUMNS, INTEGER_COLUMNS, NUMBER_COLUMNS, number, typed_row
from .csvtext import csv_line, neutral_line, neutralise


def columns_for(rows: list[dict[str, str]]) -> list[str]:
    """The codebook's columns first, then the export's own, then anything else."""
    known = list(CLAIM_COLUMNS) + [c for c in EXTRA_COLUMNS if c not in CLAIM_COLUMNS]
    extra = [k for r in rows for k in r if k not in known]
    present = {k for r in rows for k in r}
    return [c for c in known if c in present or c in CLAIM_COLUMNS] + list(dict.fromkeys(extra))


def write_csv(rows: Iterable[dict[str, str]] | Iterable[tuple], path: str | Path,
              excel: bool = False, columns: list[str] | None = None) -> int:
    """Write rows; returns how many. ``excel`` adds a BOM so Excel reads UTF-8. With
    ``columns`` given, rows are streamed instead of read into memory first, and may be
    tuples in the order of ``columns`` (e.g. ``Store.claim_values()``, straight from an
    SQL cursor: None is an empty cell)."""
    if columns is None:
        rows = list(rows)
        columns = columns_for(rows)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8-sig" if excel else "utf-8",
                                          newline="") as fh:
        return write_csv_to(rows, fh, columns)


@contextmanager
def replacing(path: Path):
    """A temporary file of a name no other export uses (beside ``path``, hidden) that
    replaces ``path`` when the block ends, and is removed if it fails."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    tmp.chmod(0o666 & ~_umask())     # as a file opened for writing would be (not 0600)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_csv_to(rows: Iterable[dict[str, str]], fh: TextIO,
                 cols: list[str] | None = None) -> int:
    """CSV rows (header first, formula cells neutralised) to an open text stream."""
    if cols is None:
        rows = list(rows)
        cols = columns_for(rows)
    fh.write(csv_line(cols))   # (csvtext: the csv writer's lines, written faster)
    n = 0
    for n, r in enumerate(rows, 1):
        if isinstance(r, dict):
            fh.write(csv_line([neutralise(str(r.get(k, ""))) for k in cols]))
        else:
            fh.write(neutral_line(r))
    return n


def write_jsonl(rows: Iterable[dict[str, str]], path: str | Path) -> int:
    path = Path(path)
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        return write_jsonl_to(rows, fh)


def write_jsonl_to(rows: Iterable[dict[str, str]], fh: TextIO) -> int:
    """One JSON object per row, numeric columns as numbers (empty ones as null)."""
    n = 0
    for r in rows:
        fh.write(json.dumps(typed_row(r), ensure_ascii=False) + "\n")
        n += 1
    return n


def parquet_schema():
    """Offsets int64, value/expected/deviation float64, verdict a dictionary of the
    codebook's verdicts (pandas reads it as a categorical), everything else strings."""
    import pyarrow as pa
    def kind(column: str):
        if column in INTEGER_COLUMNS:
            return pa.int64()
        if column in NUMBER_COLUMNS:
            return pa.float64()
        if column in CATEGORY_COLUMNS:
            return pa.dictionary(pa.int8(), pa.string())
        return pa.string()
    return pa.schema([(c, kind(c)) for c in EXPORT_COLUMNS])


EXPORT_COLUMNS = list(CLAIM_COLUMNS) + [c for c in EXTRA_COLUMNS if c not in CLAIM_COLUMNS]


def write_parquet(rows: Iterable[dict[str, str]], path: str | Path, batch: int = 10_000) -> int:
    """Claim rows as Parquet (:func:`parquet_schema`), written in row groups."""
    import pyarrow.parquet as pq
    schema = parquet_schema()
    path = Path(path)
    n = 0
    with replacing(path) as tmp, pq.ParquetWriter(tmp, schema) as writer:
        for chunk in _chunks(rows, batch):
            writer.write_table(_arrow_table(chunk, schema))
            n += len(chunk)
    return n


def _arrow_table(chunk: list[dict[str, str]], schema):
    import pyarrow as pa
    columns = []
    for field in schema:
        cells = [r.get(field.name, "") for r in chunk]
        if field.name in CATEGORY_COLUMNS:
            codes = [VERDICTS.index(c) if c in VERDICTS else None for c in cells]
            columns.append(pa.DictionaryArray.from_arrays(
                pa.array(codes, pa.int8()), pa.array(VERDICTS, pa.string())))
        elif field.name in INTEGER_COLUMNS or field.name in NUMBER_COLUMNS:
            columns.append(pa.array([number(c) for c in cells], field.type))
        else:
            columns.append(pa.array(cells, field.type))
    return pa.Table.from_arrays(columns, schema=schema)


def _chunks(rows: Iterable[dict[str, str]], size: int):
    chunk: list[dict[str, str]] = []
    for r in rows:
        chunk.append(r)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
