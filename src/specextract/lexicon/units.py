"""Unit spellings, defined once: prefixes x base units, plus the listed exceptions.

``data/unit_prefixes.tsv`` names each prefix (symbol, word, Chinese) and its power of ten;
``data/unit_bases.tsv`` says which prefixes and spellings each base unit takes;
``data/units.tsv`` lists the spellings that are no such product (PF, GiB, binary KB, W,
x ...). :func:`unit_rows` gives all of them as rows of ``units.tsv``'s columns.
"""
from __future__ import annotations

from decimal import Decimal

from ..errors import DataFileError
from ..decimaltext import format_decimal
from .lexicon import Lexicon


def unit_rows(lex: Lexicon) -> list[dict[str, str]]:
    """Rows (alias, dimension, factor, written, case): the listed units, then every
    prefix x spelling of ``unit_bases.tsv``."""
    return [*lex.rows("units.tsv"), *generated_rows(lex)]


def generated_rows(lex: Lexicon) -> list[dict[str, str]]:
    """One row per prefix x spelling of each base unit row."""
    prefixes = _prefixes(lex)
    rows = []
    for base in lex.rows("unit_bases.tsv"):
        for name in base["prefixes"].split():
            if name not in prefixes:
                raise DataFileError(str(lex.paths["unit_bases.tsv"]), int(base["_line"]),
                                    f"prefix {name!r} is not in unit_prefixes.tsv")
            symbol, exponent = prefixes[name]
            factor = format_decimal(Decimal(base["factor"]).scaleb(exponent))
            for spelling in base["spellings"].split(" | "):
                rows.append({"alias": name + spelling.strip(), "dimension": base["dimension"],
                             "factor": factor, "written": symbol + base["unit"],
                             "case": base["case"], "_line": base["_line"]})
    return rows


def _prefixes(lex: Lexicon) -> dict[str, tuple[str, int]]:
    """Each way a prefix is written -> (its symbol, its power of ten)."""
    out = {}
    for row in lex.rows("unit_prefixes.tsv"):
        for name in (row["symbol"], row["word"], row["chinese"]):
            if name:
                out[name] = (row["symbol"], int(row["exponent"]))
    return out

