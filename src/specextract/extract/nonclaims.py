"""Figures in prose that are no spec claim of the chip (codebook, "What counts as a claim").

Each test looks at the text right around one figure, with the cue words of data/cues.tsv
(read through the :class:`Lexicon`):

* per-unit figures: "每个 SM 有 64 个 FP32 单元", "(8 per SM)", "40GB/s per link";
* differences between two chips: "低了 17 TFLOPS", "多了1280亿个", "+1100 MHz";
* memory pin speed: "21Gbps GDDR6X" (a few Gb/s is a data rate per pin, not bandwidth);
* interconnects other than NVLink: HCCS, Infinity Fabric, die-to-die and chip-to-chip links;
* caches other than L2: "40GB的高速缓存";
* thresholds about chips in general: "超出 4800 TOPS 的芯片将被禁止";
* the whole a part is taken from: "启用了 144 组 SM 中的 128 组" (the full die's count);
* vague round figures: "上百 TFLOPS", "数百 GB" (a hundred or so is no stated value);
* compute capabilities glued to "SM": "SM89", "sm_90" (an architecture version, not a count).
"""
from __future__ import annotations

import re

from ..lexicon.lexicon import Lexicon
from .cues import cue_pattern
from .quantities import Quantity
from .patterns import (AND_ABOVE_AFTER, CACHE_AFTER, CAPABILITY_BEFORE, CLAUSE_END,
                       DIFFERENCE_SIGN, GENERIC_CHIPS_AFTER, LIMIT_BEFORE, THRESHOLD_BEFORE,
                       VAGUE_BEFORE, WHOLE_OF_PART)

PIN_SPEED_MAX = 5  # GB/s: a figure in Gb/s below this is a per-pin data rate
PER_UNIT_REACH = 40   # characters before a figure where "每个 SM" can be about it
LINK_REACH = 80       # characters before a figure where an interconnect's name can be


def _per_unit_before(lex: Lexicon) -> re.Pattern:
    units = cue_pattern(lex, "unit_part").pattern
    return re.compile(rf"(?:每|单)\s*+(?:一\s*+)?(?:(?:个|组|条|颗|块|路)\s*+)?(?:{units})"
                      rf"|(?<![A-Za-z])(?:per|each|every)\s+(?:{units})", re.IGNORECASE)


def _per_unit_after(lex: Lexicon) -> re.Pattern:
    units = cue_pattern(lex, "unit_part").pattern
    return re.compile(rf"^[^，。,;；()（）\n]{{0,20}}?(?:(?<![A-Za-z])per\s+|/\s*|每\s*(?:个|组|条|颗)?\s*)"
                      rf"(?:MIG\s++)?(?:{units})", re.IGNORECASE)


def per_unit(lex: Lexicon, text: str, q: Quantity, clause_start: int) -> bool:
    """Is the figure given per SM / GPC / link / stack / ... rather than per chip?"""
    start = max(clause_start, q.start - PER_UNIT_REACH)
    closed = max(text.rfind(")", start, q.start), text.rfind("）", start, q.start))
    if lex.built(_per_unit_before).search(text, max(start, closed + 1), q.start):
        return True  # (an aside closed before the figure is not about it: "304 CUs (38 per XCD) and 192GB")
    return bool(lex.built(_per_unit_after).match(text[q.end:q.end + 40]))


def difference(lex: Lexicon, text: str, q: Quantity) -> bool:
    """'低了 17 TFLOPS', '多了1280亿个', '+1100 MHz': a gap between two figures (a
    percentage is a speed-up and is read elsewhere)."""
    if q.dimension in ("percent", "ratio"):
        return False
    head = text[max(0, q.start - 8):q.start]
    return bool(cue_pattern(lex, "difference", "$").search(head) or DIFFERENCE_SIGN.search(head))


def pin_speed(q: Quantity) -> bool:
    """'21Gbps GDDR6X', '速率 16Gbps': a per-pin data rate, not memory bandwidth."""
    return q.dimension == "bandwidth" and q.written == "Gb/s" and q.value < PIN_SPEED_MAX


def other_link(lex: Lexicon, text: str, q: Quantity, clause_start: int) -> bool:
    """A bandwidth of an interconnect other than NVLink named in the clause before it."""
    if q.dimension != "bandwidth":
        return False
    head = text[max(clause_start, q.start - LINK_REACH):q.start]
    links = cue_pattern(lex, "other_link")
    tail = text[q.end:q.end + 24]  # "900GB/s 超低功耗NVLink芯片到芯片互连": named after it
    stop = CLAUSE_END.search(tail)
    return bool(links.search(head) or links.search(tail[:stop.start() if stop else len(tail)]))


def cache(text: str, q: Quantity) -> bool:
    """'40GB的高速缓存': a cache other than L2 (an L2 figure has its own keyword)."""
    return q.dimension == "bytes" and bool(CACHE_AFTER.match(text[q.end:q.end + 12]))


def threshold(text: str, q: Quantity) -> bool:
    """'计算性能超出 4800 TOPS 的芯片', '限制在每秒600GB及以上': a limit about chips in general."""
    if LIMIT_BEFORE.search(text[max(0, q.start - 8):q.start]) and AND_ABOVE_AFTER.match(
            text[q.end:q.end + 12]):
        return True
    return bool(THRESHOLD_BEFORE.search(text[max(0, q.start - 6):q.start])
                and GENERIC_CHIPS_AFTER.match(text[q.end:q.end + 12]))


def whole_of_part(text: str, q: Quantity) -> bool:
    """'144 组 SM 中的 128 组': the count a part is taken from, not the chip's."""
    return q.dimension in ("count", "bare") and bool(WHOLE_OF_PART.match(text[q.end:q.end + 20]))


def vague(text: str, q: Quantity) -> bool:
    """'上百 TFLOPS', '数千个': a round figure given as an order of magnitude."""
    return text[q.start:q.start + 1] in ("百", "千", "万") and bool(
        VAGUE_BEFORE.search(text[max(0, q.start - 2):q.start]))


def capability(text: str, q: Quantity) -> bool:
    """'SM89', 'sm_90': a compute capability (two digits glued to SM), not an SM count."""
    return (q.dimension in ("count", "bare") and q.number_end - q.number_start == 2
            and bool(CAPABILITY_BEFORE.search(text[max(0, q.start - 4):q.start])))


def not_a_claim(lex: Lexicon, text: str, q: Quantity, clause_start: int) -> str:
    """Why the figure is no claim ('' when it may be one)."""
    for why, test in (("per-unit", lambda: per_unit(lex, text, q, clause_start)),
                      ("difference", lambda: difference(lex, text, q)),
                      ("pin-speed", lambda: pin_speed(q)),
                      ("other-link", lambda: other_link(lex, text, q, clause_start)),
                      ("cache", lambda: cache(text, q)),
                      ("threshold", lambda: threshold(text, q)),
                      ("whole", lambda: whole_of_part(text, q)),
                      ("vague", lambda: vague(text, q)),
                      ("capability", lambda: capability(text, q))):
        if test():
            return why
    return ""
