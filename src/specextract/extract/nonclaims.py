"""Figures in prose that are no spec claim of the chip (codebook, "What counts as a claim").

Each test looks at the text right around one figure, with the cue words of data/cues.tsv
(read through the :class:`Lexicon`):

* per-unit figures: "每个 SM 有 64 个 FP32 单元", "(8 per SM)", "40GB/s per link", "7 instances,
  each with 10GB";
* differences between two chips: "低了 17 TFLOPS", "多了1280亿个", "+1100 MHz";
* memory pin speed: "21Gbps GDDR6X" (a few Gb/s is a data rate per pin, not bandwidth);
* interconnects other than NVLink: HCCS, Infinity Fabric, die-to-die and chip-to-chip links;
* caches other than L2: "40GB的高速缓存";
* thresholds about chips in general: "超出 4800 TOPS 的芯片将被禁止";
* compute per watt: "每瓦性能 29.3 TFLOPS" (an efficiency, not the chip's compute);
* totals over chips counted before them: "由 8960 个芯片互连，总带宽超过 400 Tb/s";
* the whole a part is taken from: "启用了 144 组 SM 中的 128 组" (the full die's count);
* vague round figures: "上百 TFLOPS", "数百 GB" (a hundred or so is no stated value);
* compute capabilities glued to "SM": "SM89", "sm_90" (an architecture version, not a count);
* sentences about one unit: "每个 SM 单元中有 64 个 FP32 单元、…和 32 个 FP64 单元" (every
  figure of a sentence that opens with "每个 SM" / "Each SM", until it turns to the whole
  chip), "SM中8个 Tensor Core", "每颗大小 4GB" (each one, the unit named before);
* questions: "怎么突然暴增到 864GB?" (a question asserts nothing);
* memory clocks: "HBM2E memory … at 1.6 GHz" (a clock after memory words, no core word);
* per-die figures after "two dies … each with a clock rate of 1.7 GHz";
* figures of an architecture: "该架构首次引入第四代 Tensor Core", "架构Blackwell，其拥有…".
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexicon.lexicon import Lexicon
from ..lexicon.made import built
from ..regex_screens import compile_pattern
from .cues import cue_pattern, cue_value
from .quantities import Quantity
from .patterns import (AND_ABOVE_AFTER, ARCHITECTURE_SUBJECT, CACHE_AFTER, CAPABILITY_BEFORE,
                       CHIPS_COUNTED, CLAUSE_END, COMPARED_GAP, CORE_CLOCK_WORD, DIFFERENCE_SIGN, EACH_OF_THEM,
                       EACH_OF_THEM_AFTER, EACH_ONE,
                       EACH_PART, EACH_WORD, GENERIC_CHIPS_AFTER, LIMIT_BEFORE, MEMORY_WORD,
                       OPENING, PER_WATT_BEFORE, THRESHOLD_BEFORE, TOTAL_BEFORE, VAGUE_BEFORE, WHOLE_OF_PART)

PIN_SPEED_MAX = 5  # GB/s: a figure in Gb/s below this is a per-pin data rate
PER_UNIT_REACH = 40   # characters before a figure where "每个 SM" can be about it
NETWORK_REACH = 40    # characters after a figure where a network word can name it
LINK_REACH = 80       # characters before a figure where an interconnect's name can be
CONTEXT_REACH = 80    # characters before a figure where memory or architecture words count
QUESTION_REACH = 120  # characters around a figure where a question word counts
TOTAL_REACH = 24      # characters before a figure where a total word can be about it
PER_WATT_REACH = 16   # characters before a compute figure where "每瓦" / "per watt" can be
EACH_REACH = 80       # characters before a figure where the parts "each" stands for can be counted


def _per_unit_before(lex: Lexicon) -> re.Pattern:
    units = cue_pattern(lex, "unit_part").pattern
    return compile_pattern(rf"(?:每|单|單)\s*+(?:一\s*+)?(?:(?:个|個|组|組|条|條|颗|顆|块|塊|路)\s*+)?(?:{units})"
                           rf"|(?<![A-Za-z])(?:per|each|every)\s+(?:{units})", re.IGNORECASE)


def _per_unit_after(lex: Lexicon) -> re.Pattern:
    units = cue_pattern(lex, "unit_part").pattern
    return compile_pattern(rf"^(?:(?![.!?]\s)(?!(?<![A-Za-z\d.])\d)[^，。,;；()（）\n]){{0,32}}?(?:(?<![A-Za-z])per\s+|/\s*|每\s*(?:个|個|组|組|条|條|颗|顆)?\s*)"
                           rf"(?:MIG\s++)?(?:{units})", re.IGNORECASE)


def per_unit(lex: Lexicon, text: str, q: Quantity, clause_start: int) -> bool:
    """Is the figure given per SM / GPC / link / stack / ... rather than per chip?"""
    start = max(clause_start, q.start - PER_UNIT_REACH)
    closed = max(text.rfind(")", start, q.start), text.rfind("）", start, q.start))
    if built(lex, _per_unit_before).search(text, max(start, closed + 1), q.start):
        return True  # (an aside closed before the figure is not about it: "304 CUs (38 per XCD) and 192GB")
    return bool(built(lex, _per_unit_after).match(text[q.end:q.end + 52]))


def difference(lex: Lexicon, text: str, q: Quantity) -> bool:
    """'低了 17 TFLOPS', '低了约130W', '比 A 的 800 亿多 1280 亿', '+1100 MHz': a gap
    between two figures (a percentage is a speed-up and is read elsewhere)."""
    if q.dimension in ("percent", "ratio"):
        return False
    head = text[max(0, q.start - 12):q.start]
    after = cue_pattern(lex, "difference_after", "^")  # "a 50W increase in TDP", "8GB more"
    return bool(built(lex, _difference_before).search(head) or DIFFERENCE_SIGN.search(head)
                or after.match(text[q.end:q.end + 16])
                or text.find("比", max(0, q.start - 40), q.start) >= 0
                and COMPARED_GAP.search(text, max(0, q.start - 40), q.start) is not None)


def _difference_before(lex: Lexicon) -> re.Pattern:
    """A difference word right before a figure, maybe with an operator between ("低了约")."""
    gap, ops = cue_pattern(lex, "difference").pattern, cue_pattern(lex, "op_before").pattern
    return compile_pattern(rf"(?:{gap})\s*+(?:(?:{ops})\s*+)?$", re.IGNORECASE)


def pin_speed(q: Quantity) -> bool:
    """'21Gbps GDDR6X', '速率 16Gbps': a per-pin data rate, not memory bandwidth."""
    return q.dimension == "bandwidth" and q.written == "Gb/s" and q.value < PIN_SPEED_MAX


def other_link(lex: Lexicon, text: str, q: Quantity, clause_start: int,
               clause_end: int | None = None) -> bool:
    """A bandwidth of an interconnect other than NVLink named in the clause before it, or
    a size or bandwidth that names a network right after it ("800G光模块", "200G网络",
    "4.8 Tb/s of scale-out networking"); ``clause_end`` bounds what follows (a table cell)."""
    if q.dimension not in ("bandwidth", "bytes"):
        return False
    limit = len(text) if clause_end is None else clause_end
    if built(lex, _network_after).match(text, q.end, min(q.end + NETWORK_REACH, limit)):
        return True
    if q.dimension != "bandwidth":
        return False
    head = text[max(clause_start, q.start - LINK_REACH):q.start]
    links = cue_pattern(lex, "other_link")
    tail = text[q.end:min(q.end + 24, limit)]  # "900GB/s 超低功耗NVLink芯片到芯片互连": named after it
    stop = CLAUSE_END.search(tail)
    return bool(links.search(head) or links.search(tail[:stop.start() if stop else len(tail)]))


def _network_after(lex: Lexicon) -> re.Pattern:
    """A network word right after a figure: after "的" or "of" and one modifier at most."""
    words = cue_pattern(lex, "network_after").pattern
    return compile_pattern(rf"(?<!\s)\s*+(?:的|of\s++)?(?:(?<![A-Za-z-])[A-Za-z-]++\s++)?(?:{words})",
                           re.IGNORECASE)


def names_network(lex: Lexicon, text: str, start: int, end: int) -> bool:
    """Does the table label text[start:end] name a network ("Scale-out networking",
    "以太网端口")? Its figures are no memory or NVLink figures."""
    return bool(cue_pattern(lex, "network_after").search(text, start, end)
                or cue_pattern(lex, "other_link").search(text, start, end))


def names_system(lex: Lexicon, text: str, start: int, end: int) -> bool:
    """Does the table label text[start:end] name a system ("(4-chip VM)", "集群")? Its
    figures are the system's, no chip's."""
    return any(cue_value(lex, "exclude", m.group()) == "system"
               for m in cue_pattern(lex, "exclude").finditer(text, start, end))


def cache(text: str, q: Quantity) -> bool:
    """'40GB的高速缓存': a cache other than L2 (an L2 figure has its own keyword)."""
    return q.dimension == "bytes" and bool(CACHE_AFTER.match(text[q.end:q.end + 24]))


def threshold(text: str, q: Quantity) -> bool:
    """'计算性能超出 4800 TOPS 的芯片', '限制在每秒600GB及以上': a limit about chips in general."""
    if LIMIT_BEFORE.search(text[max(0, q.start - 8):q.start]) and AND_ABOVE_AFTER.match(
            text[q.end:q.end + 12]):
        return True
    return bool(THRESHOLD_BEFORE.search(text[max(0, q.start - 6):q.start])
                and GENERIC_CHIPS_AFTER.match(text[q.end:q.end + 12]))


def system_total(text: str, q: Quantity, clause_start: int, sentence_start: int) -> bool:
    """'由 8960 个芯片互连，总带宽超过 400 Tb/s': a total word before the figure in its
    clause, and chips counted (two or more) earlier in the sentence: the system's total."""
    start = max(clause_start, q.start - TOTAL_REACH)
    return (TOTAL_BEFORE.search(text, start, q.start) is not None
            and CHIPS_COUNTED.search(text, sentence_start, q.start) is not None)


