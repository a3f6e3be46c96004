"""Speed-up claims in one sentence of prose ("是前代V100的5倍", "5x the V100", "提升50%"):
subject, baseline (a chip after a comparison word, the subject's predecessor for 前代, a
named architecture) and metric (an attribute keyword in the sentence; none for plain 性能).
The :class:`SpeedupLinks` layer of :class:`specextract.extract.prose.ProseSentence`."""
from __future__ import annotations

from dataclasses import replace

from .comparisons import speedup_value
from .cues import cue_pattern, cue_value
from .drafts import NOT_METRICS, PRECISE_ATTRS, Draft, plausible, relations
from .mentions import Mention
from .pairlinks import PairLinks
from .patterns import (ALL_OF, ARCH_AFTER, ARCH_SUFFIX, CARDS_AFTER, COMPARE_WORD,
                       FIGURE_KEYWORD_GAP, FRAMING_TAIL,
                       GAIN_BEFORE, GAIN_LEAD, GLOSS, IMPLICIT_GAIN, INCREASE_IN, KEYWORD_JOIN,
                       LINE_TAIL, METRIC_AFTER, OF_AFTER, OF_CHIP_GAP, OF_RATIO_GAP, OWN_WORD, OWNER_TAIL,
                       POSSESSIVE_GAP,
                       PREDECESSOR_TAIL, PRONOUN_BASELINE, STRONG_COMPARE, VENDOR_TAIL,
                       WEAK_COMPARE)
from .quantities import Quantity
from .segment import Span

MEASURED = frozenset({"benchmark", "measured", "overclocked"})  # exclude cues a gain can't follow
DENSITY_REACH = 16  # characters between a gain and a sparse / dense word about it
SENTENCE_ENDS = frozenset("。！？!?;；\n")
PREVIOUS_REACH = 200  # characters of the sentence before read for a predecessor word
INCREASE_REACH = 48  # characters from "20x increase in" to the attribute it names


