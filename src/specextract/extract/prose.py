"""Link each figure in prose to its chip and attribute, sentence by sentence.

Input: what :func:`specextract.extract.claims.find_all` found in normalized text (chips,
attribute keywords, qualifiers, quantities). Output: :class:`~.drafts.Draft` claims in
normalized coordinates. A :class:`ProseSentence` links one sentence: its figures through
:mod:`.figurelinks` (which chip, which attribute; :mod:`.pairlinks` for one-to-one pairings) and its ratios through :mod:`.speeduplinks`
(subject, baseline, metric); :mod:`.sentence` holds what both share (clauses, baselines, the
figures that are no claims: ranges, measured / overclocked / forecast / per-die figures,
system totals). This module carries the topic chip from sentence to sentence.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..lexicon.lexicon import Lexicon
from ..regex_screens import compile_screened
from .drafts import Draft, Found, inside_any, merged_spans, relations
from .mentions import Mention
from .patterns import LIST_LEAD
from .quantities import Quantity
from .segment import Span, sentences
from .speeduplinks import SpeedupLinks
from .topics import comparison_keeps_topic


class ProseSentence(SpeedupLinks):
    """One sentence's links: figures first, then the speed-ups (which may borrow the
    figures' subject and metric)."""

    def link(self, quantities: list[Quantity]) -> list[Draft]:
        figures = self.figures = [q for q in quantities if q.dimension not in ("ratio", "percent")]
        out = self._respectively(figures)
        done = {d.quantity for d in out}
        for q in figures:
            if (done and q in done) or q.is_range:
                continue
            drafts = self._figure(q)  # linked first: an unlinked figure needs no exclusion test
            if drafts and not self._excluded(q):
                out.extend(drafts)
        for q in quantities:
            if q.dimension in ("ratio", "percent") and not q.is_range and not self._gain_excluded(q):
                out.extend(self._speedups(q, out))
        return out


def link_prose(found: Found, skip: list[Span]) -> list[Draft]:
    """Drafts for every figure outside the ``skip`` spans (tables read apart)."""
    text = found.text
    drafts: list[Draft] = []
    topic: Mention | None = None
    group: list[Mention] = []  # the chips of the last sentence that named several
    prev_speedup: Draft | None = None  # the last speed-up of the sentence before
    skip = merged_spans(skip)
    skip_starts = [s.start for s in skip]
    within = found.within
    for sent in sentences(text):
        start, end = sent
        s_q = within("quantities", start, end)
        s_c = within("chips", start, end)
        if skip and s_q:
            s_q = [q for q in s_q if not inside_any(q, skip, skip_starts)]
        if not s_q and not s_c:
            continue  # nothing to link, and the topic stays
        if not any(not c.system for c in s_c):
            topic = _architecture_topic(found, sent, topic)
        ctx = ProseSentence(text, sent, s_c, within("keywords", start, end),
                        within("qualifiers", start, end), topic, None, group, found.lexicon)
        linked: list[Draft] = []
        if s_q:
            ctx.all_keywords = found.keywords
            ctx.found = found
            ctx.prev_speedup = _adjacent(text, prev_speedup, start)
            linked = ctx.link(s_q)
            drafts.extend(linked)
            gains = [d for d in linked if d.attribute == "speedup"]
            prev_speedup = gains[-1] if gains else None
        else:
            prev_speedup = None
        real = [c for c in s_c if not c.system]
        if real and skip:  # a table's chips are its own: they leave the prose topic as it was
            real = [c for c in real if not inside_any(c, skip, skip_starts)]
        if real:
            compared = {c.entity for c in real if ctx.is_baseline(c)}  # every mention of a baseline
            first = next((c for c in real if c.entity not in compared), None)
            if first is not None and not comparison_keeps_topic(topic, first, compared, linked):
                topic = first  # (a sentence that only names a baseline keeps the topic)
            distinct = list({c.entity: c for c in real}.values())
            if len(distinct) >= 2:
                group = distinct
    return unread_rows(drafts, text)


# links that carry a chip to a figure from outside its clause
CARRIED = frozenset({"list-head", "heading", "shared-head", "sentence", "topic", "topic-far",
                     "pronoun", "group"})


