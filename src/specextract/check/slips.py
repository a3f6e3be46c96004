"""Diagnoses of a figure slipped in the writing: a unit mix-up (TOPS for TFLOPS, bits for
bytes, a prefix step), a power of ten, two digits swapped.

Each detector takes the claim and the reference figures it was judged against and
returns the diagnosis parts it finds (``figures`` holds the keywords and pre-tests).
"""
from __future__ import annotations

from decimal import Decimal

from ..codebook import ATTRIBUTE_UNITS
from ..records import Claim
from .figures import (DIGITS_SWAPPED, MAGNITUDE, UNIT, maybe_factor,
                      maybe_near, maybe_power, near, number_text, safe_float, swapped)
from .patterns import FLOP_WORD, TOPS_WORD
from .verdicts import deviation

# Unit slips by a factor: bits for bytes (8) and a prefix step (1000).
BYTE_UNITS = frozenset({"GB", "GB/s", "MB"})
PREFIX_STEP = {"GB/s": "GB/s vs TB/s", "TFLOPS": "TFLOPS vs PFLOPS", "TOPS": "TOPS vs POPS",
               "GB": "GB vs TB", "MB": "MB vs GB", "MHz": "MHz vs GHz", "W": "W vs kW"}


def unit_mixup(claim: Claim, numbers: list[Decimal],
               ratios: list[float] | None = None) -> list[str]:
    """A unit slip: TOPS for TFLOPS, bits for bytes, a prefix step. ``ratios``: the claim
    over each number in floats (approx_ratios); only numbers near a factor are tried."""
    parts = unit_words(claim)
    unit = claim.unit
    if ratios is not None:
        factors = UNIT_FACTORS[unit] if unit in UNIT_FACTORS else _unit_factors(unit)
        numbers = [number for number, ratio in zip(numbers, ratios)
                   if factors and maybe_factor(ratio, factors)]
    return (parts + unit_factor(claim, numbers))[:2]


def unit_words(claim: Claim) -> list[str]:
    """The claim's surface spells another unit than its figure's: TOPS for TFLOPS or back."""
    parts = []
    surface, unit = claim.surface, claim.unit
    if unit == "TFLOPS" and TOPS_WORD.search(surface) and not FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TOPS for a TFLOPS figure ({surface!r})")
    if unit == "TOPS" and FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TFLOPS for a TOPS figure ({surface!r})")
    return parts


def unit_factor(claim: Claim, numbers: list[Decimal]) -> list[str]:
    """Bits for bytes or a prefix step between the claim and each of ``numbers``."""
    parts = []
    for ref_value in numbers:
        if ref_value == 0:
            continue
        ratio = claim.value / ref_value
        approx = float(ratio)
        if claim.unit in BYTE_UNITS and ((maybe_near(approx, 8.0) and near(ratio, 8))
                                         or (maybe_near(approx, 0.125)
                                             and near(ratio, Decimal(1) / 8))):
            parts.append(f"{UNIT}: bits for bytes (Gb vs GB, factor 8: "
                         f"{number_text(claim.value)} vs {number_text(ref_value)})")
        elif claim.unit in PREFIX_STEP and ((maybe_near(approx, 1000.0) and near(ratio, 1000))
                                            or (maybe_near(approx, 0.001)
                                                and near(ratio, Decimal("0.001")))):
            parts.append(f"{UNIT}: {PREFIX_STEP[claim.unit]} (factor 1000: "
                         f"{number_text(claim.value)} vs {number_text(ref_value)})")
    return parts


def _unit_factors(unit: str) -> tuple[float, ...]:
    """The ratios unit_mixup tests for a figure in ``unit``."""
    return (((8.0, 0.125) if unit in BYTE_UNITS else ())
            + ((1000.0, 0.001) if unit in PREFIX_STEP else ()))


UNIT_FACTORS = {unit: _unit_factors(unit) for unit in set(ATTRIBUTE_UNITS.values())}


POWERS = tuple((k, Decimal(10) ** k, 10.0 ** k) for k in (1, 2, 3, 4, -1, -2, -3, -4))


def magnitude(claim: Claim, numbers: list[Decimal],
               ratios: list[float] | None = None) -> list[str]:
    """A figure off by a power of ten. ``ratios`` as for unit_mixup: only numbers near a power
    of ten are tried."""
    if ratios is not None:
        numbers = [number for number, ratio in zip(numbers, ratios) if maybe_power(ratio)]
        if not numbers:
            return []
    for ref_value in sorted(numbers, key=lambda v: deviation(claim.value, v)):
        if not ref_value:
            continue
        ratio = claim.value / ref_value
        approx = float(ratio)
        for k, power, fpower in POWERS:
            if maybe_near(approx, fpower) and near(ratio, power):
                if abs(k) == 3 and claim.unit in PREFIX_STEP:
                    continue  # reported as a unit mix-up
                factor = f"{10 ** abs(k)}x {'too large' if k > 0 else 'too small'}"
                return [f"{MAGNITUDE}: {number_text(claim.value)} is {factor} against "
                        f"{number_text(ref_value)} (off by a power of ten)"]
    return []


def digits_swapped(claim: Claim, numbers: list[Decimal]) -> list[str]:
    text = number_text(claim.value)
    for ref_value in numbers:
        other = number_text(ref_value)
        if swapped(text, other):
            return [f"{DIGITS_SWAPPED}: {text} vs {other}"]
    return []


def number_slips(claim: Claim, numbers: list[Decimal]) -> list[tuple[str, str, str]]:
    """For each of ``numbers`` alone: the part unit_factor, magnitude and digits_swapped give
    for it ('' for none), each worked out once per claim (the checker's choice of expected
    figure and the diagnosis both read them)."""
    return figure_slips(claim, [(number, safe_float(number), number_text(number))
                                for number in numbers])


def figure_slips(claim: Claim, figures: list[tuple[Decimal, float | None, str]]
                 ) -> list[tuple[str, str, str]]:
    """number_slips of figures given as (number, its safe_float, its number_text). A figure
    is tried for a factor or a power of ten only where its float ratio to the claim may be
    one (the pre-tests of approx_ratios)."""
    text = number_text(claim.value)
    top = safe_float(claim.value)
    factors = UNIT_FACTORS[claim.unit]
    out = []
    for number, bottom, other in figures:
        ratio = None
        if top is not None and bottom is not None:
            ratio = top / bottom if number else 0.0
        factor = power = ""
        if factors and (ratio is None or maybe_factor(ratio, factors)):
            factor = next(iter(unit_factor(claim, [number])), "")
        if ratio is None or maybe_power(ratio):
            power = next(iter(magnitude(claim, [number])), "")
        out.append((factor, power,
                    f"{DIGITS_SWAPPED}: {text} vs {other}" if swapped(text, other) else ""))
    return out


def slip_parts(claim: Claim, numbers: list[Decimal], slips: list[tuple[str, str, str]]
               ) -> list[str]:
    """unit_mixup, magnitude and digits_swapped over ``numbers``, from their number_slips:
    the unit parts (two at most), the power of ten of the figure nearest the claim, the
    first figure with digits swapped."""
    parts = (unit_words(claim) + [factor for factor, _, _ in slips if factor])[:2]
    powers = [(deviation(claim.value, number), power)
              for number, (_, power, _) in zip(numbers, slips) if power]
    if powers:
        parts.append(min(powers, key=lambda item: item[0])[1])
    parts += [swapped for _, _, swapped in slips if swapped][:1]
    return parts
