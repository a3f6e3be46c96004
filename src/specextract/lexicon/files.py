"""One small loader for the bundled data files (lexicons, unit tables, patterns).

Format: UTF-8 TSV. Lines starting with ``#`` are the header comment (what the file
holds and where it comes from); the first other line names the columns.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..errors import DataFileError

DATA_PACKAGE = "specextract.data"


def data_path(name: str) -> Path:
    """Path of a bundled data file."""
    return Path(str(resources.files(DATA_PACKAGE).joinpath(name)))


def read_tsv(path: str | Path, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """Rows of a TSV data file as dicts; DataFileError names file, row and problem."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(str(path), None, f"cannot read: {exc}") from None
    header: list[str] | None = None
    rows: list[dict[str, str]] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = [c.strip() for c in line.split("\t")]
        if header is None:
            header = cells
            missing = [c for c in required if c not in header]
            if missing:
                raise DataFileError(str(path), lineno, f"missing columns {missing}")
            continue
        if len(cells) > len(header):
            raise DataFileError(str(path), lineno,
                                f"{len(cells)} cells for {len(header)} columns")
        cells += [""] * (len(header) - len(cells))
        row = dict(zip(header, cells))
        row["_line"] = str(lineno)
        rows.append(row)
    if header is None:
        raise DataFileError(str(path), None, "no header line")
    return rows


def parse_codepoints(spec: str, where: str = "", row: int | None = None) -> list[str]:
    """'U+200B-U+200F U+FEFF' -> the characters it names."""
    chars: list[str] = []
    for item in spec.split():
        try:
            lo, _, hi = item.partition("-")
            a = int(lo.removeprefix("U+"), 16)
            b = int(hi.removeprefix("U+"), 16) if hi else a
        except ValueError:
            raise DataFileError(where, row, f"bad code point {item!r}") from None
        chars.extend(chr(c) for c in range(a, b + 1))
    return chars
