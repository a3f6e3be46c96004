"""Link each figure in prose to its chip and attribute, sentence by sentence.

Input: what :func:`specextract.extract.claims.find_all` found in normalized text (chips,
attribute keywords, qualifiers, quantities). Output: :class:`Draft` claims in normalized
coordinates. Rules, in short:

* attribute: a keyword right after the figure ("2 TB/s的内存带宽", "5120个CUDA核心"), else
  the nearest keyword before it in its clause (a precision beats a generic 算力), else
  one earlier in the sentence, else the unit's default (TB/s -> memory_bandwidth);
* chip: the nearest chip before the figure in its sentence, else one right after it
  ("80GB显存的A100"), else the topic chip of the previous sentences;
* speed-ups ("是前代V100的5倍", "5x the V100", "提升50%"): subject, baseline (a chip after
  a comparison word, the subject's predecessor for 前代, a named architecture) and metric
  (an attribute keyword in the sentence; none for plain 性能);
* not claims: ranges, measured / overclocked / forecast / per-die figures, system totals,
  figures outside a chip's plausible range (data/plausible.tsv).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from decimal import Decimal

from .comparisons import speedup_value
from .cues import cue_pattern, cue_value
from .headings import heading_chip
from .topics import comparison_keeps_topic, group_figures, same_after, same_before
from ..lexicon.lexicon import Lexicon, default_lexicon, lexicon_or_default
from .mentions import Keyword, Mention
from .nonclaims import not_a_claim
from .quantities import Quantity
from ..codebook import PRECISION_ATTRIBUTES, QUALIFIERS
from .segment import Span, clause_breaks, list_under, sentences

DEFAULT_ATTRIBUTE = {"throughput": "compute", "bandwidth": "memory_bandwidth",
                     "bits": "memory_bus_width",
                     "length": "process_node", "power": "tdp", "frequency": "boost_clock",
                     "area": "die_area"}
THROUGHPUT_ATTRS = PRECISION_ATTRIBUTES | {"fp64_tensor", "compute"}
PRECISE_ATTRS = THROUGHPUT_ATTRS - {"compute"}
NOT_METRICS = frozenset({"tensor_cores", "tensor_core_gen", "pcie_gen", "mig_instances", "speedup"})
COUNT_GAP = re.compile(r"^[\s的个颗独立完整块]*(?:GPU|gpu|个|的|独立|\s)*"
                       r"(?:第.代|(?i:\d(?:st|nd|rd|th)|first|second|third|fourth|fifth)[\s-]*(?i:gen(?:eration)?))?\s*$")
LABEL_GAP = re.compile(r"^[\s数量目为是有达到共计约近超过高达拥有具备集成配备采用提供的:：=]*$")
ASSIGN_GAP = re.compile(r"(?<!\s)\s*+[:：=≈]\s*+[~约]?\s*+")
TIGHT_GAP = re.compile(r"^\s*(?:的|of|in|for|at|[（(]|)\s*(?:HBM\w*|GDDR\w*|bi-?directional|双向|单向)?\s*$",
                       re.IGNORECASE)
RESPECTIVELY = re.compile(r"分别|respectively", re.IGNORECASE)
KEYWORD_JOIN = re.compile(r"^\s*(?:/|、|和|与|及|&|or|and)\s*$", re.IGNORECASE)
CHIP_JOIN = re.compile(r"^\s*(?:和|与|及|、|/|,|，|and|&)\s*$", re.IGNORECASE)
GENERIC_BANDWIDTH = re.compile(r"(?:总|单向|双向)?带宽|(?i:bandwidth)")
LINK_WORDS = re.compile(r"x16|x8|链路|lanes?", re.IGNORECASE)
PRONOUN_START = re.compile(r"(?:^|[，,：:\s])(?:其|它|佢|该卡|该芯片|这款|此卡|本卡)(?!他|它)|\b(?:it|its|the card|this card|the chip)\b",
                           re.IGNORECASE)
GROUP_REF = re.compile(r"(?:(?:[两三四五二2-5]|这|这几|这些)\s*(?:张|款|颗|块|个)?\s*(?:卡|显卡|芯片|GPU|型号)|它们|他们|两者|二者)\s*(?:都|均|皆|同样|同为)"
                       r"|(?:both|all (?:three|four|of them)|the three|the two)\b", re.IGNORECASE)
BOTH = re.compile(r"都|均|同样|同为|皆|both|all\s|^\s*(?:则)?(?:支持|采用|升级到|搭载|配备|使用)", re.IGNORECASE)
PREDECESSOR_TAIL = re.compile(r"(?:(?:前代|上一代|前一代|上代|之前的?|以前的?)(?:旗舰|产品|显卡|芯片)?|the\s+previous|the|its)\s*$",
                              re.IGNORECASE)
STRONG_COMPARE = re.compile(r"(?:比|相比|相较于?|较|对比|超越|超过|胜过|优于|高于|低于|不及|不如|than|vs\.?|versus"
                            r"|compared\s+(?:to|with)|over)\s*$",
                            re.IGNORECASE)
# "比配备 HBM3 的 H100", "相较于采用 4nm 的 H100": a comparison word, a short modifier ending in 的
MODIFIED_COMPARE = re.compile(r"(?:比|相比|相较于?|较|对比|对照)[^，。,;；!?！？比较]{1,16}?的\s*+$")
# "(前代3090: 10496个)": an aside naming the chip before as its predecessor
ASIDE_PREDECESSOR = re.compile(r"[(（]\s*+(?:前代|上代|上一代|前一代|(?i:previous(?:\s+gen(?:eration)?)?|last\s+gen(?:eration)?))\s*+$")
ASIDE_CHIP = re.compile(r"(?:[^\s，。,;；()（）\d]{1,10}+\s*+)?[(（]")  # "640个CUDA核心(V100)", stripped
CLOSE_AFTER = re.compile(r"[)）]")
FOR_CHIP = re.compile(r"[^,;.，。；\d]{0,24}?\bfor\s++(?:the\s++)?", re.IGNORECASE)  # "(220 CU) for the MI250X"
LIST_LEAD = frozenset(" \t\n*#>-•·0123456789.、)）")
COMPARE_WORD = re.compile(r"比|相较|较|对比|(?i:than|compared|versus|\bvs\b|\bover\b)")  # anywhere
WITH = re.compile(r"(?:与|和|跟|同|像|like|as)(?:现阶段|目前|当前|现有)?的?\s*$", re.IGNORECASE)
SAME_AS = re.compile(r"(?<!\s)\s*+(?:相比|相较|比较|对比|一样|相同|一致|保持一致|类似|持平|相当|差不多|的规格相同"
                     r"|同系列|同一系列|同代)")
AFTER_RATIO = re.compile(r"(?:倍|×|\dx|times|%)\s*(?:faster|more|higher|larger|greater)?\s*(?:than|that of|over|the|of)?\s*(?:the|an?)?\s*$",
                         re.IGNORECASE)
POSSESSIVE = re.compile(r"^\s*(?:'s|’s|的|嘅|[（(])\s*(?:每秒\s*)?$")  # "A100的每秒600GB"
POSSESSIVE_LIST = re.compile(r"^\s*(?:'s|’s|的|嘅)[^，。；;,\n]{0,30}[、/和与及]\s*$")
PER_INSTANCE = re.compile(r"(?<!\s)\s*+的?\s*+(?:MIG\s*+)?(?:实例|切片|instances?|slices?)", re.IGNORECASE)
PER_INSTANCE_BEFORE = re.compile(r"(?:每个|每一个|单个)(?:MIG)?实例\s*(?:有|为|是)?\s*$|(?:per|each) (?:MIG )?instance\s*$",
                                 re.IGNORECASE)
# (case matters only for the English words: scoping the flag to them keeps the scan quick)
REFUTED = re.compile(r"算错|记错|是错的|这是错的|说错|并不正确|不正确|谣传|以讹传讹"
                     r"|(?i:is wrong|is incorrect|is a myth|is false)")
VENDOR_TAIL = re.compile(r"(?:NVIDIA|Nvidia|AMD|Google|Huawei|英伟达|华为)(?:'s|’s|的)?\s*+(?:(?:GeForce|RTX|GTX|Radeon|Instinct|Tesla)\s*+)*+$"
                         r"|(?:GeForce|RTX|GTX|Radeon|Instinct)\s*+$")  # "与 RTX 4070 Ti": the line word before a model
METRIC_AFTER = re.compile(r"^\s*+(?:(?:increase|improvement|boost|gain|jump)\s++in\s++)?(?:the|its|their|in|of|on|的|更高的|更大的)?\s*+$",
                          re.IGNORECASE)
IMPLICIT_GAIN = re.compile(r"(?<![\d.])[\d.]++\s*+倍的?(?:性能)?提升"
                           r"|(?<![\d.])[\d.]++\s*+(?:x|×|times)\s++(?:faster|higher|greater|more|the performance)"
                           r"|(?:doubles|triples|doubled|tripled)\s++the|加倍|翻倍|翻了?一?番",
                           re.IGNORECASE)
GAIN_BEFORE = re.compile(r"(?:提升|提高|增加|加快|增长)了?\s*+(?:约|近|高达|达)?\s*+$")  # "性能提高20倍"
ARCH_SUFFIX = re.compile(r"架构|(?<=[A-Za-z])(?:\s++(?:GPU|generation)|\s*+architecture)", re.IGNORECASE)
FROM = re.compile(r"(?:从|由)\s*$")
PRONOUN_BASELINE = re.compile(r"(?:是|为|係|比)\s*(?:它|其|佢|this|it)\s*(?:的|嘅|'s)?", re.IGNORECASE)
FROM_TO = re.compile(r"(?:从|由)\s*$")
WEAK_COMPARE = re.compile(r"(?:是|为|係|系|达到|达|相当于|of)\s*$", re.IGNORECASE)
OF_AFTER = re.compile(r"(?<!\s)\s*+(?:GPU\s*+)?(?:(?:算力|性能|带宽|显存|容量|功耗|规格)\s*+)?[的嘅]")  # "是V100的": the chip is what is compared against
# "(H100 的 2.6 倍)", "H100 的进化版": a chip something is measured against or derived from
RATIO_OF = re.compile(r"(?<!\s)\s*+(?:GPU\s*+)?[的嘅]\s*+(?:[\d.]++\s*+(?:倍|%)|(?:精简|简化|进化|升级|阉割|特供|缩水|增强)版"
                      r"|替代品|继任者|后继者|接班人)")
OWNER_TAIL = re.compile(r"(?:the\s+company[’']s|its|their)\s++(?:(?:older|previous|prior)\s++)?$", re.IGNORECASE)
LINE_TAIL = re.compile(r"(?:Tesla|GeForce|Quadro|Instinct)\s*+$")  # "the company's Tesla V100"
INCREASE_IN = re.compile(r"^\s*+(?:increase|improvement|boost|jump|gain)\s++in\s", re.IGNORECASE)  # "20x increase in …"
LABEL_COLON = re.compile(r"(?<!\s)\s*+[:：]|^[:：]")
ASIDE_OPEN = re.compile(r"[(（]")  # "2080亿(H100 的 2.6 倍)": a chip in an aside is not the figure's
OF_RATIO_GAP = re.compile(r"(?<!\s)\s*+(?:GPU\s*+)?[的嘅]\s*+")  # "H100 的 2.6 倍": a ratio of that chip
CLAUSE_PUNCTUATION = re.compile(r"[，,；;：:]")
CARDS_AFTER = re.compile(r"\s?(?:[A-Z]|\d)")  # "8x A100"


@dataclass(frozen=True)
class Draft:
    """A claim before it is mapped back to the original text."""

    entity: str
    attribute: str
    quantity: Quantity
    value: Decimal
    precision_exp: int
    sentence: Span
    variant: str = ""
    operator: str = "="
    qualifier: str = ""
    baseline: str = ""
    metric: str = ""
    link: str = ""  # how the chip was found: one of LINKS


# How a figure's chip was found (a claim's link evidence). STRONG_LINKS name the chip where
# the figure is (its clause, a possessive, a table's header); the others carry it from
# further away, and a figure that disagrees with the reference through one of them is no
# accusation the text clearly makes.
LINKS = {
    "clause": "chip named in the figure's clause",
    "possessive": "chip's figure (H100's / H100的)",
    "after": "chip named right after the figure",
    "joined": "chips joined before the figure (A和B都)",
    "respectively": "i-th chip of a respectively list",
    "same-as": "chip the text gives the same figure (与 H100 相同 / （与 H100 一致）)",
    "group-pairs": "i-th chip of the sentence before, for a plural reference (它们…48GB与24GB)",
    "table-column": "table column header",
    "table-row": "table row label",
    "run-table": "flattened table header",
    "table-compare": "comparison column of a two-chip table (提升 +43%)",
    "comparison": "subject and baseline of a comparison",
    "sentence": "chip named earlier in the sentence",
    "pronoun": "pronoun for the sentence's first chip",
    "group": "chips of the previous sentence (三张卡都)",
    "topic": "carried from an earlier sentence of the paragraph",
    "list-head": "named above the spec list the figure stands in",
    "heading": "named in the title or a heading over the spec list, no other chip between",
    "topic-far": "carried from an earlier paragraph",
    "from": "old figure of a from-to change",
}
STRONG_LINKS = frozenset({"clause", "possessive", "after", "joined", "respectively",
                          "table-column", "table-row", "run-table", "table-compare",
                          "comparison"})


@dataclass
class Found:
    """Everything the lexicons found in one normalized text (each list sorted by start)."""

    text: str
    masked: str  # text with chip names and Latin labels blanked out
    chips: list[Mention]
    keywords: list[Keyword]
    qualifiers: list[Keyword]
    quantities: list[Quantity]
    lexicon: Lexicon = field(default_factory=default_lexicon)

    def __post_init__(self) -> None:
        self._sorted = {name: (items, [x.start for x in items]) for name, items in (
            ("chips", self.chips), ("keywords", self.keywords),
            ("qualifiers", self.qualifiers), ("quantities", self.quantities))}

    def starts(self, name: str) -> list[int]:
        """The starts of list ``name``'s items (sorted)."""
        return self._sorted[name][1]

    def within(self, name: str, start: int, end: int) -> list:
        """The items of list ``name`` that start in [start, end)."""
        items, starts = self._sorted[name]
        return items[bisect_left(starts, start):bisect_left(starts, end)]


