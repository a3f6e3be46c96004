"""Unit legends: a line that only names a unit ("浮点: TFLOPS", "单位：TOPS", "(Unit: TFLOPS)")
gives that unit to the bare numbers of the spec list below it.

    浮点: TFLOPS          <- legend (a short label, a colon, a unit the lexicon knows)
    整型: TOPS            <- a second legend of the same block (integer rates)
    FP32 19.5             <- bare figures of "label value" lines take the legend's unit
    INT8 624 / 1248       <- an integer label takes the integer legend; "a / 2a" is a
                             dense / sparse pair

A legend holds over blank lines and short list lines, and ends at the first prose line
(:func:`segment.line_layout`) or after MAX_LINES lines. Only a number with a label before
it (an attribute keyword of the unit's dimension: "FP32 19.5") is given the unit, and only
when its line holds no figure with a unit of its own.
"""
from __future__ import annotations

from typing import Any

from bisect import bisect_left, bisect_right
from dataclasses import replace
from decimal import Decimal

from .mentions import Keyword
from .numbers import Number, times
from .quantities import PAIR_JOIN, Quantity, Units
from .segment import PROSE_LINE, line_layout
from .patterns import INTEGER_LABEL, LEGEND, LEGEND_LABEL_GAP as LABEL_GAP

MAX_GAP = 4
MAX_LINES = 40
MAX_LINE = 200  # characters: a longer line ends a legend's list


def apply_legends(text: str, quantities: list[Quantity], keywords: list[Keyword],
                  units: Units) -> list[Quantity]:
    """``quantities`` with the bare numbers under a unit legend given its unit (each
    number labelled by an attribute keyword of the unit's dimension right before it, or
    the second of a "312 / 624" pair)."""
    if not any(q.dimension == "bare" for q in quantities):
        return quantities
    scopes = _scopes(text, units)
    if not scopes:
        return quantities
    scope_starts = [start for start, _, _ in scopes]
    key_starts = [k.start for k in keywords]
    out = list(quantities)
    inside: dict[int, list[int]] = {}  # line start -> indexes of the figures in a scope on it
    for i, q in enumerate(out):
        j = bisect_right(scope_starts, q.start) - 1
        if j >= 0 and q.start < scopes[j][1]:
            inside.setdefault(text.rfind("\n", 0, q.start) + 1, []).append(i)
    changed = False
    for line_start, indexes in inside.items():
        if any(out[i].dimension not in ("bare", "count", "ordinal") for i in indexes):
            continue  # a line with a unit of its own
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        legends = scopes[bisect_right(scope_starts, line_start) - 1][2]
        info = _pick(legends, text[line_start:line_end])
        for i in indexes:
            q = out[i]
            if q.dimension != "bare" or q.is_range:
                continue
            if not (_labelled(text, q, keywords, key_starts, info[0], line_start)
                    or (i and out[i - 1].dimension == info[0] and out[i - 1].start >= line_start
                        and PAIR_JOIN.match(text[out[i - 1].end:q.start]))):
                continue
            number = times(Number(q.value, q.precision_exp), info[1])
            out[i] = replace(q, value=number.value, precision_exp=number.precision_exp,
                             dimension=info[0], written=info[2])
            changed = True
    return _pairs(text, out) if changed else quantities


def _labelled(text: str, q: Quantity, keywords: list[Keyword], starts: list[int],
              dimension: str, line_start: int) -> bool:
    """Does a keyword of ``dimension`` end on the line just before ``q`` ("FP32 19.5")?
    (``starts``: the keywords' starts.)"""
    i = bisect_left(starts, q.start)
    for k in reversed(keywords[max(0, i - 3):i]):
        if k.end <= q.start and k.start >= line_start and q.start - k.end <= MAX_GAP \
                and dimension in k.dims and LABEL_GAP.fullmatch(text, k.end, q.start):
            return True
    return False


def _scopes(text: str, units: Units) -> list[tuple[int, int, list[tuple[str, Decimal, str]]]]:
    """(start, end, legends) of each stretch of lines under one or more legends."""
    scopes: list = []
    pos = 0
    current: list[Any] | None = None  # [start, end, legends, list lines since the last legend]
    for line in text.split("\n"):
        end = pos + len(line)
        m = LEGEND.fullmatch(line.strip())
        info = units.info(m.group("unit")) if m else None
        if info is not None and info[0] != "other":
            if current is None or current[3] >= 3:  # a legend after list lines opens a new block
                current = [end + 1, end + 1, [], 0]
                scopes.append(current)
            current[2].append(info)
            current[3] = 0
        elif current is not None:
            if line.strip() and (len(line) > MAX_LINE or line_layout(line) == PROSE_LINE
                                 or current[3] >= MAX_LINES):
                current = None
            else:
                current[1] = end + 1
                current[3] += bool(line.strip())
        pos = end + 1
    return [(s, e, legs) for s, e, legs, _ in scopes]


def _pick(legends: list[tuple[str, Decimal, str]], line: str) -> tuple[str, Decimal, str]:
    """The legend for a line: the integer one ("TOPS") for an integer label, else the
    last other one; the last legend when none fits."""
    integer = bool(INTEGER_LABEL.search(line))
    fitting = [info for info in legends if _is_integer(info) == integer]
    return (fitting or legends)[-1]


def _is_integer(info: tuple[str, Decimal, str]) -> bool:
    return info[0] == "throughput" and "FL" not in info[2].upper()


def _pairs(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """'312 / 624': two rates of one line, the second twice the first, are dense / sparse."""
    out = list(quantities)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if a.pair or b.pair or not (a.dimension == b.dimension == "throughput") or not a.value:
            continue
        if PAIR_JOIN.match(text[a.end:b.start]) and abs(b.value / a.value - 2) < Decimal("0.02"):
            out[i - 1], out[i] = replace(a, pair="dense"), replace(b, pair="sparse")
    return out
