"""The terms of a diagnosis and the figures it compares (codebook, Diagnoses).

Keywords: each diagnosis part starts with one of them, so that the export can be
filtered on it. Wording: how a part writes a claim's value and a reference row.
Float pre-tests: the Decimal tests of the detectors (``verdicts.matches``, ``near``) are
exact and slow; each is guarded by a float test with a wide margin that is false only
where the exact test is surely false (``may_match``, ``maybe_near``, ...), on figures
within ``FLOAT_SAFE``.
"""
from __future__ import annotations

import math
from decimal import Decimal

from ..decimaltext import format_decimal
from .reference import RefRow
from .verdicts import EXACT_MAX, MATCH_MAX, deviation

# keywords, one per cause
NOT_SUPPORTED = "not supported"
PRELIMINARY = "preliminary"
MISATTRIBUTED = "misattributed"
WRONG_VARIANT = "wrong variant"
SPARSE_AS_DENSE = "sparse as dense"
WRONG_PRECISION = "wrong precision"
WRONG_QUALIFIER = "qualifier wrong"
UNIT = "unit mix-up"
MAGNITUDE = "magnitude"
DIGITS_SWAPPED = "digits swapped"
VENDOR_RATIO = "vendor ratio"
FULL_DIE = "full die"
DIAGNOSES = (NOT_SUPPORTED, WRONG_VARIANT, SPARSE_AS_DENSE, WRONG_PRECISION, PRELIMINARY,
             MISATTRIBUTED, UNIT, MAGNITUDE, DIGITS_SWAPPED, VENDOR_RATIO, WRONG_QUALIFIER,
             FULL_DIE)
PLAIN_UNITS = frozenset({"count", "ordinal", "x"})


def number_text(value: Decimal | None) -> str:
    """A value as a diagnosis writes it ('?' for none)."""
    return format_decimal(value) if value is not None else "?"


def row_text(row: RefRow) -> str:
    """A reference row's figure as a diagnosis writes it: value, unit, qualifiers, variant."""
    quals = " ".join(q for q in ("tensor", "sparse") if q in row.qualifiers)
    where = f", {row.variant}" if row.variant else ""
    unit = "" if row.unit in PLAIN_UNITS else f" {row.unit}"
    return f"{number_text(row.value)}{unit}{' ' + quals if quals else ''}{where}"


NEAR_MAX = Decimal("0.02")


def near(ratio: Decimal, target: Decimal | int) -> bool:
    """``ratio`` within NEAR_MAX (2%) of ``target``: a slip by that factor."""
    return deviation(ratio, Decimal(target)) <= NEAR_MAX


def maybe_near(ratio: float, target: float) -> bool:
    """False only when ``near`` is surely false (a float test with a wide margin)."""
    return abs(ratio - target) <= 0.0201 * abs(target)


def maybe_power(ratio: float) -> bool:
    """maybe_near(ratio, fpower) for some power of POWERS: a ratio within 2.01% of 10**k
    has round(log10(ratio)) == k, so only that k is tried."""
    if ratio <= 0:
        return False
    k = round(math.log10(ratio))
    return k != 0 and abs(k) <= 4 and maybe_near(ratio, 10.0 ** k)


def maybe_factor(ratio: float, factors: tuple[float, ...]) -> bool:
    """maybe_near(ratio, factor) for one of ``factors`` (of _unit_factors: none is within
    2.01% of a ratio between 0.13 and 7.8)."""
    return not 0.13 < ratio < 7.8 and any(maybe_near(ratio, factor) for factor in factors)


# Figures within this magnitude range (or zero) divide in floats to within 1e-15 of the
# Decimal quotient rounded to a float, far inside maybe_near's margin (0.0201 vs 0.02).
FLOAT_SAFE = (1e-150, 1e150)


def safe_float(value: Decimal) -> float | None:
    """value as a float when it is zero or within FLOAT_SAFE; None otherwise (a figure
    too small for a float is not zero here)."""
    number = float(value)
    if not value:
        return number
    return number if FLOAT_SAFE[0] <= abs(number) <= FLOAT_SAFE[1] else None


MATCH_WINDOW = float(MATCH_MAX) + 1e-4
EXACT_WINDOW = float(EXACT_MAX) + 1e-4
# may_match's window as bounds on a positive figure, a little wider (float rounding)
MAY_LOW = 1 / (1 + MATCH_WINDOW) * (1 - 1e-9)
MAY_HIGH = 1 / (1 - MATCH_WINDOW) * (1 + 1e-9)


def may_match(claim: float | None, reference: float | None,
               window: float = MATCH_WINDOW) -> bool:
    """False only where matches() (deviation <= MATCH_MAX; EXACT_MAX with EXACT_WINDOW) is
    surely false: a float test with a wide margin, on safe_float figures (None: no test)."""
    return (claim is None or reference is None
            or abs(claim - reference) <= window * abs(reference))


def approx_ratios(value: Decimal, numbers: list[Decimal]) -> list[float] | None:
    """value / number for each number as floats, computed in floats (0.0 for a zero number);
    None when a figure is outside FLOAT_SAFE (the callers then test every number). A test
    on these is a filter only: false where the exact Decimal test is surely false."""
    top = safe_float(value)
    if top is None:
        return None
    ratios = []
    for number in numbers:
        if not number:
            ratios.append(0.0)
            continue
        bottom = safe_float(number)
        if bottom is None:
            return None
        ratios.append(top / bottom)
    return ratios


def swapped(text: str, other: str) -> bool:
    """Does ``text`` read as ``other`` with two adjacent, different digits swapped (a '.'
    never moves)? The first place the two differ must hold such a swap, and the rest
    must be equal."""
    if len(text) != len(other):
        return False
    for i, (a, b) in enumerate(zip(text, other)):
        if a != b:
            return (i + 1 < len(text) and a == other[i + 1] and text[i + 1] == b
                    and a != "." and b != "." and text[i + 2:] == other[i + 2:])
    return False
