"""One sentence of prose as the linkers see it: its chips, keywords and qualifiers, its
clauses, which chips it names only as baselines, and which of its figures are no claims."""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .cues import cue_pattern, cue_value
from .drafts import Draft, Found
from .mentions import Keyword, Mention
from .nonclaims import not_a_claim
from .patterns import (ASIDE_PREDECESSOR, AFTER_RATIO, BETWEEN_AND, BETWEEN_END, BETWEEN_END_STARTS,
                       CHIP_JOIN, LABEL_COLON_STARTS, RATIO_OF_STARTS, SAME_AS_STARTS,
                       UPGRADE_OF_STARTS, match_at,
                       CLAUSE_PUNCTUATION, FROM, OPEN_TAIL, SURPASS,
                       LABEL_COLON, LIST_GAP, MODIFIED_COMPARE, OF_AFTER, OWNER_TAIL, LINE_TAIL,
                       PER_INSTANCE, PER_INSTANCE_BEFORE, PREDECESSOR_TAIL, RATIO_OF, REFUTED,
                       SAME_AS, STRONG_COMPARE, VENDOR_TAIL, WEAK_COMPARE, WITH,
                       WITH_MODIFIED, LEAD_MODIFIED_COMPARE, UPGRADE_OF, VARIANT_OF,
                       NAME_WORD_TAIL, GPU_LEAD)
from .quantities import Quantity
from .segment import Span, clause_breaks


OUTCOMES = ("measured", "overclocked", "benchmark")  # exclude cues that reach the clause before
CONDITIONS = ("same workload",)  # exclude cues that, alone in a clause, hold for the clauses after


def in_aside(text: str, start: int, pos: int) -> bool:
    """Is ``pos`` inside brackets opened on its line after ``start``?"""
    start = max(start, text.rfind("\n", 0, pos) + 1)
    part = text[start:pos]
    return part.count("(") + part.count("（") > part.count(")") + part.count("）")


