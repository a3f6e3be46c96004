"""Figures paired with chips one to one: "V100和A100的FP32分别为15.7和19.5 TFLOPS", and a
plural reference to the chips of the sentence before ("它们配备了48GB与24GB显存",
"They carry 24GB and 16GB"): the i-th figure to the i-th chip."""
from __future__ import annotations

from dataclasses import replace

from .drafts import Draft, fits, in_canonical, plausible
from .figurelinks import FigureLinks
from .mentions import Mention
from .patterns import (FIGURE_LIST_JOIN, LABEL_HEAD_GAP, LABEL_LIST_JOIN, RESPECTIVELY, TRAILING_GAP,
                       VERSUS_JOIN)
from .quantities import Quantity
from .topics import group_figures


class PairLinks(FigureLinks):
    """Figure links, with the one-to-one pairings read first."""

    def _respectively(self, figures: list[Quantity]) -> list[Draft]:
        """'V100和A100的FP32分别为15.7和19.5 TFLOPS': the i-th figure to the i-th chip;
        "The V100 and the A100 deliver 15.7 and 19.5 TFLOPS respectively": the same with the
        figures before the word; '它们配备了48GB与24GB显存' after a sentence naming two
        chips: the same with those."""
        m = RESPECTIVELY.search(self.text, self.span.start, self.span.end)
        if not m:
            return self._versus(figures) or self._group_respectively(figures)
        at = m.start()
        after = [q for q in figures if q.start >= m.end() and not q.is_range]
        if not after and not m.group().startswith("分"):
            after = self._run_before(figures, at)  # (a trailing "respectively")
            at = after[0].start if after else at
        chips = [c for c in self.chips if c.end <= at]
        if after and at < m.start() and len({c.entity for c in chips}) < 2:
            # "900 GB/s and 1.6 TB/s for the V100 and A100 respectively": chips after them
            chips = [c for c in self.chips if after[-1].end <= c.start and c.end <= m.start()]
        entities = list(dict.fromkeys(c.entity for c in chips))
        if len(entities) < 2 or len(after) < len(entities):
            return self._keywords_respectively(at, after) or self._group_respectively(figures)
        named = [next(c for c in chips if c.entity == e) for e in entities]
        return self._pair_drafts(named, after[:len(entities)], m.start(), "respectively")

    def _versus(self, figures: list[Quantity]) -> list[Draft]:
        """'… draws 40% more power than the MI350X (1.4 kW vs 1.0 kW)', 'H200 vs H100
        memory: 141GB vs 80GB': two figures of one kind joined by vs / 对, after exactly two
        chips: the first figure to the chip named first, the second to the other."""
        out: list[Draft] = []
        for a, b in zip(figures, figures[1:]):
            if a.is_range or b.is_range or not VERSUS_JOIN.fullmatch(self.text, a.end, b.start):
                continue
            chips = [c for c in self.chips if c.end <= a.start and not c.system and not c.kind]
            entities = list(dict.fromkeys(c.entity for c in chips))
            if len(entities) == 2:
                named = [next(c for c in chips if c.entity == e) for e in entities]
                out.extend(self._pair_drafts(named, [a, b], a.start, "versus"))
        return out

    def _run_before(self, figures: list[Quantity], end: int) -> list[Quantity]:
        """The joined figures ("9.7, 19.5 and 78 TFLOPS") that end right before ``end`` (a
        few words between, no punctuation), two or more; else none."""
        before = [q for q in figures if q.end <= end and not q.is_range]
        if not before or not TRAILING_GAP.fullmatch(self.text, before[-1].end, end):
            return []
        run = [before[-1]]
        for q in before[-2::-1]:
            if not FIGURE_LIST_JOIN.fullmatch(self.text, q.end, run[0].start):
                break
            run.insert(0, q)
        return run if len(run) > 1 else []

    def _keywords_respectively(self, at: int, after: list[Quantity]) -> list[Draft]:
        """'FP16 与 FP8 的表现分别是 1.3PF 和 2.6PF', 'FP64、FP32和FP16算力分别为…': joined
        attribute keywords before 分别 (a generic 算力 right after the last one is their
        head word), the i-th figure after it to the i-th keyword (each figure's chip found
        as usual; a bare figure takes the unit of the last one)."""
        before = [k for k in self.keywords if k.end <= at]
        if len(before) > 1 and before[-1].attribute == "compute" \
                and LABEL_HEAD_GAP.fullmatch(self.text, before[-2].end, before[-1].start):
            before = before[:-1]  # "FP16算力", "FP32、FP16精度下的算力": the precision is the label
        labels = before[-1:]
        for k in reversed(before[:-1]):
            if k.attribute == "compute" or not LABEL_LIST_JOIN.match(self.text[k.end:labels[0].start]):
                break
            labels.insert(0, k)
        if len(labels) < 2 or len(after) < len(labels) or len({k.attribute for k in labels}) < len(labels):
            return []
        paired = after[:len(labels)]
        out: list[Draft] = []
        for k, q in zip(labels, with_written_unit(paired) or paired):  # "9.7, 19.5 and 78 TFLOPS"
            chips, how = self._chips(q)
            attribute = self._attribute(q, k) if chips and fits(q, k) else None
            if attribute is None:
                return []  # a label that does not fit its figure: no such pairing
            value, exp = in_canonical(q, attribute)
            if plausible(self.lex, attribute, value):
                out.extend(Draft(c.entity, attribute, q, value, exp, self.span, c.variant,
                                 self._operator(q), self._qualifier(q, k, attribute), link=how)
                           for c in chips)
        return out

    def _group_respectively(self, figures: list[Quantity]) -> list[Draft]:
        """A sentence that opens on a plural reference to the chips of the sentence before
        ("它们", "两者", "they") and gives one figure per chip, joined; a chip named after
        the figures ("…，性能不及H20") does not matter."""
        out = []
        for run in group_figures(self.text, self.span, figures, self.group):
            if any(c.start < run[-1].end for c in self.chips):
                break
            out.extend(self._pair_drafts(self.group, run, run[0].start, "group-pairs"))
        return out

    def _pair_drafts(self, chips: list[Mention], figures: list[Quantity], anchor: int,
                     how: str) -> list[Draft]:
        """The i-th figure to the i-th chip; the attribute keyword is read as for a figure
        standing at ``anchor`` (the word 分别, or the first figure)."""
        shared = with_written_unit(figures)  # "15.7和19.5 TFLOPS": the unit is written once
        if shared is None:
            return []
        out = []
        for chip, q in zip(chips, shared):
            kw = self._attribute_keyword(replace(q, start=anchor, end=anchor))
            if how == "group-pairs" and kw is None:
                kw = self._attribute_keyword(figures[-1])
            attribute = self._attribute(q, kw)
            if attribute is None:
                continue
            value, exp = in_canonical(q, attribute)
            if plausible(self.lex, attribute, value):
                out.append(Draft(chip.entity, attribute, q, value, exp, self.span, chip.variant,
                                 self._operator(q), self._qualifier(q, kw, attribute),
                                 link=how))
        return out


def with_written_unit(figures: list[Quantity]) -> list[Quantity] | None:
    """``figures``, each bare one with the unit of the last figure that writes one ("15.7和
    19.5 TFLOPS"); None when none writes one."""
    unit_q = next((q for q in reversed(figures) if q.dimension != "bare"), None)
    if unit_q is None:
        return None
    return [replace(q, dimension=unit_q.dimension, written=unit_q.written)
            if q.dimension == "bare" else q for q in figures]
