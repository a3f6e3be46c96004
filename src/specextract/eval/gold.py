"""Load and validate codebook-format claim CSVs (gold sets and prediction exports).

A claim CSV has the codebook's columns (``schema.CLAIM_COLUMNS``) in any order; extra
columns (the export's offsets, diagnosis, ...) are allowed and ignored. Every problem
raises :class:`GoldError` naming the file, the row (the 1-based line number where the
row starts, the header being line 1) and the problem. Nothing is fixed up silently:
the only default is the codebook's own (an empty operator means ``=``).
"""
from __future__ import annotations

import csv
import io
import os
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Iterable

from ..errors import DataFileError
from ..decimaltext import format_decimal
from ..records import CheckedClaim, Claim
from ..codebook import (
    APPROXIMATE, ATTRIBUTE_UNITS, CLAIM_COLUMNS, OPERATORS, QUALIFIERS, SUPPORTED,
    UNVERIFIABLE, VERDICTS,
)

# A plain decimal as the codebook writes it: ASCII digits, optional fraction, no sign,
# no exponent, no thousands separators, no surrounding spaces.
PLAIN_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?\Z")
# what a contradicted claim's expected cell may say when the chip lacks the feature (codebook
# "Verdicts": FP8 on an A100); it is read as no expected value
LACKS_FEATURE = frozenset({"not supported", "none", "n/a"})
SPEEDUP = "speedup"


class GoldError(DataFileError):
    """A claim CSV that breaks the codebook: ``"<file>, row <n>: <problem>"``.

    ``row`` (alias ``line``) is the 1-based line where the offending row starts, the
    header being line 1; None when the problem is the file as a whole.
    """

    @property
    def line(self) -> int | None:
        return self.row


def norm_name(name: str) -> str:
    """Entity/baseline comparison form: case- and space-insensitive (codebook)."""
    return "".join(name.split()).casefold()


@dataclass(frozen=True)
class ClaimRow:
    """One codebook row; ``line`` is where it was read (0 when built in memory)."""

    doc_id: str
    entity: str
    variant: str
    attribute: str
    value: Decimal
    unit: str
    operator: str
    qualifier: str
    baseline: str
    metric: str
    surface: str
    verdict: str
    expected: Decimal | None
    line: int = field(default=0, compare=False)

    def key(self) -> tuple:
        """The codebook's per-document uniqueness key (names compared normalised)."""
        return (self.doc_id, norm_name(self.entity), self.attribute,
                self.value.normalize(), norm_name(self.baseline), self.metric)

    def as_row(self) -> dict[str, str]:
        """The row as CSV cells, codebook columns only."""
        row = {c: getattr(self, c) for c in CLAIM_COLUMNS}
        row["value"] = format_decimal(self.value)
        row["expected"] = format_decimal(self.expected)
        return row


# --- reading -------------------------------------------------------------------------