class SpeedupLinks(PairLinks):
    """Links the ratios and percentages of a sentence as speed-ups, after its figures (whose
    links it reads: a gain may borrow a figure's subject, metric and operator words). One
    line of classes (Sentence, FigureLinks, PairLinks, SpeedupLinks, ProseSentence) keeps
    the linker compilable."""

    # -- speed-ups ---------------------------------------------------------------
    def _speedups(self, q: Quantity, figures: list[Draft]) -> list[Draft]:
        """The speed-up claims of ratio ``q``: one, or one per metric where a gain is said of
        joined attributes together ("FP16 与 FP8 … 都比 H200 高出 1.3 倍")."""
        d = self._speedup(q, figures)
        if d is None:
            return []
        return [replace(d, metric=m) for m in self._joint_metrics(q, d.metric)]

    def _joint_metrics(self, q: Quantity, metric: str) -> list[str]:
        """``metric`` and the attributes joined to its keyword ("FP16 与 FP8", "FP16/BF16")
        when the gain's clause says it holds for all of them (都, 均, both)."""
        clause = self.clause(q.start)
        if not metric or not ALL_OF.search(self.text, clause.start, q.start):
            return [metric]
        kws = [k for k in self.keywords if k.end <= q.start and k.attribute not in NOT_METRICS]
        at = next((i for i in range(len(kws) - 1, -1, -1) if kws[i].attribute == metric), None)
        if at is None:
            return [metric]
        lo = hi = at
        while lo > 0 and KEYWORD_JOIN.match(self.text[kws[lo - 1].end:kws[lo].start]):
            lo -= 1
        while hi + 1 < len(kws) and KEYWORD_JOIN.match(self.text[kws[hi].end:kws[hi + 1].start]):
            hi += 1
        return list(dict.fromkeys(k.attribute for k in kws[lo:hi + 1]))

    def _speedup(self, q: Quantity, figures: list[Draft]) -> Draft | None:
        clause = self.clause(q.start)
        read = speedup_value(self.lex, self.text, q, self.span.start, self.span.end)
        if read is None:
            return None
        value, exp = read
        if q.written == "x" and CARDS_AFTER.match(self.text[q.end:q.end + 2]) \
                and any(c.start - q.end <= 2 for c in self.chips if c.start >= q.end):
            return None  # "8x A100": a count of cards
        if cue_pattern(self.lex, "not_gain").search(self.text, clause.start, clause.end) \
                or self._measured_before(q):
            return None  # "价格近乎翻倍", "帧率提升 4 倍", "跑分显示…快 28%": no spec ratio
        sentence_text = self.text[self.span.start:self.span.end]
        if cue_pattern(self.lex, "exclude").search(sentence_text) and "CPU" in sentence_text.upper():
            return None
        subject, baseline = self._comparison(q, clause)
        if not baseline:  # "容量约为H100的1.8倍，带宽提升43%", "2.4x the capacity … and 1.6x its bandwidth"
            earlier = [d for d in figures if d.attribute == "speedup"]
            if earlier:
                subject = next((c for c in self.chips if c.entity == earlier[-1].entity), subject)
                baseline = earlier[-1].baseline
            elif self._carries_gain(q, subject):
                # "…a 20x gain over the V100. It also reports a 2.5x gain in FP64": the
                # baseline of the sentence before, for the same subject
                baseline = self.prev_speedup.baseline  # type: ignore[union-attr]  # (there is one)
        if subject is None and baseline:
            subject = self._subject_after(q, baseline, figures)
        if subject is not None and subject.start < self.span.start and any(
                why == "system" and start < q.start for start, _, why in self.exclusion_cues()):
            return None  # "与 H100 相比，SuperPOD 的训练性能提升 4 倍，推理性能提高 30 倍": the
            # system's gains (the sentence names a system and not the chip carried to it)
        if subject is None or not baseline or subject.entity == baseline or subject.system \
                or subject.kind or any(c.kind for c in self.chips if c.entity == baseline):
            return None
        if self._by_sparsity(q, baseline):
            return None  # "稀疏特性使性能提高一倍": the chip against itself without sparsity
        if value == 1 or not plausible(self.lex, "speedup", value):
            return None  # "1倍" is no change
        metric = self._metric(q, subject, figures)
        return Draft(subject.entity, "speedup", q, value, exp, self.span, subject.variant,
                     self._operator(q), self._density(q), baseline, metric, link="comparison")

    def _gain_excluded(self, q: Quantity) -> bool:
        """Is ratio ``q`` no claim? As for a figure, except that a 'total' word leading a
        gain ("总共增加了 12 倍": the overall gain) says nothing of a system total."""
        if not self._excluded(q):
            return False
        clause = self.clause(q.start)
        saved = self._exclusions or []
        kept = [x for x in saved if not (x[2] == "total" and clause.start <= x[0] < q.start
                                         and GAIN_LEAD.match(self.text, x[1], q.start))]
        if len(kept) == len(saved):
            return True
        self._exclusions = kept
        try:
            return self._excluded(q)
        finally:
            self._exclusions = saved

    def _measured_before(self, q: Quantity) -> bool:
        """Does the sentence, before the gain, say it comes from a benchmark or a
        measurement ("H20 现身 Geekbench，显示其性能相比 H100 降低 28%")?"""
        return any(cue_value(self.lex, "exclude", m.group()) in MEASURED
                   for m in cue_pattern(self.lex, "exclude").finditer(
                       self.text, self.span.start, q.start))

    def _density(self, q: Quantity) -> str:
        """'sparse' / 'dense' when the gain's clause says so right by it ("5x with
        sparsity", "稀疏算力是…的 4 倍"), else ''."""
        clause = self.clause(q.start)
        found = {f.qualifier for f in self.quals if f.qualifier in ("dense", "sparse")
                 and clause.start <= f.start < clause.end and abs(f.start - q.start) <= DENSITY_REACH}
        return found.pop() if len(found) == 1 else ""

    def _subject_after(self, q: Quantity, baseline: str, figures: list[Draft]) -> Mention | None:
        """The one chip the sentence names after a gain with no subject before it, when the
        gain names its attribute ("a 2x increase in transistor count over the V100, which
        lets the A100 …"); None otherwise."""
        later = {c.entity: c for c in self.chips if c.start >= q.end and c.entity != baseline
                 and not c.system and not self.is_baseline(c)}
        if len(later) != 1:
            return None
        subject = next(iter(later.values()))
        return subject if self._metric(q, subject, figures) else None

    def _by_sparsity(self, q: Quantity, baseline: str) -> bool:
        """A gain its clause puts down to sparsity, with no baseline chip named."""
        clause = self.clause(q.start)
        return not any(c.entity == baseline for c in self.chips) and any(
            f.qualifier == "sparse" and clause.start <= f.start < clause.end for f in self.quals)

    def _carries_gain(self, q: Quantity, subject: Mention | None) -> bool:
        """May the speed-up take the baseline of the sentence before? Only a gain ("2.5x
        increase", "提升 2 倍") about the same subject in a sentence that names no other chip
        and no other comparison, and says it goes on ("also", "还")."""
        prev = self.prev_speedup
        if prev is None or subject is None or subject.entity != prev.entity or \
                any(not c.system for c in self.chips if c.entity != subject.entity):
            return False
        near = self.text[max(self.span.start, q.start - 8):min(self.span.end, q.end + 12)]
        head = self.text[self.span.start:q.start]
        return bool((cue_pattern(self.lex, "increase").search(near) or IMPLICIT_GAIN.search(near))
                    and cue_pattern(self.lex, "carry").search(head)
                    and not COMPARE_WORD.search(head))

    def _comparison(self, q: Quantity, clause: Span) -> tuple[Mention | None, str]:
        pred, arch = self.lex.built(relations)
        compare_end = cue_pattern(self.lex, "compare", "$")
        before = [c for c in self.chips if c.end <= q.start]
        in_clause = [c for c in before if c.start >= clause.start]
        # a chip after a comparison word, before the figure: "是前代V100的5倍", "比V100快"
        for c in reversed(in_clause):
            i = before.index(c)
            head = self.text[max(self.span.start, c.start - 10):c.start]
            head = PREDECESSOR_TAIL.sub("", head)
            strong = STRONG_COMPARE.search(head)
            weak = WEAK_COMPARE.search(head) and OF_AFTER.match(self.text[c.end:q.start])
            of_ratio = OF_RATIO_GAP.fullmatch(self.text, max(c.end, c.variant_end), q.start)
            if strong or weak or of_ratio or self._compared_through_modifier(c):
                subject = next((s for s in reversed(before[:i])
                                if s.entity != c.entity and not self.is_baseline(s)), None)
                return subject or self._topic_if_free(), c.entity
        # a chip after the figure: "5x the V100", "68% faster than the A100"
        after = [c for c in self.chips if c.start >= q.end and c.start < clause.end]
        if after:
            gap = self.text[q.end:after[0].start]
            gap = VENDOR_TAIL.sub("", OWNER_TAIL.sub("", LINE_TAIL.sub("", gap)))
            if compare_end.search(gap) and (len(gap) <= 30 or INCREASE_IN.match(gap)):
                subjects = [c for c in before if not self.is_baseline(c)]
                subject = subjects[-1] if subjects else self._topic_if_free()
                return subject, after[0].entity
        subjects = [c for c in before if not self.is_baseline(c)]
        subject = subjects[-1] if subjects else self._topic_if_free()
        if subject is None:
            return None, ""
        near = self._punctuated_clauses_start(q.start, 2)
        compared = [c for c in before if c.entity != subject.entity and self.is_baseline(c)
                    and c.start >= near]
        if compared:  # "与现阶段的 H100 相比，容量提升 2.4 倍": this or the clause before
            return subject, compared[-1].entity
        framing = [c for c in before if c.entity != subject.entity and self.is_baseline(c)
                   and FRAMING_TAIL.match(self.text, max(c.end, c.variant_end), q.start)]
        if framing:  # "与 V100 相比，每个 SM …，总共增加了 12 倍": the frame of the sentence
            return subject, framing[-1].entity
        if PRONOUN_BASELINE.search(self.text, max(self.span.start, q.start - 10), q.start):
            # "3090的记忆体是它的1.5倍": the pronoun is the sentence's first subject
            first = next((c for c in self.chips if c.entity != subject.entity and not c.system), None)
            if first is not None and first.start < subject.start:
                return subject, first.entity
        window = self.text[self.span.start:min(self.span.end, q.end + 30)]
        if cue_pattern(self.lex, "predecessor").search(window):
            return subject, pred.get(subject.entity, "")
        m = ARCH_AFTER.match(self.text, q.end, min(self.span.end, q.end + 24))
        if m and m.group(1).lower() in arch:  # "2.5 times the Volta", "5x Ampere's"
            return subject, arch[m.group(1).lower()]
        for m in ARCH_SUFFIX.finditer(window):  # "Volta架构", "Hopper GPU": the word before
            word = window[max(0, m.start() - 12):m.start()].lower()
            for name, chip in arch.items():
                if word.endswith(name):
                    return subject, chip
        if self._plain_gain(q, subject, clause):
            # "其Tensor Cores…提供高达120倍的性能提升", "每个 B200 封装两颗芯片，总性能提高
            # 2.5倍": a gain with no baseline named, in a sentence that names no other chip,
            # is over the baseline of the sentence before (same subject), else the predecessor
            prev = self.prev_speedup
            if prev is not None and prev.entity == subject.entity:
                return subject, prev.baseline
            if not self.chips or self._predecessor_before():
                return subject, pred.get(subject.entity, "")
        return subject, ""

    def _predecessor_before(self) -> bool:
        """Does the sentence before, in the same paragraph, compare with the predecessor
        ("B200 相较先前产品有很大提升；……总性能提高 2.5 倍")?"""
        end = self.span.start
        while end > 0 and self.text[end - 1] in " \t":
            end -= 1
        if end == 0 or self.text[end - 1] == "\n":
            return False  # the sentence opens its paragraph
        start, floor = end - 1, max(0, end - PREVIOUS_REACH)
        while start > floor and self.text[start - 1] not in SENTENCE_ENDS:
            start -= 1
        return bool(cue_pattern(self.lex, "predecessor").search(self.text, start, end))

    def _plain_gain(self, q: Quantity, subject: Mention, clause: Span) -> bool:
        """A gain ("提升 2.5 倍", "2.5倍的性能提升") in a sentence naming no chip but the
        subject, and compared with nothing in its clause ("比 vector 翻倍" is)."""
        if any(c.entity != subject.entity for c in self.chips) \
                or COMPARE_WORD.search(self.text, clause.start, q.start):
            return False
        return bool(IMPLICIT_GAIN.match(self.text, q.start, min(self.span.end, q.end + 20))
                    or (q.written == "x" and GAIN_BEFORE.search(
                        self.text, max(self.span.start, q.start - 8), q.start)))

    def _increase_in(self, q: Quantity, clause: Span) -> str:
        """The attribute a gain "in" something names a few words on, in its clause."""
        if not INCREASE_IN.match(self.text[q.end:q.end + 16]):
            return ""
        end = min(clause.end, q.end + INCREASE_REACH)
        return next((k.attribute for k in self.keywords if q.end <= k.start and k.end <= end
                     and k.attribute not in NOT_METRICS), "")

    def _generic_metric(self, start: int, end: int) -> bool:
        """A plain performance word ("性能", "performance") in [start, end), other than one
        a precision names ("FP64 和 FP32 性能": that is the precisions' performance)?"""
        for m in cue_pattern(self.lex, "generic_metric").finditer(self.text, start, end):
            if not any(k.end <= m.start() and OWN_WORD.fullmatch(self.text, k.end, m.start())
                       and k.attribute in PRECISE_ATTRS for k in self.keywords):
                return True
        return False

    def _metric(self, q: Quantity, subject: Mention, figures: list[Draft]) -> str:
        """The attribute compared: a keyword in the figure's clause, else the figure the
        subject was given earlier in the sentence ("算力15TFLOPS，是前代V100的5倍")."""
        clause = self.clause(q.start)
        after = [k for k in self.keywords if k.start >= q.end and k.start - q.end <= 24
                 and k.attribute not in NOT_METRICS and METRIC_AFTER.match(self.text[q.end:k.start])]
        owner = next((c for c in self.chips if q.end < c.start <= q.end + 10), None)
        if not after and owner is not None and OF_CHIP_GAP.match(self.text[q.end:owner.start]):
            after = [k for k in self.keywords if 0 <= k.start - owner.end <= 16
                     and k.attribute not in NOT_METRICS
                     and POSSESSIVE_GAP.match(self.text[max(owner.end, owner.variant_end):k.start])]
        if after:  # "2.4 times the capacity of", "1.6x its bandwidth"
            return after[0].attribute
        named = self._increase_in(q, clause)
        if named:  # "a 20x increase in eight-bit integer (INT8) math"
            return named
        if self._generic_metric(clause.start, min(clause.end, q.end + 6)):
            return ""
        start = min(clause.start, self._punctuated_clauses_start(q.start, 1))  # "FP32反而高出4倍"
        before = [k for k in self.keywords if start <= k.start and k.end <= q.start
                  and k.attribute not in NOT_METRICS]
        before = [k for i, k in enumerate(before) if not (i and GLOSS.fullmatch(
            self.text, before[i - 1].end, k.start))]  # "TF32 (single precision …)": a gloss
        if before:
            precise = [k for k in before if k.attribute in PRECISE_ATTRS]
            if before[-1].attribute == "compute" and precise:  # "FP16 算力是 H100 算力的 15%"
                return precise[-1].attribute
            return before[-1].attribute
        same = [d for d in figures if d.entity == subject.entity and d.attribute not in NOT_METRICS
                and d.quantity.start < clause.start]
        if same:
            return same[-1].attribute
        return self._counted_before(q, subject, start)

    def _counted_before(self, q: Quantity, subject: Mention, start: int) -> str:
        """The keyword a count or figure names in the clause before the gain's, after the
        subject ("拥有 21,760 个计算单元，比 … 增加 33%"), when that figure made no claim
        of its own (a figure the keyword cannot hold): the gain is of that quantity."""
        after = max(subject.end, subject.variant_end)
        lo = max(after, self._punctuated_clauses_start(q.start, 2))
        named = [k for k in self.keywords if lo <= k.start and k.end <= start
                 and k.attribute not in NOT_METRICS
                 and any(FIGURE_KEYWORD_GAP.fullmatch(self.text, n.end, k.start)
                         for n in self._figures_in(after, k.start))]
        return named[-1].attribute if named else ""