def per_watt(text: str, q: Quantity, clause_start: int) -> bool:
    """'每瓦性能 29.3 TFLOPS', 'performance per watt of 29.3 TFLOPS': compute per watt."""
    return q.dimension == "throughput" and PER_WATT_BEFORE.search(
        text, max(clause_start, q.start - PER_WATT_REACH), q.start) is not None


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


def _unit_patterns(lex: Lexicon) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """(a sentence opening on one unit, a unit right before the figure, the whole chip)."""
    units = cue_pattern(lex, "unit_part").pattern
    opening = compile_pattern(rf"{OPENING}(?:(?:每|单)\s*+(?:一\s*+)?(?:(?:个|個|组|組|条|條|颗|顆|块|塊|路)\s*+)?"
                              rf"|(?<![A-Za-z])(?:per|each|every)\s++)(?:{units})", re.IGNORECASE)
    inside = compile_pattern(rf"(?<![\s\d一二两兩三四五六七八九十个個组組颗顆块塊])\s*+(?:{units})\s*+"
                             rf"(?:中|内|內|里|裡)\s*+(?:有|包含|含有|集成了?|配备了?|配備了?)?\s*+$",
                             re.IGNORECASE)
    return opening, inside, cue_pattern(lex, "whole_chip")


def unit_sentence(lex: Lexicon, text: str, q: Quantity, sentence_start: int,
                  chips: Sequence[int] = ()) -> bool:
    """A figure of a sentence that opens with "每个 SM" / "Each SM" (and has not turned to
    the whole chip or named a chip before it: "整个芯片", "in total", "the H100 has"), or
    one right after "SM中"."""
    opening, inside, whole = built(lex, _unit_patterns)
    if inside.search(text, max(sentence_start, q.start - 16), q.start):
        return True
    found = opening.match(text, sentence_start, q.start)
    return bool(found) and not whole.search(text, found.end(), q.start) and not any(
        found.end() <= c < q.start for c in chips)


