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
                      maybe_near, maybe_power, near, number_text, swaps)
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
    parts = []
    surface, unit = claim.surface, claim.unit
    if unit == "TFLOPS" and TOPS_WORD.search(surface) and not FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TOPS for a TFLOPS figure ({surface!r})")
    if unit == "TOPS" and FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TFLOPS for a TOPS figure ({surface!r})")
    if ratios is not None:
        factors = UNIT_FACTORS[unit] if unit in UNIT_FACTORS else _unit_factors(unit)
        numbers = [number for number, ratio in zip(numbers, ratios)
                   if factors and maybe_factor(ratio, factors)]
    return (parts + unit_factor(claim, numbers))[:2]


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
        if len(other) == len(text) and text in swaps(other):  # (a swap keeps the length)
            return [f"{DIGITS_SWAPPED}: {text} vs {other}"]
    return []
