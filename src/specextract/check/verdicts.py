"""The codebook's verdict rules for one claimed value against one reference value.

Pure functions over Decimals; no reference table, no claims. (CODEBOOK.md, Verdicts.)

    judge(Decimal("2000"), Decimal("2039"), precision_exp=3)   -> ("supported", 0.0191...)
    judge(Decimal("321"), Decimal("312"))                      -> ("approximate", 0.0288...)
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext

from ..codebook import APPROXIMATE, CONTRADICTED, SUPPORTED, UNVERIFIABLE

SUPPORTED_MAX = Decimal("0.05")      # rounded-equal and within 5%, or any value with "~"
EXACT_MAX = Decimal("0.005")         # within 0.5% is supported however it is written
APPROXIMATE_MAX = Decimal("0.10")
MATCH_MAX = SUPPORTED_MAX            # "this value is that figure" for diagnoses

RANK = {SUPPORTED: 0, APPROXIMATE: 1, CONTRADICTED: 2, UNVERIFIABLE: 3}
CONFIDENCE_RANK = {"high": 0, "medium": 1, "low": 2, "": 3}


def last_digit_exp(value: Decimal) -> int:
    """Power of ten of the last significant digit ('2000' -> 3, '19.5' -> -1, '0' -> 0)."""
    if value == 0:
        return 0
    return int(value.normalize().as_tuple().exponent)


def written_exp(value: Decimal, precision_exp: int | None) -> int:
    """The claim's written precision; never coarser than the digits the value itself has
    (no precision given: the value's own last digit)."""
    own = last_digit_exp(value)
    return own if precision_exp is None else min(int(precision_exp), own)


def round_to(value: Decimal, exp: int) -> Decimal:
    """Round half up at 10**exp (1555 at 2 -> 1600; 54.2e9 at 9 -> 54e9). Rounding at or
    below the value's own last digit leaves it as it is, however fine the place."""
    if value == 0 or exp <= last_digit_exp(value):
        return value
    with localcontext() as ctx:
        ctx.prec = max(28, value.adjusted() - exp + 3)
        return value.quantize(Decimal(1).scaleb(exp), rounding=ROUND_HALF_UP)


def deviation(claim: Decimal, reference: Decimal) -> Decimal:
    """|claim - reference| / reference (infinite against a zero reference)."""
    if reference == 0:
        return Decimal(0) if claim == 0 else Decimal("Infinity")
    return abs(claim - reference) / abs(reference)


def reads_precision(operator: str) -> bool:
    """Whether judge reads a claim's written precision (written_exp) under ``operator``."""
    return operator not in (">=", "<=", "~")


def judge(claim: Decimal, reference: Decimal, precision_exp: int = 0,
          operator: str = "=", *, exp: int | None = None) -> tuple[str, Decimal]:
    """(verdict, deviation) of a claimed value against one reference value. ``exp``: the
    claim's written_exp(claim, precision_exp), when the caller has worked it out already
    (it is worked out only for a deviation between EXACT_MAX and SUPPORTED_MAX)."""
    dev = deviation(claim, reference)
    if operator == ">=":
        supported = reference >= claim
    elif operator == "<=":
        supported = reference <= claim
    elif operator == "~":
        supported = dev <= SUPPORTED_MAX
    elif dev <= EXACT_MAX:
        supported = True
    elif dev <= SUPPORTED_MAX:  # the written precision is read only here
        if exp is None:
            exp = written_exp(claim, precision_exp)
        supported = round_to(reference, exp) == claim
    else:
        supported = False
    if supported:
        return SUPPORTED, dev
    return (APPROXIMATE if dev <= APPROXIMATE_MAX else CONTRADICTED), dev


def matches(claim: Decimal, reference: Decimal) -> bool:
    """Close enough to say the claim *is* that figure (used by diagnoses)."""
    return deviation(claim, reference) <= MATCH_MAX


def within_tolerance(value: Decimal, precision_exp: int, operator: str, other: Decimal, *,
                     exp: int | None = None) -> bool:
    """Would ``other`` support a claim written as (value, precision, operator)? ``exp`` as
    for judge."""
    return judge(value, other, precision_exp, operator, exp=exp)[0] == SUPPORTED


def sort_key(verdict: str, dev: Decimal, confidence: str = "", tiebreak: int = 0) -> tuple:
    """Best first: verdict, then smaller deviation, then higher confidence."""
    return (RANK[verdict], dev, CONFIDENCE_RANK.get(confidence, 3), tiebreak)
