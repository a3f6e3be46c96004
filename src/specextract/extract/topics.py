"""Which chip a sentence leaves as the topic of the sentences after it.

A sentence that only compares another chip with the topic ("据测试，X 比 <topic> 快 6 倍")
is about the pair, not a change of subject: when the new chip's only figures in it are
speed-ups over the topic, the topic stays (the next "该卡有 400W TDP" is still the
topic's).
"""
from __future__ import annotations

import re

from ..lexicon.made import built
from ..regex_screens import compile_pattern, compile_screened
from .drafts import relations
from .mentions import Mention
from .patterns import ASIDE_SAME, FIGURE_JOIN, PLURAL_REF, PLURAL_REF_STARTS, SAME_TAIL, match_at


def comparison_keeps_topic(topic: Mention | None, subject: Mention, compared: set[str],
                           drafts: list) -> bool:
    """Does a sentence naming ``subject`` (its first chip not compared against) keep
    ``topic``? Only when the topic is among the chips it compares against
    (``compared``) and ``subject``'s figures in it (``drafts``) are all speed-ups over
    the topic, at least one."""
    if topic is None or topic.entity == subject.entity or topic.entity not in compared:
        return False
    own = [d for d in drafts if d.entity == subject.entity]
    return bool(own) and all(d.attribute == "speedup" and d.baseline == topic.entity for d in own)



LEAD = frozenset(" \t\n，,")


def group_figures(text: str, span, figures: list, group: list[Mention]) -> list[list]:
    """The runs of joined figures ("48GB与24GB", "150W and 72W") with one figure per chip
    of ``group``, when the sentence ``span`` opens on a plural reference to them."""
    start = span.start
    while start < span.end and text[start] in LEAD:
        start += 1
    if len(group) < 2 or not match_at(PLURAL_REF, PLURAL_REF_STARTS, text, start):
        return []
    runs: list[list] = []
    for q in figures:
        if q.is_range:
            continue
        if runs and FIGURE_JOIN.fullmatch(text, runs[-1][-1].end, q.start):
            runs[-1].append(q)
        else:
            runs.append([q])
    return [run for run in runs if len(run) == len(group)]


# "跟 H100 相同，都…", "与 RTX 4090 一致，维持在…": the same figure for both chips
LINE_WORD = r"(?:(?:NVIDIA|Nvidia|AMD|英伟达|GeForce|RTX|GTX|Radeon|Instinct|Tesla)\s*+)*+"
WITH_BEFORE = compile_pattern(rf"(?:与|和|跟|同)\s*+{LINE_WORD}$")
ASIDE_WITH = compile_pattern(rf"(?<!\s)\s*+[（(]\s*+(?:与|和|跟|同)\s*+{LINE_WORD}")


def same_before(text: str, sent_start: int, start: int, end: int, figure: int,
                figure_ends: list[int]) -> bool:
    """Is the chip at [start, end) named as "与/跟 X 相同" before the figure at ``figure``,
    in the clause right before it or its own? (``figure_ends``: where the sentence's
    figures end.)"""
    if not WITH_BEFORE.search(text, max(sent_start, start - 20), start):
        return False
    head_start = max(sent_start, start - 40)
    head_start += max(text.rfind(p, head_start, start) - head_start for p in "，,；;：:。") + 1
    if any(head_start < e <= start for e in figure_ends):
        return False  # "TGP 320W 同 4080 一样": the sameness is about the figure before
    m = SAME_TAIL.match(text, end)
    return m is not None and figure - m.end() <= 24 and not any(
        p in text[m.end():figure] for p in "，,：:、；;")


def same_after(text: str, figure_end: int, start: int, end: int) -> bool:
    """Is the chip at [start, end) named in an aside right after the figure: "1 TB/s
    （与 RTX 3090 Ti 一致）"?"""
    return bool(ASIDE_WITH.fullmatch(text, figure_end, start) and ASIDE_SAME.match(text, end))


def same_figure_chips(text: str, span, chips: list[Mention], have: list[Mention], q,
                      clause_end: int, figures: list) -> list[Mention]:
    """Chips the text gives the same figure as the subject(s) ``have``: "跟 H100 相同，都用
    4nm" before it (no other chip between), "1 TB/s（与 RTX 3090 Ti 一致）" right after it."""
    entities = {c.entity for c in have}
    ends = [f.end for f in figures if f.dimension != "bare"]
    for c in chips:
        if c.entity in entities or c.system or c.kind:
            continue
        end = max(c.end, c.variant_end)
        if c.end <= q.start:
            if same_before(text, span.start, c.start, end, q.start, ends) and not any(
                    end <= d.start < q.start and d.entity not in entities for d in chips):
                return [c]
        elif c.start < clause_end + 2 and same_after(text, q.end, c.start, end):
            return [c]
    return []


def _architecture_named(lex) -> re.Pattern:
    names = "|".join(sorted(map(re.escape, lex.built(relations)[1]), key=len, reverse=True))
    return compile_screened(rf"(?:架构|架構)\s*+[“\"「]?(?i:({names}))(?![A-Za-z])"
                            rf"|(?<![A-Za-z])(?i:({names}))[”\"」]?\s*+(?:架构|架構|(?i:architecture))")


def _series_owner(lex) -> re.Pattern:
    """An architecture named as a series of chips owning what follows: "Blackwell 系列的",
    "Hopper 一代的", "the Blackwell generation's"."""
    names = "|".join(sorted(map(re.escape, lex.built(relations)[1]), key=len, reverse=True))
    return compile_screened(rf"(?<![A-Za-z])(?i:{names})\s*+(?:系列|家族|世代|一代|产品线|產品線"
                            rf"|(?i:series|generation|family|line-?up)(?:'s|’s)?)\s*+的?")


def _series_after(lex) -> re.Pattern:
    """"… to 8 TB/s on the Blackwell generation": a series of chips right after a figure."""
    names = "|".join(sorted(map(re.escape, lex.built(relations)[1]), key=len, reverse=True))
    return compile_pattern(rf"(?<!\s)\s*+(?i:on|for|in|with|across)\s++(?i:the\s++)?(?i:{names})\s*+"
                           rf"(?i:series|generation|family|line-?up)(?![a-z])")


def series_figure(lex, text: str, after_chip: int, q_start: int, q_end: int) -> bool:
    """Is the figure at [q_start, q_end) given for a series of chips ("提升到 Blackwell 系列的
    8TB/s", "8 TB/s on the Blackwell generation") rather than for the chip named before it
    (at ``after_chip``)? A series-wide figure is no claim (codebook). The series' word is
    at most a few words before the figure ("Blackwell 系列的带宽达到 8TB/s")."""
    for m in built(lex, _series_owner).finditer(text, after_chip, q_start):
        if q_start - m.end() <= 8:
            return True
    return built(lex, _series_after).match(text, q_end) is not None


def architecture_before(lex, text: str, start: int, end: int) -> str:
    """The chip of the last architecture named as such in [start, end) ("芯片架构
    Blackwell", "Hopper 架构"), or ""."""
    last = None
    for m in built(lex, _architecture_named).finditer(text, start, end):
        last = m
    if last is None:
        return ""
    return built(lex, relations)[1].get((last.group(1) or last.group(2)).lower(), "")