def each_one(text: str, q: Quantity) -> bool:
    """'每颗大小 4GB', '每个容量为16GB': each one of the parts named before, not the chip."""
    return q.dimension in ("bytes", "bandwidth") and bool(
        EACH_ONE.search(text, max(0, q.start - 12), q.start))


def _counted_units(lex: Lexicon) -> re.Pattern:
    """A count of parts: "7 instances", "four HBM stacks", "7个实例"."""
    units = cue_pattern(lex, "unit_part").pattern
    return compile_pattern(rf"(?:(?<![\w.])\d{{1,3}}|(?<![A-Za-z])(?:two|three|four|five|six|seven|eight|"
                           rf"twelve|sixteen))\s*+(?:(?:个|個|组|組)\s*+|[A-Za-z-]++\s++)?(?:{units})",
                           re.IGNORECASE)


def each_of_units(lex: Lexicon, text: str, q: Quantity, clause_start: int,
                  sentence_start: int) -> bool:
    """'split into 7 instances, each with 10GB', '7 instances with up to 10GB given to each',
    '分为 7 个实例，每个 10GB': a figure of each of the parts counted before it in its
    sentence ("each" in the figure's clause), not the chip's."""
    head_start = max(sentence_start, q.start - EACH_REACH)
    after = EACH_OF_THEM_AFTER.match(text, q.end) is not None
    if not after and EACH_OF_THEM.search(text, max(head_start, clause_start), q.start) is None:
        return False  # no "each" for the figure (nearly every figure): no count to look for
    counted = None
    for counted in built(lex, _counted_units).finditer(text, head_start, q.start):
        pass
    if counted is None:
        return False
    return after or EACH_OF_THEM.search(text, max(counted.end(), clause_start), q.start) is not None


