"""Fractions that state one chip's figure as a part of another's: "H200 的 1/34",
"H100 的五分之一", "只有 A100 的一半", "a fifth of the H100's".

Each is a ``ratio`` quantity written "/" with the fraction's value (six decimals), so that a
speed-up below 1 can be read from it (codebook: "fractions are speedups below 1"). A digit
fraction counts only right after 的 (elsewhere "156/312" is a pair of figures, "1/2" a date);
:func:`specextract.extract.comparisons.speedup_value` reads it only as the share of a chip.
"""
from __future__ import annotations

import re
from decimal import Decimal

from ..lexicon.trie import scan
from .numbers import parse_cjk
from .patterns import FRACTION

ORDINAL_PARTS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6,
                 "eighth": 8, "tenth": 10}
PLACES = Decimal("0.000001")


def fraction_values(text: str, regions=None) -> list[tuple[int, int, Decimal]]:
    """(start, end, value) of every fraction in ``text`` (in ``regions`` when given)."""
    out = []
    for m in scan(FRACTION, text, regions):
        value = _value(m)
        if value is not None and 0 < value < 1:
            start = m.start("a") if m.group("a") else m.start()
            end = m.end("w") if m.group("w") else m.end()
            out.append((start, end, value.quantize(PLACES)))
    return out


def _value(m: re.Match) -> Decimal | None:
    if m.group("a"):
        a, b = int(m.group("a")), int(m.group("b"))
        return Decimal(a) / Decimal(b) if b else None
    if m.group("half"):
        return Decimal("0.5")
    if m.group("w"):
        return 1 / Decimal(ORDINAL_PARTS[m.group("w").lower()])
    top, bottom = parse_cjk(m.group("ca")), parse_cjk(m.group("cb"))
    if top is None or bottom is None or not bottom.value:
        return None
    return top.value / bottom.value