def unread_rows(drafts: list[Draft], text: str) -> list[Draft]:
    """``drafts``, where a sentence gives one carried chip two or more figures of one attribute
    and qualifier ("FP64 矢量 9.1 TFLOPS 40 TFLOPS 暂无" under chip names this reader did not
    take for a header), or gives a chip two figures of one unit with nothing but spaces
    between them ("FP32 60 TFLOPS 14.2 TFLOPS FP16 …": cells of a row run together on one
    line), relinked "unread-row": that sentence is a table row whose columns were not read,
    and its figures accuse no chip."""
    rows = [(d.sentence.start, d.entity, d.variant, d.attribute, d.qualifier)
            if d.attribute != "speedup" else None for d in drafts]
    values: dict[tuple, set] = {}
    for d, row in zip(drafts, rows):
        if row is not None and d.link in CARRIED:
            values.setdefault(row, set()).add(d.value)
    spread = {row for row, seen in values.items() if len(seen) > 1}
    run = _run_together(drafts, rows, text)
    spread |= {rows[i] for i in run}  # type: ignore[misc]  # (placed rows only)
    if not spread:
        return drafts
    return [replace(d, link="unread-row") if (i in run or row in spread and d.link in CARRIED)
            else d for i, (d, row) in enumerate(zip(drafts, rows))]


def _run_together(drafts: list[Draft], rows: list[tuple | None], text: str) -> set[int]:
    """Positions of the prose-linked drafts one chip is given side by side with another
    figure of the same dimension, different, nothing but spaces between them
    ("1 TB/s 2 TB/s", "750W350W700W")."""
    out: set[int] = set()
    placed = sorted((d.quantity.start, i) for i, (d, row) in enumerate(zip(drafts, rows))
                    if row is not None and d.link in UNREAD_LINKS)
    for (_, i), (_, j) in zip(placed, placed[1:]):
        a, b = drafts[i], drafts[j]
        same_chip = rows[i][:3] == rows[j][:3]  # type: ignore[index]  # (sentence, chip, variant)
        if same_chip and a.quantity.dimension == b.quantity.dimension \
                and a.value != b.value and a.quantity.end <= b.quantity.start \
                and not text[a.quantity.end:b.quantity.start].strip():
            out |= {i, j}
    starts = {drafts[i].quantity.start for i in out}  # with every draft of those figures
    return {i for _, i in placed if drafts[i].quantity.start in starts}


# links a row of run-together cells may have been given (what the prose reader makes)
UNREAD_LINKS = CARRIED | {"clause", "possessive", "after"}


def _architecture_pattern(lex: Lexicon) -> re.Pattern:
    names = "|".join(sorted(map(re.escape, lex.built(relations)[1]), key=len, reverse=True))
    return compile_screened(rf"(?:NVIDIA\s*+|Nvidia\s*+|英伟达\s*+|英偉達\s*+|輝達\s*+)?"
                            rf"(?i:({names}))\s*+(?:架构|架構|(?i:architecture|GPU)\b)", re.IGNORECASE)


def _architecture_topic(found: Found, sent: Span, topic: Mention | None) -> Mention | None:
    """A sentence that opens on an architecture ("Ampere 架构：…") and names no chip is about
    that architecture: its chip when the document names that chip, else no chip (figures of an
    architecture alone are no claims, and never the earlier chip's)."""
    start = sent.start
    while start < sent.end and found.text[start] in LIST_LEAD:  # "1. ", "**", "- "
        start += 1
    m = found.lexicon.built(_architecture_pattern).match(found.text, start, sent.end)
    if m is None:
        return topic
    chip = found.lexicon.built(relations)[1][m.group(1).lower()]
    named = next((c for c in found.chips if c.entity == chip and not c.system), None)
    return Mention(m.start(1), m.end(1), chip) if named is not None else None


def _adjacent(text: str, d: Draft | None, start: int) -> Draft | None:
    """``d`` when its sentence ends in the paragraph of position ``start``."""
    if d is None or "\n" in text[d.sentence.end:start]:
        return None
    return d
