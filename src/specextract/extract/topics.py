"""Which chip a sentence leaves as the topic of the sentences after it.

A sentence that only compares another chip with the topic ("据测试，X 比 <topic> 快 6 倍")
is about the pair, not a change of subject: when the new chip's only figures in it are
speed-ups over the topic, the topic stays (the next "该卡有 400W TDP" is still the
topic's).
"""
from __future__ import annotations

import re

from .mentions import Mention


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


# a plural reference to the chips just named, opening a sentence
PLURAL_REF = re.compile(r"(?:而|(?i:and)\s++)?(?:它们|他们|两者|二者|这两款|这两张|这两颗|这两种|两款(?:卡|显卡|芯片)?"
                        r"|(?i:they|the\s++two(?:\s++(?:cards|chips|GPUs))?|both(?:\s++(?:cards|chips|GPUs))?))")
LEAD = frozenset(" \t\n，,")
FIGURE_JOIN = re.compile(r"(?<!\s)\s*+(?:与|和|及|、|/|,|，|(?i:and))\s*+")


def group_figures(text: str, span, figures: list, group: list[Mention]) -> list[list]:
    """The runs of joined figures ("48GB与24GB", "150W and 72W") with one figure per chip
    of ``group``, when the sentence ``span`` opens on a plural reference to them."""
    start = span.start
    while start < span.end and text[start] in LEAD:
        start += 1
    if len(group) < 2 or not PLURAL_REF.match(text, start):
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