def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GoldError(path, None, f"cannot read file: {exc.strerror or exc}") from exc
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise GoldError(path, line, f"binary file, not UTF-8 CSV text (NUL byte at offset {nul})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        bad = data[exc.start:exc.start + 1].hex()
        raise GoldError(path, line, f"not UTF-8 text (invalid byte 0x{bad} at offset {exc.start})") from exc


def _records(path: Path, text: str) -> Iterable[tuple[int, list[str]]]:
    """(start line, cells) for every CSV record; blank lines are skipped."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    try:
        for cells in reader:
            if cells:
                yield start, cells
            start = reader.line_num + 1
    except csv.Error as exc:
        raise GoldError(path, start, f"malformed CSV: {exc}") from exc


def _check_header(path: Path, header: list[str]) -> dict[str, int]:
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        if name in seen:
            raise GoldError(path, 1, f"column {name!r} appears twice in the header")
        seen[name] = i
    missing = [c for c in CLAIM_COLUMNS if c not in seen]
    if missing:
        raise GoldError(path, 1, f"missing required column(s): {', '.join(missing)}")
    return seen


def _decimal(text: str, column: str) -> Decimal:
    if not PLAIN_DECIMAL.match(text):
        raise ValueError(f"{column} {text!r} is not a plain decimal (digits and an optional '.fraction')")
    return Decimal(text)


def _check_qualifier(text: str) -> None:
    if not text:
        return
    for part in text.split(";"):
        if part not in QUALIFIERS:
            raise ValueError(f"unknown qualifier {part!r} in {text!r} (known: {', '.join(QUALIFIERS)})")


def _check_speedup_fields(cells: dict[str, str]) -> None:
    attribute, baseline, metric = cells["attribute"], cells["baseline"], cells["metric"]
    if attribute == SPEEDUP:
        if not baseline:
            raise ValueError("speedup claim without a baseline chip")
        if metric and (metric not in ATTRIBUTE_UNITS or metric == SPEEDUP):
            raise ValueError(f"unknown metric {metric!r}")
    elif baseline or metric:
        raise ValueError(f"baseline/metric given on a {attribute!r} claim (speedup claims only)")


def _check_verdict(verdict: str, expected: Decimal | None, require_verdict: bool) -> None:
    if not verdict:
        if require_verdict:
            raise ValueError("empty verdict (required in a gold file)")
        return
    if verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r} (known: {', '.join(VERDICTS)})")
    if verdict == UNVERIFIABLE and expected is not None:
        raise ValueError("unverifiable claim with an expected value (must be empty)")
    if verdict in (SUPPORTED, APPROXIMATE) and expected is None:
        raise ValueError(f"{verdict} claim without an expected value")


def _expected(text: str, verdict: str) -> Decimal | None:
    """The expected cell: empty, a plain decimal, or (contradicted only) a word saying the
    chip lacks the feature."""
    if not text:
        return None
    if verdict != SUPPORTED and verdict != APPROXIMATE and text.strip().lower() in LACKS_FEATURE:
        return None
    return _decimal(text, "expected")


def _row_from_cells(cells: dict[str, str], line: int, require_verdict: bool) -> ClaimRow:
    """Validate one row's codebook cells; raises ValueError with the problem."""
    for column in ("doc_id", "entity", "surface"):
        if not cells[column]:
            raise ValueError(f"empty {column}")
    attribute = cells["attribute"]
    if attribute not in ATTRIBUTE_UNITS:
        raise ValueError(f"unknown attribute {attribute!r}")
    unit = ATTRIBUTE_UNITS[attribute]
    if cells["unit"] != unit:
        raise ValueError(f"unit {cells['unit']!r} is not {attribute}'s canonical unit {unit!r}")
    value = _decimal(cells["value"], "value")
    operator = cells["operator"] or "="
    if operator not in OPERATORS:
        raise ValueError(f"unknown operator {operator!r} (known: {' '.join(OPERATORS)})")
    _check_qualifier(cells["qualifier"])
    _check_speedup_fields(cells)
    expected = _expected(cells["expected"], cells["verdict"])
    _check_verdict(cells["verdict"], expected, require_verdict)
    return ClaimRow(
        doc_id=cells["doc_id"], entity=cells["entity"], variant=cells["variant"],
        attribute=attribute, value=value, unit=unit, operator=operator,
        qualifier=cells["qualifier"], baseline=cells["baseline"], metric=cells["metric"],
        surface=cells["surface"], verdict=cells["verdict"], expected=expected, line=line,
    )


def load_claims_csv(path: str | os.PathLike, *, require_verdict: bool = False) -> list[ClaimRow]:
    """Read a codebook CSV (gold set or prediction export) into validated rows, file order.

    Extra columns are ignored; an empty verdict is allowed unless ``require_verdict``.
    Raises GoldError (file, row, problem) on the first problem found.
    """
    path = Path(path)
    records = _records(path, _read_text(path))
    first = next(records, None)
    if first is None:
        raise GoldError(path, 1, "empty file, no header")
    columns = _check_header(path, first[1])
    rows: list[ClaimRow] = []
    seen: dict[tuple, int] = {}
    for line, cells in records:
        if len(cells) != len(first[1]):
            raise GoldError(path, line, f"{len(cells)} fields, header has {len(first[1])}")
        try:
            row = _row_from_cells({c: cells[columns[c]] for c in CLAIM_COLUMNS}, line, require_verdict)
        except ValueError as exc:
            raise GoldError(path, line, str(exc)) from None
        if row.key() in seen:
            raise GoldError(path, line, f"duplicate claim key {_key_text(row)}, first at row {seen[row.key()]}")
        seen[row.key()] = line
        rows.append(row)
    return rows


def load_gold(path: str | os.PathLike) -> list[ClaimRow]:
    """A gold file: like load_claims_csv, and every row must have a verdict."""
    return load_claims_csv(path, require_verdict=True)


def _key_text(row: ClaimRow) -> str:
    parts = [row.doc_id, row.entity, row.attribute, format_decimal(row.value)]
    if row.baseline or row.metric:
        parts += [row.baseline, row.metric]
    return "(" + ", ".join(parts) + ")"


# --- records -> rows -----------------------------------------------------------------

def claims_to_rows(records: Iterable[Claim | CheckedClaim]) -> list[ClaimRow]:
    """Claim or CheckedClaim records as ClaimRows (a bare Claim has no verdict)."""
    from ..rows import gold_row
    return [gold_row(record) for record in records]


# --- merging gold parts --------------------------------------------------------------

def sort_key(row: ClaimRow) -> tuple:
    return (row.doc_id, row.entity, row.attribute, row.value, row.baseline, row.metric)


def write_claims_csv(rows: Iterable[ClaimRow], out_path: str | os.PathLike) -> None:
    """Write rows with the codebook columns (UTF-8, LF), replacing the file atomically."""
    out_path = Path(out_path)
    tmp = out_path.with_name(out_path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CLAIM_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(row.as_row() for row in rows)
    os.replace(tmp, out_path)


def merge_gold_parts(paths: Iterable[str | os.PathLike], out_path: str | os.PathLike) -> list[ClaimRow]:
    """Validate gold part files and write them as one sorted gold CSV; returns the rows.

    Each part must load as a gold file (verdict required); a claim key found in two
    parts is a GoldError naming both. Only the codebook columns are written.
    Nothing is written if any part fails.
    """
    paths = sorted(Path(p) for p in paths)
    if not paths:
        raise GoldError(out_path, None, "no gold part files to merge")
    rows: list[ClaimRow] = []
    seen: dict[tuple, tuple[Path, int]] = {}
    for path in paths:
        for row in load_gold(path):
            if row.key() in seen:
                first, line = seen[row.key()]
                raise GoldError(path, row.line,
                                f"duplicate claim key {_key_text(row)}, first in {first}, row {line}")
            seen[row.key()] = (path, row.line)
            rows.append(row)
    rows.sort(key=sort_key)
    write_claims_csv(rows, out_path)
    return rows


def main(argv: list[str] | None = None) -> int:
    """``python -m specextract.eval.gold OUT PART...``: merge gold parts (for ``make gold``)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: python -m specextract.eval.gold OUT.csv PART.csv [PART.csv ...]", file=sys.stderr)
        return 2
    try:
        rows = merge_gold_parts(args[1:], args[0])
    except GoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(rows)} claims from {len(args) - 1} part(s) to {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