class Sentence:
    """One sentence's chips, keywords and qualifiers; ``breaks`` (the clause ends) are
    found when first needed if None."""

    def __init__(self, text: str, span: Span, chips: list[Mention], keywords: list[Keyword],
                 quals: list, topic: Mention | None, breaks: list[int] | None,
                 group: Sequence[Mention] = (), lex: Lexicon | None = None) -> None:
        self.text, self.span, self.chips, self.keywords = text, span, chips, keywords
        self.lex = lexicon_or_default(lex)
        self.quals, self.topic, self.breaks, self.group = quals, topic, breaks, list(group)
        self.all_keywords = keywords
        self.prev_speedup: Draft | None = None
        self.figures: list[Quantity] = []  # the sentence's figures (not its ratios)
        self.found: Found | None = None  # the document's Found, for links beyond the sentence
        self._starts: list[int] | None = None
        self._baseline: dict[int, bool] = {}
        self._figure_starts: list[int] | None = None
        self._owners: dict[tuple[int, int], Quantity | None] = {}  # keyword -> the figure it labels
        self._exclusions: list[tuple[int, int, str]] | None = None
        self._refuted_at: int | None = None
        self._clauses: dict[int, Span] = {}
        self._cache: dict[str, list[tuple[int, int]]] = {}

    # -- structure ---------------------------------------------------------------
    def clause(self, pos: int) -> Span:
        """The clause around ``pos`` (remembered: a figure asks several times)."""
        span = self._clauses.get(pos)
        if span is None:
            if self.breaks is None:
                self.breaks = clause_breaks(self.text, self.span)
            i = bisect_left(self.breaks, pos)
            start = self.breaks[i - 1] + 1 if i else self.span.start
            end = self.breaks[i] if i < len(self.breaks) else self.span.end
            span = self._clauses[pos] = Span(start, end)
        return span


    def _positions(self, name: str, pattern: re.Pattern) -> list[tuple[int, int]]:
        """Where ``pattern`` matches in the sentence (computed once per sentence)."""
        found = self._cache.get(name)
        if found is None:
            start, end = self.span
            found = self._cache[name] = [(m.start() + start, m.end() + start)
                                         for m in pattern.finditer(self.text[start:end])]
        return found

    def _first(self, name: str, pattern: re.Pattern) -> int:
        found = self._positions(name, pattern)
        return found[0][1] if found else self.span.end + 1

    def _any_between(self, name: str, pattern: re.Pattern, start: int, end: int) -> bool:
        for a, b in self._positions(name, pattern):
            if start <= a and b <= end:
                return True
        return False

    def _excluded(self, q: Quantity) -> bool:
        """Measured, overclocked, forecast figures (anywhere in the clause; measured and
        overclocked ones also when the next clause says so of them); per-die ones and a
        power connector's rating ("110 per GCD", "接口供电(上限 600W)", right around the
        figure); a MIG slice's memory ("7个10GB的实例");
        a figure the sentence then calls wrong ("…1.08TB/s，那是算错了"); the figures of
        :mod:`nonclaims` (per SM, differences, pin speeds, other links, ...)."""
        if q.dimension == "bytes" and PER_INSTANCE.match(self.text, q.end):
            return True
        if not_a_claim(self.lex, self.text, q, self.clause(q.start).start, self.span,
                       self._chip_starts()):
            return True
        if PER_INSTANCE_BEFORE.search(self.text, max(self.span.start, q.start - 8), q.start):
            return True
        self.exclusion_cues()
        if self._refuted_at is not None and self._refuted_at >= q.end:
            return True
        if not self._exclusions:
            return False
        clause = self.clause(q.start)
        for start, end, why in self._exclusions:
            if not (clause.start <= start and end <= clause.end):
                if why in OUTCOMES and (self._outcome_after(q, clause, start)
                                        or self._outcome_list(q, clause, end)):
                    return True
                if why in CONDITIONS and self._condition_before(q, start):
                    return True
                continue
            if why in ("per-die", "io-bandwidth", "connector"):
                if q.end <= start <= q.end + 4 or q.start - 10 <= end <= q.start:
                    return True
            elif why != "cpu-baseline":
                return True
        return False


    def exclusion_cues(self) -> list[tuple[int, int, str]]:
        """(start, end, why) of the sentence's exclude cues, found once per sentence."""
        if self._exclusions is None:
            self._exclusions = [(m.start(), m.end(), cue_value(self.lex, "exclude", m.group()))
                                for m in cue_pattern(self.lex, "exclude").finditer(
                                    self.text, self.span.start, self.span.end)]
            refuted = REFUTED.search(self.text, self.span.start, self.span.end)
            self._refuted_at = refuted.start() if refuted else None
        return self._exclusions

    def _outcome_after(self, q: Quantity, clause: Span, cue: int) -> bool:
        """'为了达成 100 TFLOPs，试着解锁功率限制': a measuring or overclocking word in the next
        clause, which states no figure of its own of the same kind, is about this figure."""
        if clause.end >= self.span.end or q.dimension in ("ratio", "percent"):
            return False
        after = self.clause(clause.end + 1)
        return after.start <= cue < after.end and not any(
            f.dimension == q.dimension for f in self._figures_in(after.start, after.end))

    def _condition_before(self, q: Quantity, cue: int) -> bool:
        """'同等任务下，RTX 4090 的功耗比前代降低 20%': the clause right before the figure's,
        stating a condition and no figure ("at the same workload"), holds for it."""
        if cue >= q.start:
            return False
        cond = self.clause(cue)
        return (cond.end < self.span.end and self.clause(cond.end + 1).start <= q.start
                < self.clause(cond.end + 1).end and not self._figures_in(cond.start, cond.end))

    def _figures_in(self, start: int, end: int) -> list[Quantity]:
        """The sentence's figures that start in [start, end)."""
        if self._figure_starts is None or len(self._figure_starts) != len(self.figures):
            self._figure_starts = [f.start for f in self.figures]
        return self.figures[bisect_left(self._figure_starts, start):bisect_left(self._figure_starts, end)]

    def _outcome_list(self, q: Quantity, clause: Span, cue_end: int) -> bool:
        """'measured power of 90 W minimum, 170 W mean and 192 W maximum': a clause that
        only goes on with the list of measured figures of the clause before (and names no
        attribute of its own)."""
        if clause.start <= self.span.start or q.dimension in ("ratio", "percent"):
            return False
        before = self.clause(clause.start - 2)
        if not before.start <= cue_end <= before.end:
            return False
        listed = [f for f in self._figures_in(cue_end, before.end) if f.dimension == q.dimension]
        first = next(iter(self._figures_in(clause.start, clause.end)), None)
        named = any(clause.start <= k.start < clause.end for k in self.keywords)
        return bool(listed) and not named and first is not None and first.dimension == q.dimension \
            and LIST_GAP.fullmatch(self.text, clause.start, first.start) is not None

    # -- baselines ---------------------------------------------------------------
    def _punctuated_clauses_start(self, pos: int, count: int) -> int:
        """Where the ``count`` comma-delimited clauses ending at ``pos`` start."""
        marks = [m.end() for m in CLAUSE_PUNCTUATION.finditer(self.text, self.span.start, pos)]
        return marks[-count] if len(marks) >= count else self.span.start

    def is_baseline(self, c: Mention) -> bool:
        """Is this chip named as what something is compared against ("比V100", "是V100的",
        "与A100相比", "与H100保持一致")?"""
        if c.start not in self._baseline:
            self._baseline[c.start] = self._compute_baseline(c)
        return self._baseline[c.start]

    def _compute_baseline(self, c: Mention) -> bool:
        # the 16 characters before the chip once its vendor and product-line words are
        # dropped ("12× Nvidia Blackwell B200" -> "12× ")
        head = PREDECESSOR_TAIL.sub("", self.text[max(self.span.start, c.start - 40):c.start])
        head = VENDOR_TAIL.sub("", head)[-16:]
        tail = self.text[max(c.end, c.variant_end):c.end + 16]
        if match_at(LABEL_COLON, LABEL_COLON_STARTS, tail) and not (ASIDE_PREDECESSOR.search(self.text, max(self.span.start, c.start - 8), c.start) and in_aside(self.text, self.span.start, c.start)):
            # "对比英伟达A100：FP16 312 TFLOPS…": the chip heads what follows, unless the
            # subject beats it ("全面超越H100：FP8达2.25 PFLOPS" lists the subject's figures)
            return bool(SURPASS.search(head))
        before = VENDOR_TAIL.sub("", self.text[max(self.span.start, c.start - 32):c.start])
        if BETWEEN_AND.search(before):
            return True  # "sits between the RTX 3060 Ti and the RTX 3070"
        if cue_pattern(self.lex, "predecessor", "$").search(OPEN_TAIL.sub("", before)):
            return True  # "the previous generation NVIDIA V100", "前代旗舰 RTX 3090"
        if STRONG_COMPARE.search(OWNER_TAIL.sub("", LINE_TAIL.sub("", before))) \
                or self._compared_through_modifier(c):
            return True  # "over the company's older Tesla V100", "比配备 HBM3 的 H100"
        if (STRONG_COMPARE.search(head) or AFTER_RATIO.search(head) or FROM.search(head)
                or VARIANT_OF.search(head)
                or match_at(RATIO_OF, RATIO_OF_STARTS, tail)
                or match_at(UPGRADE_OF, UPGRADE_OF_STARTS, tail)
                or match_at(BETWEEN_END, BETWEEN_END_STARTS, tail)
                or (WEAK_COMPARE.search(head) and OF_AFTER.match(tail))
                or (WITH.search(head) and match_at(SAME_AS, SAME_AS_STARTS, tail))
                or (match_at(SAME_AS, SAME_AS_STARTS, GPU_LEAD.sub("", tail)) and WITH.search(NAME_WORD_TAIL.sub("", head)))):
            return True  # "与 Pascal P100 GPU 相比": a family word before, GPU after
        # "与H100和H200同系列": a chip joined to a baseline that follows it
        if not WITH.search(head):
            return False
        end = max(c.end, c.variant_end)
        i = bisect_left(self._chip_starts(), end)
        later = self.chips[i] if i < len(self.chips) else None
        return bool(later is not None and later.entity != c.entity
                    and CHIP_JOIN.match(self.text[end:later.start]) and self.is_baseline(later))

    def _chip_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [c.start for c in self.chips]
        return self._starts
    def _compared_through_modifier(self, c: Mention) -> bool:
        """'比配备 HBM3 的 H100', '与采用 GDDR6 的 T4 相比': a comparison word, then a short
        modifier of the chip (with no other chip in it)."""
        m = MODIFIED_COMPARE.search(self.text, max(self.span.start, c.start - 24), c.start)
        lead = max(self.span.start, c.start - 32)
        if m is None and ("比" in self.text[lead:c.start] or "较" in self.text[lead:c.start]):
            m = LEAD_MODIFIED_COMPARE.search(self.text, lead, c.start)
        if m is None and match_at(SAME_AS, SAME_AS_STARTS, self.text, max(c.end, c.variant_end)):
            m = WITH_MODIFIED.search(self.text, max(self.span.start, c.start - 24), c.start)
        return m is not None and not any(m.start() <= d.start < c.start for d in self.chips)

    def _topic_if_free(self) -> Mention | None:
        """The topic, when the sentence names no chip of its own (only baselines)."""
        own = [c for c in self.chips if not c.system and not self.is_baseline(c)]
        return self.topic if not own else None

