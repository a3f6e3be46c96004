"""What the linking stages hand on: a :class:`Draft` claim (normalized coordinates, with its
link evidence), the :class:`Found` lists of one text, and the small value rules every reader
of prose and tables shares (plausible ranges, canonical units, spans)."""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ..codebook import PRECISION_ATTRIBUTES
from ..lexicon.lexicon import Lexicon, default_lexicon
from ..lexicon.made import built
from .mentions import Keyword, Mention
from .quantities import Quantity
from .segment import Span

DEFAULT_ATTRIBUTE = {"throughput": "compute", "bandwidth": "memory_bandwidth",
                     "bits": "memory_bus_width",
                     "length": "process_node", "power": "tdp", "frequency": "boost_clock",
                     "area": "die_area"}
THROUGHPUT_ATTRS = PRECISION_ATTRIBUTES | {"fp64_tensor", "compute"}
PRECISE_ATTRS = THROUGHPUT_ATTRS - {"compute"}
NOT_METRICS = frozenset({"tensor_cores", "tensor_core_gen", "pcie_gen", "mig_instances", "speedup"})


# Not frozen, with its own __init__, like quantities.Quantity (see there why).
@dataclass(unsafe_hash=True)
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

    def __init__(self, entity: str, attribute: str, quantity: Quantity, value: Decimal,
                 precision_exp: int, sentence: Span, variant: str = "", operator: str = "=",
                 qualifier: str = "", baseline: str = "", metric: str = "",
                 link: str = "") -> None:
        self.entity, self.attribute, self.quantity, self.value = entity, attribute, quantity, value
        self.precision_exp, self.sentence, self.variant = precision_exp, sentence, variant
        self.operator, self.qualifier, self.baseline = operator, qualifier, baseline
        self.metric, self.link = metric, link


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
    "versus": "i-th of the two chips named before an 'a vs b' pair of figures",
    "same-as": "chip the text gives the same figure (与 H100 相同 / （与 H100 一致）)",
    "group-pairs": "i-th chip of the sentence before, for a plural reference (它们…48GB与24GB)",
    "table-column": "table column header",
    "table-row": "table row label",
    "run-table": "flattened table header",
    "wrapped-header": "flattened table whose header runs over several lines (columns uncertain)",
    "table-compare": "comparison column of a two-chip table (提升 +43%)",
    "comparison": "subject and baseline of a comparison",
    "sentence": "chip named earlier in the sentence",
    "pronoun": "pronoun for the sentence's first chip",
    "group": "chips of the previous sentence (三张卡都)",
    "topic": "carried from an earlier sentence of the paragraph",
    "list-head": "named above the spec list the figure stands in",
    "heading": "named in the title or a heading over the spec list, no other chip between",
    "shared-head": "named above the spec list on a line naming another chip too (A vs B)",
    "topic-far": "carried from an earlier paragraph",
    "from": "old figure of a from-to change",
    "unread-row": "chip carried to a line holding several of its figures for one attribute, "
                  "or given figures run together (a table row whose columns were not read)",
}
STRONG_LINKS = frozenset({"clause", "possessive", "after", "joined", "respectively", "versus",
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
    lo, hi = built(lex, plausible_ranges).get(attribute, ANY_VALUE)
    return lo <= value <= hi


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


def merged_spans(spans: list[Span]) -> list[Span]:
    """Sorted, disjoint spans covering the same positions."""
    out: list[Span] = []
    for s in sorted(spans):
        if out and s.start <= out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out


def inside_any(q: Quantity | Mention, spans: Sequence[Span], starts: list[int]) -> bool:
    """Does ``q`` (a figure, a chip) start inside one of the disjoint, sorted ``spans``
    (``starts`` their starts)?"""
    i = bisect_left(starts, q.start + 1) - 1
    return i >= 0 and q.start < spans[i].end