def question(lex: Lexicon, text: str, q: Quantity, sentence: tuple[int, int]) -> bool:
    """A figure in a question ("怎么会有 864GB?", "why would it need 600W?") is asserted by
    no one: the sentence ends in a question mark and asks (a question word)."""
    start, end = sentence
    last = end - 1
    while last > q.end and text[last].isspace():
        last -= 1
    if last < q.end or text[last] not in "?？":
        return False
    return bool(cue_pattern(lex, "question").search(
        text, max(start, q.start - QUESTION_REACH), min(end, q.end + QUESTION_REACH)))


def memory_clock(text: str, q: Quantity, clause_start: int) -> bool:
    """'eight stacks of HBM2E memory … at 1.6 GHz': a clock after memory words in its clause,
    with no core or boost word between, is the memory's."""
    if q.dimension != "frequency":
        return False
    last = None
    for last in MEMORY_WORD.finditer(text, max(clause_start, q.start - CONTEXT_REACH), q.start):
        pass
    return last is not None and not CORE_CLOCK_WORD.search(text, last.end(), q.start)


def each_part(text: str, q: Quantity, sentence_start: int) -> bool:
    """'two compute dies, each with a clock rate of 1.7 GHz': a figure of each die."""
    start = max(sentence_start, q.start - 120)
    return EACH_WORD.search(text, max(start, q.start - 44), q.start) is not None and \
        EACH_PART.search(text, start, q.start) is not None


def architecture(text: str, q: Quantity, clause_start: int) -> bool:
    """'该架构首次引入第四代Tensor Core', '芯片架构Blackwell，其拥有2080亿个晶体管': a figure
    of an architecture, not of a chip."""
    start = max(0, q.start - CONTEXT_REACH, min(clause_start, q.start - 16))
    if text.find("架", start, q.start) < 0 and text.find("rchitecture", start, q.start) < 0:
        return False  # (a quick test first: most figures have neither word before them)
    return bool(ARCHITECTURE_SUBJECT.search(text, start, q.start))


def not_a_claim(lex: Lexicon, text: str, q: Quantity, clause_start: int,
                sentence: tuple[int, int] | None = None, chips: Sequence[int] = ()) -> str:
    """Why the figure is no claim ('' when it may be one); ``sentence`` (start, end) is
    the figure's sentence, for the tests that read all of it, ``chips`` where its chip
    names start."""
    s_start = sentence[0] if sentence else clause_start
    if unit_sentence(lex, text, q, s_start, chips) or each_one(text, q) \
            or each_of_units(lex, text, q, clause_start, s_start):
        return "per-unit"
    if sentence is not None and question(lex, text, q, sentence):
        return "question"
    if memory_clock(text, q, clause_start):
        return "memory-clock"
    if each_part(text, q, s_start):
        return "per-die"
    if architecture(text, q, clause_start):
        return "architecture"
    if per_unit(lex, text, q, clause_start):
        return "per-unit"
    if difference(lex, text, q):
        return "difference"
    if pin_speed(q):
        return "pin-speed"
    if other_link(lex, text, q, clause_start):
        return "other-link"
    if cache(text, q):
        return "cache"
    if threshold(text, q):
        return "threshold"
    if system_total(text, q, clause_start, s_start):
        return "system"
    if per_watt(text, q, clause_start):
        return "efficiency"
    if whole_of_part(text, q):
        return "whole"
    if vague(text, q):
        return "vague"
    if capability(text, q):
        return "capability"
    return ""
