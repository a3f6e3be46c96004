"""CSV lines as the standard csv writer writes them, formula cells neutralised.

The excel dialect of ``csv.writer``: a field is quoted only where it holds a comma, a quote
or a line break, a quote inside is doubled, a row ends in CRLF; None is an empty field and a
number is written with ``str``. The csv module tests each character of each field through a
function call, which made it the largest part of writing claims.csv; here a field is tested
with four substring searches and a row is joined once (compiled with the per-claim modules).
"""
from __future__ import annotations

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


def quoted(text: str) -> str:
    """One field of text as the csv writer writes it."""
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_line(fields: list[str]) -> str:
    """One row of text fields, as ``csv.writer(fh).writerow(fields)`` writes it (a row of
    one empty field is written '""', as the csv writer does)."""
    if len(fields) == 1 and not fields[0]:
        return '""\r\n'
    return ",".join([quoted(f) for f in fields]) + "\r\n"


def neutral_line(values: tuple | list) -> str:
    """One row of cursor values (text, integers, None) neutralised and written as the csv
    writer writes ``[neutralise(str(v)) ...]`` (None: an empty field; integers as they are:
    never formulas)."""
    out: list[str] = []
    for value in values:
        if value is None:
            out.append("")
        elif isinstance(value, str):
            out.append(neutralise(value) if value[:1] in FORMULA_FIRST else value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(str(value))
        else:
            out.append(neutralise(str(value)))
    return csv_line(out)
