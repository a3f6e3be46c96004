"""Claim rows to CSV / JSON Lines, with spreadsheet formula cells neutralised."""
from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path

from .schema import CLAIM_COLUMNS, EXTRA_COLUMNS

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def write_csv(rows: Iterable[dict[str, str]], path: str | Path, excel: bool = False) -> int:
    """Write rows; returns how many. ``excel`` adds a BOM so Excel reads UTF-8."""
    rows = list(rows)
    cols = columns_for(rows)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8-sig" if excel else "utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
        writer.writeheader()
        for r in rows:
            writer.writerow({k: neutralise(str(r.get(k, ""))) for k in cols})
    tmp.replace(path)
    return len(rows)


def write_jsonl(rows: Iterable[dict[str, str]], path: str | Path) -> int:
    n = 0
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
            n += 1
    tmp.replace(path)
    return n
