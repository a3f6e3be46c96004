"""Comparison columns of two-chip tables: "提升", "+43%", "2.6x" beside the two figures.

A cell of such a column is a speed-up of one column's chip over the other's, on the row's
attribute (the codebook's metric). Which way it runs is read from the row itself: the
ratio of the two figures must match the stated speed-up (within RATIO_TOLERANCE) one way
or the other; a row that matches neither way, or lacks a figure, yields nothing.
"""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from .drafts import Draft, plausible
from ..lexicon.lexicon import lexicon_or_default
from .quantities import Quantity
from .segment import Span
from .patterns import COMPARE_HEADER, DECREASE

RATIO_TOLERANCE = Decimal("0.1")


def is_compare_header(text: str) -> bool:
    """Does a header cell head a comparison column?"""
    return COMPARE_HEADER.fullmatch(text.strip(" |:：()（）")) is not None


def speedup_value(text: str, q: Quantity) -> tuple[Decimal, int] | None:
    """(speed-up, precision exponent) of a comparison cell's figure: 2.6x -> 2.6,
    +43% -> 1.43, -20% -> 0.8; None for any other figure."""
    if q.dimension == "ratio":
        return q.value, q.precision_exp
    if q.dimension == "percent":
        sign = -1 if DECREASE.search(text[max(0, q.start - 2):q.start]) else 1
        return 1 + sign * q.value / 100, q.precision_exp - 2
    return None


def compare_draft(first: Draft, second: Draft, q: Quantity, speedup: tuple[Decimal, int],
                  span: Span, link: str, lexicon=None) -> Draft | None:
    """The speed-up claim of a comparison cell, given the row's figures for the first
    and the second chip; None when the figures do not bear it out either way."""
    value, exp = speedup
    if first.attribute != second.attribute or first.entity == second.entity:
        return None
    if not first.value or not second.value or not plausible(lexicon_or_default(lexicon), "speedup", value):
        return None
    ratio = second.value / first.value
    if abs(ratio - value) <= RATIO_TOLERANCE * value:
        subject, baseline = second, first
    elif abs(1 / ratio - value) <= RATIO_TOLERANCE * value:
        subject, baseline = first, second
    else:
        return None
    return Draft(subject.entity, "speedup", q, value, exp, span, subject.variant,
                 baseline=baseline.entity, metric=first.attribute, link=link)


def cell_speedups(found, chip, cell: Span) -> list[Draft]:
    """Speed-ups written in a table cell of one chip ("算力较 A100 提升 3 倍", "H100 升级版，
    显存容量提升 76%"): read as a sentence about that chip, the baseline named in the cell."""
    ratios = [q for q in found.within("quantities", cell.start, cell.end)
              if q.end <= cell.end and q.dimension in ("ratio", "percent") and not q.is_range]
    if not ratios or chip.system or chip.kind:
        return []
    from .prose import ProseSentence  # the prose linker reads the cell like a sentence
    ctx = ProseSentence(found.text, cell, found.within("chips", cell.start, cell.end),
                        found.within("keywords", cell.start, cell.end),
                        found.within("qualifiers", cell.start, cell.end), chip, None, (),
                        found.lexicon)
    out: list[Draft] = []
    for q in ratios:
        if not ctx._gain_excluded(q):
            out.extend(replace(d, link="table-row") for d in ctx._speedups(q, out)
                       if any(c.entity == d.baseline for c in ctx.chips))
    return out
