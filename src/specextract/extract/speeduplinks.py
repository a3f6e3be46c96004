"""Speed-up claims in one sentence of prose ("是前代V100的5倍", "5x the V100", "提升50%"):
subject, baseline (a chip after a comparison word, the subject's predecessor for 前代, a
named architecture) and metric (an attribute keyword in the sentence; none for plain 性能).
The :class:`SpeedupLinks` half of :class:`specextract.extract.prose.ProseSentence`."""
from __future__ import annotations

from .comparisons import speedup_value
from .cues import cue_pattern
from .drafts import NOT_METRICS, PRECISE_ATTRS, Draft, plausible, relations
from .mentions import Mention
from .patterns import (ARCH_SUFFIX, CARDS_AFTER, COMPARE_WORD, GAIN_BEFORE, IMPLICIT_GAIN,
                       INCREASE_IN, LINE_TAIL, METRIC_AFTER, OF_AFTER, OF_RATIO_GAP, OWNER_TAIL,
                       PREDECESSOR_TAIL, PRONOUN_BASELINE, STRONG_COMPARE, VENDOR_TAIL,
                       WEAK_COMPARE)
from .quantities import Quantity
from .segment import Span
from .sentence import Sentence


class SpeedupLinks(Sentence):
    """Links the ratios and percentages of a sentence as speed-ups."""

    # -- speed-ups ---------------------------------------------------------------
    def _speedup(self, q: Quantity, figures: list[Draft]) -> Draft | None:
        clause = self.clause(q.start)
        read = speedup_value(self.lex, self.text, q, self.span.start, self.span.end)
        if read is None:
            return None
        value, exp = read
        if q.written == "x" and CARDS_AFTER.match(self.text[q.end:q.end + 2]) \
                and any(c.start - q.end <= 2 for c in self.chips if c.start >= q.end):
            return None  # "8x A100": a count of cards
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
                baseline = self.prev_speedup.baseline
        if subject is None or not baseline or subject.entity == baseline or subject.system \
                or subject.kind or any(c.kind for c in self.chips if c.entity == baseline):
            return None
        if self._by_sparsity(q, baseline):
            return None  # "稀疏特性使性能提高一倍": the chip against itself without sparsity
        if value == 1 or not plausible(self.lex, "speedup", value):
            return None  # "1倍" is no change
        metric = self._metric(q, subject, figures)
        return Draft(subject.entity, "speedup", q, value, exp, self.span, subject.variant,
                     self._operator(q), "", baseline, metric, link="comparison")

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
        if PRONOUN_BASELINE.search(self.text, max(self.span.start, q.start - 10), q.start):
            # "3090的记忆体是它的1.5倍": the pronoun is the sentence's first subject
            first = next((c for c in self.chips if c.entity != subject.entity and not c.system), None)
            if first is not None and first.start < subject.start:
                return subject, first.entity
        window = self.text[self.span.start:min(self.span.end, q.end + 30)]
        if cue_pattern(self.lex, "predecessor").search(window):
            return subject, pred.get(subject.entity, "")
        for m in ARCH_SUFFIX.finditer(window):  # "Volta架构", "Hopper GPU": the word before
            word = window[max(0, m.start() - 12):m.start()].lower()
            for name, chip in arch.items():
                if word.endswith(name):
                    return subject, chip
        if not self.chips and (IMPLICIT_GAIN.match(self.text, q.start, min(self.span.end, q.end + 6))
                               or (q.written == "x" and GAIN_BEFORE.search(
                                   self.text, max(self.span.start, q.start - 8), q.start))):
            # "其Tensor Cores…提供高达120倍的性能提升": a gain with no baseline named, about
            # the topic chip, is over its predecessor
            return subject, pred.get(subject.entity, "")
        return subject, ""

    def _metric(self, q: Quantity, subject: Mention, figures: list[Draft]) -> str:
        """The attribute compared: a keyword in the figure's clause, else the figure the
        subject was given earlier in the sentence ("算力15TFLOPS，是前代V100的5倍")."""
        clause = self.clause(q.start)
        after = [k for k in self.keywords if k.start >= q.end and k.start - q.end <= 24
                 and k.attribute not in NOT_METRICS and METRIC_AFTER.match(self.text[q.end:k.start])]
        if after:  # "2.4 times the capacity of", "1.6x its bandwidth"
            return after[0].attribute
        if cue_pattern(self.lex, "generic_metric").search(self.text, clause.start, q.end + 6):
            return ""
        before = [k for k in self.keywords if clause.start <= k.start and k.end <= q.start
                  and k.attribute not in NOT_METRICS]
        if before:
            precise = [k for k in before if k.attribute in PRECISE_ATTRS]
            if before[-1].attribute == "compute" and precise:  # "FP16 算力是 H100 算力的 15%"
                return precise[-1].attribute
            return before[-1].attribute
        same = [d for d in figures if d.entity == subject.entity and d.attribute != "speedup"
                and d.quantity.start < clause.start]
        return same[-1].attribute if same else ""