def plausible_ranges(lex: Lexicon) -> dict[str, tuple[Decimal, Decimal]]:
    rows = lex.rows("plausible.tsv")
    return {r["attribute"]: (Decimal(r["min"]), Decimal(r["max"])) for r in rows}


def relations(lex: Lexicon) -> tuple[dict[str, str], dict[str, str]]:
    """(chip -> predecessor, architecture word (lower) -> chip)."""
    pred = {r["name"]: r["chip"] for r in lex.of_kind("predecessors.tsv", "predecessor")}
    arch = {r["name"].lower(): r["chip"] for r in lex.of_kind("predecessors.tsv", "architecture")}
    return pred, arch


ANY_VALUE = (Decimal(0), Decimal("Infinity"))


def plausible(lex: Lexicon, attribute: str, value: Decimal) -> bool:
    lo, hi = lex.built(plausible_ranges).get(attribute, ANY_VALUE)
    return lo <= value <= hi


def link_prose(found: Found, skip: list[Span]) -> list[Draft]:
    """Drafts for every figure outside the ``skip`` spans (tables read apart)."""
    text = found.text
    drafts: list[Draft] = []
    topic: Mention | None = None
    group: list[Mention] = []  # the chips of the last sentence that named several
    prev_speedup: Draft | None = None  # the last speed-up of the sentence before
    skip = _merged(skip)
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
        ctx = _Sentence(text, sent, s_c, within("keywords", start, end),
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
    return drafts


def _architecture_pattern(lex: Lexicon) -> re.Pattern:
    names = "|".join(sorted(map(re.escape, lex.built(relations)[1]), key=len, reverse=True))
    return re.compile(rf"(?:NVIDIA\s*+|Nvidia\s*+|英伟达\s*+|英偉達\s*+|輝達\s*+)?"
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


def _in_aside(text: str, start: int, pos: int) -> bool:
    """Is ``pos`` inside brackets opened on its line after ``start``?"""
    start = max(start, text.rfind("\n", 0, pos) + 1)
    part = text[start:pos]
    return part.count("(") + part.count("（") > part.count(")") + part.count("）")


def _adjacent(text: str, d: Draft | None, start: int) -> Draft | None:
    """``d`` when its sentence ends in the paragraph of position ``start``."""
    if d is None or "\n" in text[d.sentence.end:start]:
        return None
    return d


def _merged(spans: list[Span]) -> list[Span]:
    """Sorted, disjoint spans covering the same positions."""
    out: list[Span] = []
    for s in sorted(spans):
        if out and s.start <= out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out


def inside_any(q: Quantity, spans: list[Span], starts: list[int]) -> bool:
    """Does ``q`` (a figure, a chip) start inside one of the disjoint, sorted ``spans``
    (``starts`` their starts)?"""
    i = bisect_left(starts, q.start + 1) - 1
    return i >= 0 and q.start < spans[i].end


class _Sentence:
    """One sentence's chips, keywords and qualifiers; ``breaks`` (the clause ends) are
    found when first needed if None."""

    def __init__(self, text, span, chips, keywords, quals, topic, breaks, group=(), lex=None):
        self.text, self.span, self.chips, self.keywords = text, span, chips, keywords
        self._starts: list[int] | None = None
        self.lex = lexicon_or_default(lex)
        self.quals, self.topic, self.breaks, self.group = quals, topic, breaks, list(group)
        self.all_keywords = keywords
        self.found: Found | None = None
        self.figures: list[Quantity] = []
        self.prev_speedup: Draft | None = None
        self._starts: list[int] | None = None
        self._baseline: dict[int, bool] = {}
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

    def link(self, quantities: list[Quantity]) -> list[Draft]:
        self.figures = quantities
        figures = [q for q in quantities if q.dimension not in ("ratio", "percent")]
        out = self._respectively(figures)
        done = {d.quantity for d in out}
        for q in figures:
            if (done and q in done) or q.is_range or self._excluded(q):
                continue
            out.extend(self._figure(q))
        for q in quantities:
            if q.dimension in ("ratio", "percent") and not q.is_range and not self._excluded(q):
                d = self._speedup(q, out)
                if d is not None:
                    out.append(d)
        return out

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
        """Measured, overclocked, forecast figures (anywhere in the clause); per-die ones
        ("110 per GCD", right around the figure); a MIG slice's memory ("7个10GB的实例");
        a figure the sentence then calls wrong ("…1.08TB/s，那是算错了"); the figures of
        :mod:`nonclaims` (per SM, differences, pin speeds, other links, ...)."""
        if q.dimension == "bytes" and PER_INSTANCE.match(self.text, q.end):
            return True
        if not_a_claim(self.lex, self.text, q, self.clause(q.start).start):
            return True
        if PER_INSTANCE_BEFORE.search(self.text, max(self.span.start, q.start - 8), q.start):
            return True
        if self._exclusions is None:  # once per sentence
            self._exclusions = [(m.start(), m.end(), cue_value(self.lex, "exclude", m.group()))
                                for m in cue_pattern(self.lex, "exclude").finditer(
                                    self.text, self.span.start, self.span.end)]
            refuted = REFUTED.search(self.text, self.span.start, self.span.end)
            self._refuted_at = refuted.start() if refuted else None
        if self._refuted_at is not None and self._refuted_at >= q.end:
            return True
        if not self._exclusions:
            return False
        clause = self.clause(q.start)
        for start, end, why in self._exclusions:
            if not (clause.start <= start and end <= clause.end):
                continue
            if why in ("per-die", "io-bandwidth"):
                if q.end <= start <= q.end + 4 or q.start - 10 <= end <= q.start:
                    return True
            elif why != "cpu-baseline":
                return True
        return False

    # -- figures -----------------------------------------------------------------
    def _figure(self, q: Quantity) -> list[Draft]:
        kw = self._attribute_keyword(q)
        chips, how = self._chips(q)
        if not chips:
            return []
        linked = [(c, how) for c in chips] + [(c, "same-as") for c in self._same_figure(q, chips)]
        out = []
        group = self._keyword_group(kw)
        if len(group) > 1:  # "94GB HBM3、带宽3.9TB/s": only the keywords that fit the figure
            group = [k for k in group if fits(q, k)] or [kw]
        for k in group:
            attribute = self._attribute(q, k)
            if attribute is None:
                continue
            if attribute == "memory_bandwidth" and (k is None or GENERIC_BANDWIDTH.fullmatch(
                    self.text[k.start:k.end])):
                clause = self.clause(q.start)
                if LINK_WORDS.search(self.text, clause.start, q.start) or any(
                        k.attribute == "pcie_gen" and clause.start <= k.start < q.start
                        for k in self.keywords):
                    continue  # a PCIe link's bandwidth is no spec of the chip
                if k is None:  # "而H20保留了完整的900GB/s": the paragraph was about NVLink
                    attribute = self._paragraph_bandwidth(q) or attribute
            qualifier = self._qualifier(q, k, attribute)
            if attribute == "fp64" and "tensor" in qualifier.split(";"):
                attribute = "fp64_tensor"
            value, exp = in_canonical(q, attribute)
            if not plausible(self.lex, attribute, value):
                continue
            for chip, link in linked:
                out.append(Draft(chip.entity, attribute, q, value, exp, self.span, chip.variant,
                                 self._operator(q), qualifier, link=link))
        return out

    def _same_figure(self, q: Quantity, chips: list[Mention]) -> list[Mention]:
        """Chips the text gives the same figure as the subject: "跟 H100 相同，都用 4nm"
        before it (no other chip between), "1 TB/s（与 RTX 3090 Ti 一致）" right after it."""
        have = {c.entity for c in chips}
        clause = self.clause(q.start)
        for c in self.chips:
            if c.entity in have or c.system or c.kind:
                continue
            end = max(c.end, c.variant_end)
            if c.end <= q.start:
                if same_before(self.text, self.span.start, c.start, end, q.start,
                               [f.end for f in self.figures if f.dimension != "bare"]) and not any(
                        end <= d.start < q.start and d.entity not in have for d in self.chips):
                    return [c]
            elif c.start < clause.end + 2 and same_after(self.text, q.end, c.start, end):
                return [c]
        return []

    def _paragraph_bandwidth(self, q: Quantity) -> str:
        line_start = self.text.rfind("\n", 0, q.start) + 1
        earlier = [k for k in self.all_keywords if line_start <= k.start < q.start
                   and k.attribute in ("memory_bandwidth", "nvlink_bandwidth")]
        return earlier[-1].attribute if earlier else ""

    def _keyword_group(self, kw: Keyword | None) -> list[Keyword | None]:
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
                if not CHIP_JOIN.match(self.text[c.end:group[0].start]):
                    break
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
        before = [k for k in fits if k.end <= q.start]
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
            links = [k for k in before if k.attribute == "nvlink_bandwidth"
                     and k.start >= self.span.start]
            memory = [k for k in before if k.attribute == "memory_size" and k.start >= clause.start]
            if links and not memory:
                return links[-1]
        if best.attribute == "compute":  # a precision in the clause says more than 算力
            precise = [k for k in pool if k.attribute in PRECISE_ATTRS]
            if precise:
                best = precise[-1]
        return best

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
        if before:
            gap = self.text[max(before[-1].end, before[-1].variant_end):q.start]
            if POSSESSIVE.match(gap) or POSSESSIVE_LIST.match(gap):
                # "the H100's 80 billion", "V100的900 GB/s", "H100的80GB、3.35TB/s"
                return before[-1], "possessive"
        if FROM_TO.search(self.text, max(self.span.start, q.start - 3), q.start):
            # "与A100相比，A800的带宽从600GB/s降到400GB/s": the old figure is the other chip's
            others = [c for c in before if self.is_baseline(c)]
            return (others[-1], "from") if others else (None, "")
        subjects = [c for c in before if not self.is_baseline(c)]
        if subjects and self._any_between("pronoun", PRONOUN_START, subjects[-1].end, q.start):
            # "the L40S is 2.4x the A6000, and it adds FP8 …"; with one chip in the sentence
            # ("A100 性能强大，其…达到…") the pronoun can only be that chip
            alone = len({c.entity for c in self.chips if not c.system}) == 1
            return subjects[0], ("sentence" if alone else "pronoun")
        if subjects:
            return subjects[-1], self._nearness(subjects[-1], q)
        if before and self.topic is not None and self.topic.entity not in {c.entity for c in before} \
                and before[-1].start < self.clause(q.start).start:
            # "…1 TB/s（与 RTX 3090 Ti 一致），功耗 450W": an earlier clause names only what
            # the topic is compared with
            return self.topic, "topic"
        if before and not self._any_between("pronoun", PRONOUN_START, self.span.start, q.start):
            return before[-1], self._nearness(before[-1], q)
        clause = self.clause(q.start)
        after = [c for c in self.chips if c.start >= q.end and c.start < clause.end
                 and c.start - q.end <= 12 and not self.is_baseline(c)
                 and not ASIDE_OPEN.search(self.text, q.end, c.start)]
        if after:
            return after[0], "after"
        # no subject before the figure (``subjects`` is empty here)
        return (self.topic, self._topic_link(q)) if self.topic is not None else (None, "")

    def _named_after(self, q: Quantity) -> Mention | None:
        """A chip the words right after the figure give it to: "640个CUDA核心(V100)",
        "14,080 units (220 CU) for the MI250X"."""
        clause = self.clause(q.start)
        i = bisect_left(self._chip_starts(), q.end)
        for c in self.chips[i:i + 1]:  # the first chip after the figure
            if c.start >= clause.end or c.system or c.kind:
                return None
            gap = self.text[q.end:c.start]
            after = max(c.end, c.variant_end)
            if (ASIDE_CHIP.fullmatch(gap.strip()) and CLOSE_AFTER.match(self.text[after:after + 4].lstrip())) \
                    or FOR_CHIP.fullmatch(gap):
                return c
            return None
        return None

    def _chip_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [c.start for c in self.chips]
        return self._starts

    def _topic_link(self, q: Quantity) -> str:
        """How close the carried topic is: its own paragraph, the head of the spec list the
        figure stands in, the title or a heading over a spec list with no other chip in
        between, or further away."""
        if "\n" not in self.text[self.topic.start:q.start]:
            return "topic"
        if list_under(self.text, self.topic.start, q.start):
            return "list-head"
        if self.found is not None and heading_chip(self.text, self.found.chips, self.found.starts("chips"),
                                                   self.topic.entity, q.start):
            return "heading"
        return "topic-far"

    def _nearness(self, chip: Mention, q: Quantity) -> str:
        """'clause' when ``chip`` is in the figure's clause, else 'sentence'."""
        return "clause" if chip.start >= self.clause(q.start).start else "sentence"


    def _operator(self, q: Quantity) -> str:
        clause = self.clause(q.start)
        head = self.text[max(clause.start, q.start - 8):q.start]
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

    def _respectively(self, figures: list[Quantity]) -> list[Draft]:
        """'V100和A100的FP32分别为15.7和19.5 TFLOPS': the i-th figure to the i-th chip;
        '它们配备了48GB与24GB显存' after a sentence naming two chips: the same with those."""
        m = RESPECTIVELY.search(self.text, self.span.start, self.span.end)
        if not m:
            return self._group_respectively(figures)
        chips = [c for c in self.chips if c.end <= m.start()]
        entities = list(dict.fromkeys(c.entity for c in chips))
        after = [q for q in figures if q.start >= m.end() and not q.is_range]
        if len(entities) < 2 or len(after) < len(entities):
            return self._group_respectively(figures)
        named = [next(c for c in chips if c.entity == e) for e in entities]
        return self._pair_drafts(named, after[:len(entities)], m.start(), "respectively")

    def _group_respectively(self, figures: list[Quantity]) -> list[Draft]:
        """A sentence naming no chip that opens on a plural reference to the chips of the
        sentence before ("它们", "两者", "they") and gives one figure per chip, joined."""
        out = []
        for run in group_figures(self.text, self.span, figures, self.group):
            if any(c.start < run[-1].end for c in self.chips):
                break  # (a chip named after the figures, "性能不及H20", does not matter)
            out.extend(self._pair_drafts(self.group, run, run[0].start, "group-pairs"))
        return out

    def _pair_drafts(self, chips: list[Mention], figures: list[Quantity], anchor: int,
                     how: str) -> list[Draft]:
        """The i-th figure to the i-th chip; the attribute keyword is read as for a figure
        standing at ``anchor`` (the word 分别, or the first figure)."""
        unit_q = next((q for q in reversed(figures) if q.dimension != "bare"), None)
        if unit_q is None:
            return []
        out = []
        for chip, q in zip(chips, figures):
            if q.dimension == "bare":  # "15.7和19.5 TFLOPS": the unit is written once
                q = replace(q, dimension=unit_q.dimension, written=unit_q.written)
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
        head = PREDECESSOR_TAIL.sub("", self.text[max(self.span.start, c.start - 16):c.start])
        head = VENDOR_TAIL.sub("", head)
        tail = self.text[max(c.end, c.variant_end):c.end + 16]
        if LABEL_COLON.match(tail) and not (ASIDE_PREDECESSOR.search(self.text, max(self.span.start, c.start - 8), c.start) and _in_aside(self.text, self.span.start, c.start)):
            return False  # "对比英伟达A100：FP16 312 TFLOPS…": the chip heads what follows
        before = VENDOR_TAIL.sub("", self.text[max(self.span.start, c.start - 32):c.start])
        if cue_pattern(self.lex, "predecessor", "$").search(before):
            return True  # "the previous generation NVIDIA V100", "前代旗舰 RTX 3090"
        if STRONG_COMPARE.search(OWNER_TAIL.sub("", LINE_TAIL.sub("", before))) \
                or self._compared_through_modifier(c):
            return True  # "over the company's older Tesla V100", "比配备 HBM3 的 H100"
        if (STRONG_COMPARE.search(head) or AFTER_RATIO.search(head) or FROM.search(head)
                or RATIO_OF.match(tail) or (WEAK_COMPARE.search(head) and OF_AFTER.match(tail))
                or (WITH.search(head) and SAME_AS.match(tail))):
            return True
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
            self._starts = [d.start for d in self.chips]
        return self._starts

    def _compared_through_modifier(self, c: Mention) -> bool:
        """'比配备 HBM3 的 H100': a comparison word, then a short modifier of the chip (with
        no other chip in it)."""
        m = MODIFIED_COMPARE.search(self.text, max(self.span.start, c.start - 24), c.start)
        return bool(m) and not any(m.start() <= d.start < c.start for d in self.chips)

    def _topic_if_free(self) -> Mention | None:
        """The topic, when the sentence names no chip of its own (only baselines)."""
        own = [c for c in self.chips if not c.system and not self.is_baseline(c)]
        return self.topic if not own else None

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


def fits(q: Quantity, k: Keyword) -> bool:
    dims = {"count"} if q.dimension in ("bare", "count") else {q.dimension}
    if k.attribute == "memory_size" and q.dimension == "bandwidth":
        return False  # a memory word is no label of a bandwidth figure in a list
    return bool(dims & k.dims)


def in_canonical(q: Quantity, attribute: str) -> tuple[Decimal, int]:
    """The figure in the attribute's canonical unit (bytes: MB for l2_cache)."""
    value, exp = q.value, q.precision_exp
    if attribute == "l2_cache" and q.dimension == "bytes":
        value, exp = value * 1000, exp + 3
    return value, exp
