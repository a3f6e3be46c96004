"""Claim rows to CSV / JSON Lines / Parquet; CSV formula cells are neutralised."""
from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..codebook import CLAIM_COLUMNS, EXTRA_COLUMNS

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
FORMULA_FIRST = frozenset(FORMULA_START)


def neutralise(cell: str) -> str:
    """A cell a spreadsheet would execute ("=HYPERLINK(...)") gets a leading apostrophe.
    Plain numbers ("-5") stay numbers, and so does the codebook's operator "=" (a lone
    "=" computes nothing)."""
    if cell.startswith(FORMULA_START) and cell != "=" and not _is_number(cell):
        return "'" + cell
    return cell


def _is_number(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


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
    writer = csv.writer(fh)
    writer.writerow(cols)
    n = 0
    for n, r in enumerate(rows, 1):
        if isinstance(r, dict):
            writer.writerow([neutralise(str(r.get(k, ""))) for k in cols])
        else:
            writer.writerow([_neutral_cell(v) for v in r])
    return n


def _neutral_cell(value: object) -> object:
    """One cursor value as neutralise(str(value)) would write it (None: an empty cell;
    numbers as they are: csv writes them with str() and they are never formulas)."""
    if value.__class__ is str:
        return neutralise(value) if value[:1] in FORMULA_FIRST else value
    if value is None or value.__class__ is int:
        return value
    return neutralise(str(value))


def write_jsonl(rows: Iterable[dict[str, str]], path: str | Path) -> int:
    path = Path(path)
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        return write_jsonl_to(rows, fh)


def write_jsonl_to(rows: Iterable[dict[str, str]], fh: TextIO) -> int:
    n = 0
    for r in rows:
        fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        n += 1
    return n


PARQUET_INTEGERS = ("start", "end", "precision_exp")
PARQUET_FLOATS = ("deviation",)


def write_parquet(rows: Iterable[dict[str, str]], path: str | Path, batch: int = 10_000) -> int:
    """Claim rows as Parquet, written in row groups: offsets as int64, deviation as float64,
    everything else (values included, to keep their written digits) as strings."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    known = list(CLAIM_COLUMNS) + [c for c in EXTRA_COLUMNS if c not in CLAIM_COLUMNS]
    schema = pa.schema([(c, pa.int64() if c in PARQUET_INTEGERS else
                         pa.float64() if c in PARQUET_FLOATS else pa.string()) for c in known])
    path = Path(path)
    n = 0
    with replacing(path) as tmp, pq.ParquetWriter(tmp, schema) as writer:
        for chunk in _chunks(rows, batch):
            columns = {c: [_typed(c, r.get(c, "")) for r in chunk] for c in known}
            writer.write_table(pa.table(columns, schema=schema))
            n += len(chunk)
    return n


def _typed(column: str, cell: str) -> object:
    if column in PARQUET_INTEGERS:
        return int(cell) if cell != "" else None
    if column in PARQUET_FLOATS:
        return float(cell) if cell != "" else None
    return cell


def _chunks(rows: Iterable[dict[str, str]], size: int):
    chunk: list[dict[str, str]] = []
    for r in rows:
        chunk.append(r)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
