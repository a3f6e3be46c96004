"""A figure's chip(s), attribute, qualifiers and operator in one sentence of prose:
the :class:`FigureLinks` half of :class:`specextract.extract.prose.ProseSentence`.

* attribute: a keyword right after the figure ("2 TB/s的内存带宽", "5120个CUDA核心"), else
  the nearest keyword before it in its clause (a precision beats a generic 算力), else
  one earlier in the sentence, else the unit's default (TB/s -> memory_bandwidth);
* chip: the nearest chip before the figure in its sentence, else one right after it
  ("80GB显存的A100"), else the topic chip of the previous sentences; each way is a key of
  :data:`specextract.extract.drafts.LINKS`.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from ..codebook import EDITION_VARIANT, QUALIFIERS
from .cues import cue_pattern, cue_value
from .drafts import (DEFAULT_ATTRIBUTE, PRECISE_ATTRS, THROUGHPUT_ATTRS, Draft, fits,
                     in_canonical, plausible, relations)
from .mentions import Keyword, Mention
from .patterns import (ASIDE_AFTER, ASIDE_AFTER_STARTS, ASIDE_CHIP, ASIDE_OPEN, CONCESSIVE_OPEN, OF_PREDECESSOR, GLOSS_GAP, GLOSS_OPEN,
                       ASSIGN_GAP, BOTH, CHIP_JOIN, CLOSE_AFTER,
                       COUNT_GAP, DESCRIBES_CHIP, FOR_CHIP, ON_CHIP, FROM, FROM_PREDECESSOR, GENERIC_BANDWIDTH, GROUP_REF, KEYWORD_JOIN,
                       LABEL_GAP, LINE_SENTENCE_END, LINK_WORDS, ORIGINAL_EDITION, POSSESSIVE,
                       POSSESSIVE_LIST, POSSESSIVE_LIST_STARTS, POSSESSIVE_STARTS, PRONOUN_START, SEPARATOR, TIGHT_GAP, TO_AFTER, TO_AFTER_WORD,
                       VARIANT_OF, match_at)
from .quantities import Quantity
from .headings import grid_row, heading_chip
from .segment import list_under
from .sentence import Sentence
from .topics import architecture_before, same_figure_chips, series_figure


class FigureLinks(Sentence):
    """Links the figures (not the speed-ups) of a sentence."""

    # -- figures -----------------------------------------------------------------
    def _figure(self, q: Quantity) -> list[Draft]:
        kw = self._attribute_keyword(q)
        group = self._keyword_group(kw)
        if len(group) > 1:  # "94GB HBM3、带宽3.9TB/s": only the keywords that fit the figure
            group = [k for k in group if k is not None and fits(q, k)] or [kw]
        named = [(k, a) for k in group if (a := self._attribute(q, k)) is not None]
        if not named:
            return []  # (before the chips: a bare number with no label is no claim of any)
        chips, how = self._chips(q)
        if not chips:
            return []
        linked = [(c, how) for c in chips] + [(c, "same-as") for c in same_figure_chips(
            self.text, self.span, self.chips, chips, q, self.clause(q.start).end, self.figures)]
        out = []
        for k, attribute in named:
            if attribute == "memory_bandwidth" and (k is None or GENERIC_BANDWIDTH.fullmatch(
                    self.text[k.start:k.end])):
                clause = self.clause(q.start)
                if LINK_WORDS.search(self.text, clause.start, q.start) or any(
                        k.attribute == "pcie_gen" and clause.start <= k.start < q.start
                        for k in self.keywords):
                    continue  # a PCIe link's bandwidth is no spec of the chip
                if k is None or k.start >= q.end:
                    # "而H20保留了完整的900GB/s", "4条nvlink。整个芯片具备160GB/s的带宽": the
                    # paragraph was about NVLink (a bare 带宽 after the figure says no more)
                    attribute = self._paragraph_bandwidth(q) or attribute
            if attribute == "nvlink_bandwidth" and k is not None and any(
                    p.attribute == "pcie_gen" and k.end <= p.start < q.start for p in self.keywords):
                continue  # "互连带宽为 PCIe 4.0 x16，理论带宽 31.5GB/s": the link named is PCIe
            qualifier = self._qualifier(q, k, attribute)
            if attribute == "fp64" and "tensor" in qualifier.split(";"):
                attribute = "fp64_tensor"
            value, exp = in_canonical(q, attribute)
            if not plausible(self.lex, attribute, value):
                continue
            for chip, link in linked:
                out.append(Draft(chip.entity, attribute, q, value, exp, self.span,
                                 self._variant(chip, q), self._operator(q), qualifier, link=link))
        return out

    def _variant(self, chip: Mention, q: Quantity) -> str:
        """The chip's variant as named, except a special edition's when the figure's clause
        turns to the original ("中国特供版Gaudi 3…450瓦，而原版OAM卡…900瓦")."""
        if chip.variant != EDITION_VARIANT:
            return chip.variant
        clause = self.clause(q.start)
        return "" if ORIGINAL_EDITION.search(self.text, max(clause.start, chip.end), q.start) \
            else chip.variant

    def _paragraph_bandwidth(self, q: Quantity) -> str:
        """The bandwidth the paragraph spoke of last before ``q``: NVLink's, or the
        memory's (a memory word counts: "显存为 HBM3，带宽 3.35TB/s")."""
        line_start = self.text.rfind("\n", 0, q.start) + 1
        pool = (self.found.within("keywords", line_start, q.start) if self.found is not None
                else [k for k in self.all_keywords if line_start <= k.start < q.start])
        earlier = [k for k in pool if k.attribute in ("memory_bandwidth", "nvlink_bandwidth", "memory_size")
                   and not GENERIC_BANDWIDTH.fullmatch(self.text, k.start, k.end)]  # a bare 带宽 tells nothing
        if not earlier:
            return ""
        return "nvlink_bandwidth" if earlier[-1].attribute == "nvlink_bandwidth" else "memory_bandwidth"

    def _keyword_group(self, kw: Keyword | None) -> Sequence[Keyword | None]:
        """'FP16/BF16 Tensor算力' names two attributes: the figure is a claim for each."""
        if kw is None:
            return [None]
        if len(self.keywords) == 1:  # kw (one of self.keywords) is alone: nothing to join
            return [kw]
        group = [kw]
        for k in reversed([k for k in self.keywords if k.end <= group[0].start]):
            if not (k.dims & kw.dims) or not KEYWORD_JOIN.match(self.text[k.end:group[0].start]):
                break
            group.insert(0, k)
        for k in [k for k in self.keywords if k.start >= kw.end]:
            if not (k.dims & kw.dims) or not KEYWORD_JOIN.match(self.text[group[-1].end:k.start]):
                break
            group.append(k)
        return group

    def _chips(self, q: Quantity) -> tuple[list[Mention], str]:
        """The chip(s) a figure is about, and how they were found (a key of LINKS):
        'P100和V100都是4096-bit' names two, and '三张卡都是…' all those the text just named."""
        if not self.chips and self.group and self._first("group", GROUP_REF) < q.start:
            return self.group, "group"
        if self.chips and self.chips[-1].end < self._first("group", GROUP_REF) < q.start:
            named = list({c.entity: c for c in self.chips if not c.system and not c.kind}.values())
            if len(named) >= 2:
                return named, "joined"  # "B100 比 H100 多…，两款芯片都采用 4nm"
        chip, how = self._chip(q)
        if chip is None or chip.system or chip.kind:  # a CPU's or SoC's figures are no claims
            return [], ""
        group = [chip]
        earlier = [c for c in self.chips if c.end <= chip.start]
        if earlier and BOTH.search(self.text[max(chip.end, chip.variant_end):q.start]):
            for c in reversed(earlier):
                if not CHIP_JOIN.match(self.text[c.end:group[0].start]) or self.is_baseline(c):
                    break  # (not "相比 A100，H100 采用 4nm": the baseline is no member)
                group.insert(0, c)
        return group, ("joined" if len(group) > 1 else how)

    def _attribute_keyword(self, q: Quantity) -> Keyword | None:
        dim = "count" if q.dimension in ("bare", "count") else q.dimension
        fits = [k for k in self.keywords if dim in k.dims]
        after = [k for k in fits if k.start >= q.end and k.start - q.end <= 20]
        assigned = [k for k in fits if k.end <= q.start and q.start - k.end <= 6
                    and ASSIGN_GAP.fullmatch(self.text, k.end, q.start)]
        if (assigned and after and assigned[-1].attribute in PRECISE_ATTRS
                and q.dimension not in ("count", "bare")):
            return assigned[-1]  # "FP32 ≈ 91.6 TFLOPS FP16 …": the label set to it comes first
        for k in after:  # a keyword right after the figure owns it
            gap = self.text[q.end:k.start]
            if q.dimension in ("count", "bare") and len(gap) <= 12 and COUNT_GAP.match(gap):
                return k
            if q.dimension not in ("count", "bare") and TIGHT_GAP.match(gap):
                return k
        aside = match_at(ASIDE_AFTER, ASIDE_AFTER_STARTS, self.text, q.end)
        if aside and q.dimension not in ("count", "bare"):  # the label after a bracketed aside
            label = next((k for k in fits if aside.end() <= k.start <= aside.end() + 20), None)
            if label is not None and TIGHT_GAP.match(self.text[aside.end():label.start]):
                return label
        earlier = [k for k in fits if k.end <= q.start]
        before = [k for k in earlier if not self._owned_elsewhere(k, q)
                  and not (q.dimension not in ("count", "bare") and self._gloss(k, earlier, q))]
        if q.dimension == "bare":  # a bare number needs its label right before it
            if before and LABEL_GAP.match(self.text[before[-1].end:q.start]) \
                    and q.start - before[-1].end <= 8:
                return before[-1]
            return None
        if q.dimension == "count":
            # the label before it, with nothing but chips and like figures in between
            # ("SM数量：P100为56 个，V100为80 个，A100为108 个")
            if before and not [k for k in self.keywords if before[-1].end <= k.start < q.start]:
                return before[-1]
            return None
        clause = self.clause(q.start)
        in_clause = [k for k in before if k.start >= clause.start]
        # else an earlier keyword, unless the clause has its own generic label ("性能")
        pool = in_clause or ([] if cue_pattern(self.lex, "generic_metric").search(self.text, clause.start, q.start)
                             else before)
        if not pool:
            return None
        best = pool[-1]
        if best.attribute == "memory_bandwidth" and GENERIC_BANDWIDTH.fullmatch(
                self.text[best.start:best.end]):
            # "NVLink 2.0，总带宽300GB/s": a bare 带宽 after NVLink is the link's
            links = [k for k in earlier if k.attribute == "nvlink_bandwidth"
                     and k.start >= self.span.start]
            memory = [k for k in earlier if k.attribute == "memory_size" and k.start >= clause.start]
            if links and not memory:
                return links[-1]
        if best.attribute == "compute":  # a precision in the clause says more than 算力
            precise = [k for k in pool if k.attribute in PRECISE_ATTRS]
            if precise:
                best = precise[-1]
        return best

    def _owned_elsewhere(self, k: Keyword, q: Quantity) -> bool:
        """'148 TFLOPS FP16 / 296 TFLOPS': a label written right after an earlier figure is
        that figure's, not the next one's across a separator."""
        return self._owner(k) is not None and SEPARATOR.search(self.text, k.end, q.start) is not None

    def _owner(self, k: Keyword) -> Quantity | None:
        """The figure right before ``k`` whose label ``k`` is ("148 TFLOPS FP16"), or None;
        found once per keyword (a figure's label may depend on the labels before it)."""
        key = (k.start, k.end)
        if key not in self._owners:
            self._owners[key] = None  # while it is worked out
            before = self._figures_in(self.span.start, k.start)
            p = before[-1] if before else None  # TIGHT_GAP leaves room for no other figure
            if p is not None and p.end <= k.start and p.dimension not in ("count", "bare", "ordinal") \
                    and TIGHT_GAP.match(self.text[p.end:k.start]) and self._attribute_keyword(p) is k:
                self._owners[key] = p
        return self._owners[key]

    def _gloss(self, k: Keyword, earlier: list[Keyword], q: Quantity) -> bool:
        """'TF32 (single precision …) reaches 312 TFLOPS': a label in brackets right after
        another label only explains it; the figure is the first label's."""
        m = GLOSS_OPEN.search(self.text, max(self.span.start, k.start - 12), k.start)
        if m is None or not CLOSE_AFTER.search(self.text, k.end, q.start):
            return False
        return any(o.end <= m.start() and GLOSS_GAP.fullmatch(self.text, o.end, m.start())
                   for o in earlier if o is not k)

    def _attribute(self, q: Quantity, kw: Keyword | None) -> str | None:
        if q.dimension == "ordinal":
            if q.written == "PCIe":
                return "pcie_gen"
            after = [k for k in self.keywords if k.start >= q.end and k.start - q.end <= 3]
            if after and after[0].attribute == "tensor_cores":
                return "tensor_core_gen"
            before = [k for k in self.keywords if k.end <= q.start and q.start - k.end <= 14]
            if before and before[-1].attribute == "tensor_cores" and "\n" not in self.text[before[-1].end:q.start]:
                return "tensor_core_gen"  # "Tensor Core：640个（第一代）"
            return None
        if kw is not None:
            if kw.attribute == "memory_size" and q.dimension == "bandwidth":
                return "memory_bandwidth"  # "3 TB/s HBM3", "显存3.35TB/s"
            return kw.attribute
        if q.dimension == "bytes":
            return None if q.written == "MB" else "memory_size"  # an MB figure needs "L2"
        return DEFAULT_ATTRIBUTE.get(q.dimension)

    def _chip(self, q: Quantity) -> tuple[Mention | None, str]:
        """The chip a figure is about, and how it was found (a key of LINKS)."""
        named = self._named_after(q)
        if named is not None:
            return named, "after"
        before = [c for c in self.chips if c.end <= q.start]
        if before and series_figure(self.lex, self.text, max(before[-1].end, self.clause(q.start).start),
                                    q.start, q.end):
            return None, ""  # "…提升到 Blackwell 系列的 8TB/s": the series', not the chip's
        if before:
            gap = self.text[max(before[-1].end, before[-1].variant_end):q.start]
            if (match_at(POSSESSIVE, POSSESSIVE_STARTS, gap)
                    or match_at(POSSESSIVE_LIST, POSSESSIVE_LIST_STARTS, gap)) and not VARIANT_OF.search(
                    self.text, max(self.span.start, before[-1].start - 32), before[-1].start):
                # "the H100's 80 billion", "V100的900 GB/s", "H100的80GB、3.35TB/s" (not "a
                # variant of the B200 (700W)": the variant's figure)
                return before[-1], "possessive"
        if (FROM.search(self.text, max(self.span.start, q.start - 3), q.start)
                and TO_AFTER.match(self.text, q.end)) or self._from_predecessor(q):
            # (not "由2080亿个晶体管组成")
            # "与A100相比，A800的带宽从600GB/s降到400GB/s": the old figure is the other chip's
            others = [c for c in before if self.is_baseline(c)]
            return (others[-1], "from") if others else (None, "")
        subjects = [c for c in before if not self.is_baseline(c)]
        if len(subjects) > 1 and self._aside_closed(subjects[-1], q.start):
            # "H200: 141 GB, 3,958 TFLOPS (same compute as H100), 4.8 TB/s": an aside's chip
            subjects = [c for c in subjects if not self._aside_closed(c, q.start)] or subjects
        if subjects and self._any_between("pronoun", PRONOUN_START, subjects[-1].end, q.start):
            # "the L40S is 2.4x the A6000, and it adds FP8 …"; with one chip in the sentence
            # ("A100 性能强大，其…达到…") the pronoun can only be that chip
            alone = len({c.entity for c in self.chips if not c.system}) == 1
            main = [c for c in subjects if not self._conceded(c)] or subjects
            return main[0], ("sentence" if alone else "pronoun")
        if subjects:
            return subjects[-1], self._nearness(subjects[-1], q)
        if before and self.topic is not None and self.topic.entity not in {c.entity for c in before} \
                and (before[-1].start < self.clause(q.start).start
                     or self._aside_closed(before[-1], q.start)):
            # "…1 TB/s（与 RTX 3090 Ti 一致），功耗 450W": an earlier clause names only what
            # the topic is compared with
            return self.topic, "topic"
        if before and VARIANT_OF.search(self.text, max(self.span.start, before[-1].start - 32),
                                        before[-1].start):
            return None, ""  # "a refresh of the MI300X … 6 TB/s": a variant's, its name unsaid
        if before and not self._any_between("pronoun", PRONOUN_START, self.span.start, q.start):
            return before[-1], self._nearness(before[-1], q)
        clause = self.clause(q.start)
        after = [c for c in self.chips if c.start >= q.end and c.start < clause.end
                 and c.start - q.end <= 12 and not self.is_baseline(c)
                 and not ASIDE_OPEN.search(self.text, q.end, c.start)]
        if after:
            return after[0], "after"
        # no subject before the figure (``subjects`` is empty here)
        topic = self.topic
        if topic is None:
            return None, ""
        if not before and OF_PREDECESSOR.search(self.text, max(self.span.start, q.start - 14), q.start):
            # "比上代的三星8nm工艺": the figure is the topic's predecessor's
            chip = self._predecessor(q, topic)
            return (chip, "topic") if chip is not None else (None, "")
        link = self._topic_link(q, topic)
        if link == "topic-far" and grid_row(self.text, q.start):
            return None, ""  # a grid naming no chip (generations, tiers) is not about the topic
        if self._under_system(q, topic):
            return None, ""  # "GB300 rack aggregate" over a spec list: the system's figures
        arch = architecture_before(self.lex, self.text, self.span.start, q.start)
        if arch and arch != topic.entity:
            return None, ""  # "新架构 Blackwell，其拥有 2080 亿个晶体管": the architecture's, not the topic's
        return topic, link

    def _from_predecessor(self, q: Quantity) -> bool:
        """Does the figure start a change from an earlier generation ("从第一代的16nm工艺
        升级到7nm", "from the previous generation's 16nm to 7nm")?"""
        if not FROM_PREDECESSOR.search(self.text, max(self.span.start, q.start - 32), q.start):
            return False
        return bool(TO_AFTER.match(self.text, q.end) or TO_AFTER_WORD.match(self.text, q.end))

    def _conceded(self, c: Mention) -> bool:
        """'虽然 H100 仍是主力，但 B200 …，它…', 'While the H100 …, the B200 …': a chip in a
        clause that concedes is not what a later pronoun is about."""
        pos = self.clause(c.start).start
        while pos < c.start and self.text[pos].isspace():
            pos += 1
        return CONCESSIVE_OPEN.match(self.text, pos, c.start) is not None

    def _aside_closed(self, c: Mention, pos: int) -> bool:
        """Is chip ``c`` inside a bracketed aside that closes before ``pos`` ("256GB (33% more
        than MI300X) and 6 TB/s")?"""
        opened = max(self.text.rfind("(", self.span.start, c.start),
                     self.text.rfind("（", self.span.start, c.start))
        return (opened >= 0 and not CLOSE_AFTER.search(self.text, opened, c.start)
                and CLOSE_AFTER.search(self.text, c.end, pos) is not None)

    def _predecessor(self, q: Quantity, topic: Mention) -> Mention | None:
        """The topic's predecessor: the chip its paragraph last compared it with, else the
        codebook's (P100 -> V100 -> A100 -> H100 ...)."""
        line_start = self.text.rfind("\n", 0, q.start) + 1
        if self.found is not None:
            named: list[Mention] = self.found.within("chips", line_start, q.start)
            for c in reversed(named):
                if c.entity != topic.entity and not c.system and not c.kind:
                    return c
        pred = self.lex.built(relations)[0].get(topic.entity)
        return Mention(q.start, q.start, pred) if pred else None

    def _named_after(self, q: Quantity) -> Mention | None:
        """A chip the words right after the figure give it to: "640个CUDA核心(V100)",
        "14,080 units (220 CU) for the MI250X", "600W 的 RTX 5090"."""
        clause = self.clause(q.start)
        i = bisect_left(self._chip_starts(), q.end)
        for c in self.chips[i:i + 1]:  # the first chip after the figure
            if c.start >= clause.end or c.system or c.kind:
                return None
            gap = self.text[q.end:c.start]
            after = max(c.end, c.variant_end)
            if (ASIDE_CHIP.fullmatch(gap.strip()) and CLOSE_AFTER.match(self.text[after:after + 4].lstrip())) \
                    or FOR_CHIP.fullmatch(gap) or ON_CHIP.fullmatch(gap) or DESCRIBES_CHIP.fullmatch(gap):
                return c
            return None
        return None

    def _topic_link(self, q: Quantity, topic: Mention) -> str:
        """How close the carried topic is: its own paragraph, the head of the spec list the
        figure stands in, the title or a heading over a spec list with no other chip in
        between, or further away."""
        if "\n" not in self.text[topic.start:q.start]:
            return "topic"
        if list_under(self.text, topic.start, q.start):
            return "shared-head" if self._head_shared(topic) else "list-head"
        if self.found is not None and heading_chip(self.text, self.found.chips, self.found.starts("chips"),
                                                   topic.entity, q.start):
            return "shared-head" if self._head_shared(topic) else "heading"
        return "topic-far"

    def _under_system(self, q: Quantity, topic: Mention) -> bool:
        """Does the spec list the figure stands in hang under a head line (no sentence)
        naming a system, the last chip named since the topic ("Metric GB300 rack aggregate")?"""
        if self.found is None:
            return False
        named = self.found.within("chips", topic.end, q.start)
        if not named or not named[-1].system or not list_under(self.text, named[-1].start, q.start):
            return False
        line_start = self.text.rfind("\n", 0, named[-1].start) + 1
        line_end = self.text.find("\n", named[-1].start)  # (list_under: a line follows)
        return not LINE_SENTENCE_END.search(self.text, line_start, line_end)  # (a head, no prose)

    def _head_shared(self, topic: Mention) -> bool:
        """Does the topic's line name another chip too ("B200 vs L4 Full Specs")? A list
        under it may be about either."""
        if self.found is None:
            return False
        start = self.text.rfind("\n", 0, topic.start) + 1
        end = self.text.find("\n", topic.start)
        on_line = self.found.within("chips", start, len(self.text) if end < 0 else end)
        return any(c.entity != topic.entity and not c.system for c in on_line)

    def _nearness(self, chip: Mention, q: Quantity) -> str:
        """'clause' when ``chip`` is in the figure's clause, else 'sentence'."""
        return "clause" if chip.start >= self.clause(q.start).start else "sentence"


    def _operator(self, q: Quantity) -> str:
        clause = self.clause(q.start)
        head = self.text[max(clause.start, q.start - 16):q.start]
        m = cue_pattern(self.lex, "op_before", "$").search(head)
        if m:
            return cue_value(self.lex, "op_before", m.group()) or "="
        tail = self.text[q.end:min(clause.end, q.end + 8)]
        m = cue_pattern(self.lex, "op_after", "^").match(tail)
        if m:
            return cue_value(self.lex, "op_after", m.group()) or "="
        return "="

    def _qualifier(self, q: Quantity, kw: Keyword | None, attribute: str) -> str:
        found = set(filter(None, (kw.qualifier if kw else "").split(";")))
        if attribute in THROUGHPUT_ATTRS:
            clause = self.clause(q.start)
            start = kw.start if kw is not None and kw.start >= clause.start else clause.start
            for f in self.quals:
                if start <= f.start and f.start < min(clause.end, q.end + 12):
                    found.add(f.qualifier)
            if q.pair:
                found -= {"dense", "sparse"}
                found.add(q.pair)
            if "non-tensor" in found:
                found.discard("tensor")
            if "dense" in found and "sparse" in found:
                found -= {"dense", "sparse"}
        if attribute == "tf32":
            found.discard("tensor")
        if not found:
            return ""
        return ";".join(x for x in QUALIFIERS if x in found)
