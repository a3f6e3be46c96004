"""The value of a speed-up figure, from the words around it (codebook, Conversions).

``speedup_value`` reads a ratio or percentage in prose as the subject's figure over the
baseline's: "提升50%" / "高出50%" / "50% faster" are 1.5; "降低12.8%" / "12.8% lower" are
0.872; "只有 H100 的 20%" / "是H100算力的15%" / "30% of the A100's" are 0.2 / 0.15 / 0.3; "N倍" / "Nx" are N, and
"提升一倍" / "快一倍" (一倍 with a word of increase) is 2. A percentage with none of these
words around it is no speed-up (a share, a yield, a utilisation).
"""
from __future__ import annotations

from decimal import Decimal

from ..lexicon.lexicon import Lexicon
from .cues import cue_pattern
from .patterns import (COMPARED_LESS, COMPARED_MORE, FRACTION_HEAD, FRACTION_TAIL, OF_CHIP, OF_TAIL,
                       ONE_FOLD, ONLY_HEAD)
from .quantities import Quantity


def speedup_value(lex: Lexicon, text: str, q: Quantity, start: int, end: int) -> tuple[Decimal, int] | None:
    """(value, precision exponent) of ratio or percent ``q`` as a speed-up, reading the
    sentence ``text[start:end]`` around it; None when it is no comparison."""
    if q.dimension == "percent":
        return _percent(lex, text, q, start, end)
    if q.written == "/":  # "仅为 H200 的 1/34", "只有 A100 的一半", "a fifth of the H100's"
        share = _share_of(text, q, start, end) or OF_TAIL.match(text[q.end:min(end, q.end + 6)])
        return (q.value, q.precision_exp) if share else None
    if q.written == "x" and q.value == 1 and text[q.end - 1:q.end] == "倍" \
            and ONE_FOLD.search(text, max(start, q.start - 6), q.start):
        return Decimal(2), 0  # "提升一倍": doubled
    return q.value, q.precision_exp


def _share_of(text: str, q: Quantity, start: int, end: int) -> bool:
    """Is figure ``q`` stated as a share of another chip's ("是…的 20%", "only … of")?"""
    head = text[max(start, q.start - 24):q.start]
    tail = text[q.end:min(end, q.end + 6)]
    return bool((FRACTION_HEAD.search(head) and FRACTION_TAIL.match(tail))
                or (ONLY_HEAD.search(head) and OF_TAIL.match(tail))
                or OF_CHIP.match(text[q.end:min(end, q.end + 32)]))


def _percent(lex: Lexicon, text: str, q: Quantity, start: int, end: int) -> tuple[Decimal, int] | None:
    near = text[max(start, q.start - 8):q.start] + " " + text[q.end:min(end, q.end + 10)]
    exp = q.precision_exp - 2
    if cue_pattern(lex, "decrease").search(near):
        return 1 - q.value / 100, exp
    if cue_pattern(lex, "increase").search(near):
        return 1 + q.value / 100, exp
    head = max(start, q.start - 32)
    if COMPARED_LESS.search(text, head, q.start):
        return 1 - q.value / 100, exp
    if COMPARED_MORE.search(text, head, q.start):
        return 1 + q.value / 100, exp
    if _share_of(text, q, start, end):
        return q.value / 100, exp
    return None
