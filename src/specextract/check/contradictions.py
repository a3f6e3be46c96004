"""Self-contradictions: claims of one document that another of its claims disagrees with.

    self_contradictions(claims) -> {index: "also says 21 TFLOPS (21 TFLOPS); ..."}

Two claims disagree when they name the same chip, attribute, baseline and metric, their
variants and qualifiers are compatible, and neither value is within the other's written
tolerance (check.verdicts.within_tolerance). The work grows with the number of claims,
not its square: equal statements (value, written precision, operator, variant,
qualifiers) are judged once; within a group, values sorted per operator are split by
bisection into those that certainly disagree (more than 5% apart: no tolerance reaches
that far) and a narrow band judged one by one. A cell lists at most ``LISTED``
statements and then says how many more there are ("; and 612 more").
"""
from __future__ import annotations

from typing import Any
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import islice

from ..decimaltext import format_decimal
from ..records import Claim
from .rows import qualifiers_compatible, variants_compatible
from .rules import entity_key
from .verdicts import reads_precision, within_tolerance, written_exp

LISTED = 5                      # statements a cell names before "and N more"
# a tolerance reaches at most 5% of the other value (0.5% of it, whatever the rounding):
# as a share of this value, below 1/0.95 - 1 and 1/0.995 - 1
WIDE, NEAR = Decimal("0.0527"), Decimal("0.0053")
ABOVE, BELOW, APPROX = ">=", "<=", "~"


@dataclass
class Statement:
    """Equal claims of one group: one value as written, with its operator and variant."""

    claim: Claim
    exp: int | None
    members: list[int] = field(default_factory=list)
    _texts: dict[str, int] | None = None

    def texts(self, claims: list[Claim]) -> dict[str, int]:
        """Mention -> first claim index, for the first LISTED different mentions of the
        members (written once, when the statement is first listed in a cell)."""
        if self._texts is None:
            self._texts = {}
            for index in self.members:
                text = mention(claims[index])
                if text not in self._texts:
                    self._texts[text] = index
                    if len(self._texts) == LISTED:
                        break
        return self._texts

    @property
    def value(self) -> Decimal:
        return self.claim.value

    @property
    def kind(self) -> str:
        """ABOVE, BELOW, APPROX, "point" (=, and the rest), or "odd" (zero or negative)."""
        if self.value <= 0:
            return "odd"
        op = self.claim.operator
        return op if op in (ABOVE, BELOW, APPROX) else "point"

    def rounding(self) -> Decimal:
        """Half the unit of the last written digit: how far a value rounding to it lies."""
        if self.exp is None:
            self.exp = written_exp(self.value, self.claim.precision_exp)
        return Decimal(5).scaleb(self.exp - 1)

    def reach(self) -> Decimal:
        """How far from this value (> 0) another value may be and still be tolerated."""
        v = self.value
        if self.kind != "point":
            return v * WIDE
        return min(max(v * NEAR, self.rounding()), v * WIDE)


class Sorted:
    """The statements of one class (variant, qualifiers) of a group, by kind and value."""

    def __init__(self, statements: list[Statement]) -> None:
        by_kind: dict[str, list[Statement]] = defaultdict(list)
        for s in statements:
            by_kind[s.kind].append(s)
        self.items = {k: sorted(v, key=lambda s: s.value) for k, v in by_kind.items()}
        self.values = {k: [s.value for s in v] for k, v in self.items.items()}
        points = self.items.get("point", [])
        self.widest_rounding = max((s.rounding() for s in points), default=Decimal(0))

    def reach(self, kind: str, v: Decimal) -> Decimal:
        """How far from ``v`` the statements of ``kind`` tolerate it, at most."""
        if kind != "point":
            return v * WIDE
        return min(max(v * NEAR, self.widest_rounding), v * WIDE)

    def slice(self, kind: str, lo: Decimal | None, hi: Decimal | None, *,
              lo_open: bool = False, hi_open: bool = False) -> list[Statement]:
        """Statements of ``kind`` with lo <= value <= hi (None: unbounded; open ends)."""
        values = self.values.get(kind, [])
        start = 0 if lo is None else (bisect_right if lo_open else bisect_left)(values, lo)
        stop = len(values) if hi is None else (bisect_left if hi_open else bisect_right)(values, hi)
        return self.items.get(kind, [])[start:max(start, stop)]


def regions(a: Statement, kind: str, other: "Sorted") -> tuple[list, list]:
    """For statement ``a`` (value v > 0) against statements of ``kind``: (value ranges that
    certainly disagree, value ranges to judge one by one), each (lo, hi, lo_open, hi_open).
    The band is as wide as the farthest either side's tolerance reaches (a's own, or the
    widest among the other statements of that kind)."""
    v = a.value
    if kind in (ABOVE, BELOW) and a.kind in (ABOVE, BELOW):
        if kind == a.kind:
            return [], []
        return [(None, v, False, True) if kind == BELOW else (v, None, True, False)], []
    if a.kind in (ABOVE, BELOW):             # against values that tolerate within reach
        r = other.reach(kind, v)
        if a.kind == ABOVE:
            return [(None, v - r, False, True)], [(v - r, v, False, True)]
        return [(v + r, None, True, False)], [(v, v + r, True, False)]
    w = a.reach()
    if kind == ABOVE:
        return [(v + w, None, True, False)], [(v, v + w, True, False)]
    if kind == BELOW:
        return [(None, v - w, False, True)], [(v - w, v, False, True)]
    w = max(w, other.reach(kind, v))
    return [(None, v - w, False, True), (v + w, None, True, False)], [(v - w, v + w, False, False)]


def disagree(a: Statement, b: Statement) -> bool:
    """Neither value is within the other's written tolerance."""
    return not _tolerates(a, b.value) and not _tolerates(b, a.value)


def _tolerates(s: Statement, other: Decimal) -> bool:
    c = s.claim
    if s.exp is None and reads_precision(c.operator):
        s.exp = written_exp(c.value, c.precision_exp)
    return within_tolerance(c.value, c.precision_exp, c.operator, other, exp=s.exp)


def disagreeing(a: Statement, other: Sorted):
    """(certain ranges as lists, statements judged to disagree) of ``other`` against ``a``."""
    certain: list[Any] = []
    judged: list[Statement] = []
    for kind in other.items:
        if a.kind == "odd" or kind == "odd":
            judged.extend(s for s in other.items[kind] if disagree(a, s))
            continue
        sure, band = regions(a, kind, other)
        certain.extend(other.slice(kind, lo, hi, lo_open=lo_o, hi_open=hi_o)
                       for lo, hi, lo_o, hi_o in sure)
        for lo, hi, lo_o, hi_o in band:
            judged.extend(s for s in other.slice(kind, lo, hi, lo_open=lo_o, hi_open=hi_o)
                          if disagree(a, s))
    return certain, judged


def cell_text(certain: list[list[Statement]], judged: list[Statement],
              claims: list[Claim]) -> str:
    """Up to LISTED statements' mentions (first mentioned first), then how many more."""
    total = sum(map(len, certain)) + len(judged)
    shown = list(islice((s for part in certain + [judged] for s in part), LISTED))
    firsts: dict[str, int] = {}
    for s in shown:
        for text, index in s.texts(claims).items():
            firsts[text] = min(index, firsts.get(text, index))
    texts = sorted(firsts, key=firsts.__getitem__)
    more = total - len(shown)
    return "; ".join(texts) + (f"; and {more} more" if more else "")


def group_key(claim: Claim) -> tuple:
    return (claim.doc_id, entity_key(claim.entity), claim.attribute,
            entity_key(claim.baseline), claim.metric)


def mention(claim: Claim) -> str:
    surface = f" ({claim.surface})" if claim.surface else ""
    return f"also says {format_decimal(claim.value)} {claim.unit}{surface}"


def statements(claims: list[Claim]) -> list[dict[tuple, dict[tuple, Statement]]]:
    """Per group of two or more claims: class (variant, qualifiers) -> equal claims as one
    Statement each. (A claim alone in its group contradicts nothing: no statement is
    made for it.)"""
    groups: dict[tuple, list[int]] = {}
    for index, c in enumerate(claims):
        if c.value.is_finite():
            key = group_key(c)
            found = groups.get(key)
            if found is None:
                groups[key] = [index]
            else:
                found.append(index)
    out = []
    for members in groups.values():
        if len(members) < 2:
            continue
        classes: dict[tuple, dict[tuple, Statement]] = {}
        for index in members:
            c = claims[index]
            same = classes.setdefault((c.variant, c.qualifiers), {})
            key = (str(c.value), c.precision_exp, c.operator)
            stmt = same.get(key)
            if stmt is None:
                stmt = same[key] = Statement(c, None)
            stmt.members.append(index)
        out.append(classes)
    return out


def self_contradictions(claims: list[Claim]) -> dict[int, str]:
    """index -> the other values of its chip and attribute that the document also gives."""
    out: dict[int, str] = {}
    for classes in statements(claims):
        if sum(map(len, classes.values())) < 2:
            continue
        names = list(classes)
        index: dict[tuple, Sorted] = {}
        # the classes each class is compared with; its own only when it holds another
        # statement (a statement never disagrees with itself)
        compared = {x: [y for y in names if (y != x or len(classes[y]) > 1)
                        and _compatible(x, y)] for x in names}
        for x in names:
            for a in classes[x].values():
                certain: list[Any] = []
                judged: list[Statement] = []
                for y in compared[x]:
                    if y not in index:
                        index[y] = Sorted(list(classes[y].values()))
                    sure, one_by_one = disagreeing(a, index[y])
                    certain.extend(part for part in sure if part)
                    judged.extend(one_by_one)
                if certain or judged:
                    text = cell_text(certain, judged, claims)
                    out.update((i, text) for i in a.members)
    return out


def _compatible(x: tuple, y: tuple) -> bool:
    (va, qa), (vb, qb) = x, y
    return (variants_compatible(va, vb) and qualifiers_compatible(qa, qb)
            and qualifiers_compatible(qb, qa))
