"""Diagnoses that find the claim's value as another figure of the reference: another
precision or qualifier of the same chip (wrong precision, sparse as dense, qualifier
wrong), another variant's (wrong variant), another chip's (misattributed; nearer
generations of data/predecessors.tsv first).

The per-table indexes below (built once per reference table, ``Reference.memoized``)
let each detector look only at figures near the claim's value.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from decimal import Decimal
from functools import lru_cache
from typing import Any, Sequence

from ..codebook import PRECISION_ATTRIBUTES
from ..lexicon.lexicon import Lexicon, default_lexicon
from ..records import Claim
from .figures import (EXACT_WINDOW, MATCH_WINDOW, MAY_HIGH, MAY_LOW, MISATTRIBUTED,
                      SPARSE_AS_DENSE, WRONG_PRECISION, WRONG_QUALIFIER, WRONG_VARIANT,
                      may_match, number_text, row_text, safe_float)
from .reference import Reference, RefRow
from .rows import COMPUTE, COMPUTE_ATTRIBUTES, Selection, select_rows
from .rules import entity_key
from .verdicts import EXACT_MAX, MATCH_MAX, deviation, matches

MAX_NAMES = 3   # chips a misattribution names at most


# Codebook: "前代/上一代/previous generation" P100 -> V100 -> A100 -> H100 -> B200, H100 -> H200.
def predecessors(lex: Lexicon) -> dict[str, str]:
    """Chip key -> its predecessor's key (data/predecessors.tsv, built once per lexicon)."""
    return {entity_key(r["name"]): entity_key(r["chip"])
            for r in lex.of_kind("predecessors.tsv", "predecessor")}


def _ancestors(key: str, pred: dict[str, str]) -> list[str]:
    line: list[str] = []
    while key in pred and pred[key] not in line and len(line) < 32:
        key = pred[key]
        line.append(key)
    return line


@lru_cache(maxsize=4096)
def chain_distance(a: str, b: str) -> int:
    """Generations apart in the predecessor line of data/predecessors.tsv (99: neither
    chip descends from the other)."""
    pred = default_lexicon().built(predecessors)
    a, b = entity_key(a), entity_key(b)
    if a == b:
        return 0
    for young, old in ((a, b), (b, a)):
        line = _ancestors(young, pred)
        if old in line:
            return line.index(old) + 1
    return 99


def wrong_precision(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    if claim.attribute not in PRECISION_ATTRIBUTES:
        return []
    number = safe_float(claim.value)
    rows = [r for r, figure in precision_near(ref, claim.entity, claim.variant, number)
            if may_match(number, figure) and r.value is not None and matches(claim.value, r.value)]
    for row in sorted(rows, key=lambda r: (r.attribute != claim.attribute,
                                           deviation(claim.value, r.value))):  # type: ignore[arg-type]
        sparse = "sparse" in row.qualifiers and "sparse" not in claim.qualifiers
        if row.attribute == claim.attribute:
            kind = SPARSE_AS_DENSE if sparse else WRONG_QUALIFIER
        else:
            kind = SPARSE_AS_DENSE if sparse else WRONG_PRECISION
        return [f"{kind}: {number_text(claim.value)} is {claim.entity}'s {row.attribute} "
                f"figure ({row_text(row)})"]
    return []


def precision_near(ref: Reference, entity: str, variant: str, number: float | None
                   ) -> Sequence[tuple[RefRow, float | None]]:
    """The chip's precision rows (precision_index) that may_match can accept for a claim
    of ``number``, in the same order: positive figures found by bisect, the others always
    kept (all rows for a claim that is not a positive safe_float)."""
    rows, values, positions, rest = precision_index(ref, entity, variant)
    if number is None or number <= 0:
        return rows
    picked = rest + positions[bisect_left(values, number * MAY_LOW):
                              bisect_right(values, number * MAY_HIGH)]
    picked.sort()
    return [rows[pos] for pos in picked]


def precision_index(ref: Reference, entity: str, variant: str) -> tuple[
        tuple[tuple[RefRow, float | None], ...], list[float], list[int], list[int]]:
    """The chip's applicable rows with a figure, of every precision (and FP64 Tensor), in
    attribute order, each with its figure as a safe_float; its positive figures sorted
    (with their positions) and the positions of the others. Once per table, chip and
    variant."""
    return ref.memoized("diagnose.precision_index", (entity, variant), _build_precision_index,
                        ref, entity, variant)


def _build_precision_index(ref: Reference, entity: str, variant: str) -> tuple:
    rows = tuple((r, safe_float(r.value)) for a in (*COMPUTE_ATTRIBUTES, "fp64_tensor")
                 for r in select_rows(ref, entity, a, variant).rows if r.value is not None)
    positive = sorted((figure, pos) for pos, (_, figure) in enumerate(rows)
                      if figure is not None and figure > 0)
    rest = [pos for pos, (_, figure) in enumerate(rows) if figure is None or figure <= 0]
    return rows, [f for f, _ in positive], [p for _, p in positive], rest


def wrong_variant(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    if not claim.variant:
        return []
    named = {r.line for r in select_rows(ref, claim.entity, claim.attribute, claim.variant).rows}
    others = [r for r in select_rows(ref, claim.entity, claim.attribute).rows
              if r.line not in named and r.value is not None and matches(claim.value, r.value)]
    return [f"{WRONG_VARIANT}: {number_text(claim.value)} is {claim.entity} {r.variant}'s figure "
            f"({row_text(r)}), not {claim.variant}'s" for r in others[:1]]


def _family(attribute: str) -> tuple[str, ...]:
    return COMPUTE_ATTRIBUTES if attribute == COMPUTE else (attribute,)


def misattributed(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    near = _near_figures(ref, _family(claim.attribute), claim.value)
    if not near:
        return []
    own = entity_key(claim.entity)
    number = safe_float(claim.value)
    ranked: list[tuple[Any, RefRow]] = []
    for row, key, figure in near:
        if key != own:
            same, rank = _same_figure(claim, row, number, figure)
            if same:
                ranked.append((rank, row))
    ranked.sort(key=lambda item: item[0])
    hits = [row for _, row in ranked]
    names = list(dict.fromkeys(r.entity for r in hits))
    if not names:
        return []
    first = hits[0]
    also = f" (also {', '.join(names[1:MAX_NAMES])})" if len(names) > 1 else ""
    early = " (a preliminary figure)" if first.preliminary else ""
    return [f"{MISATTRIBUTED}: {number_text(claim.value)} is {first.entity}'s "
            f"{first.attribute} figure ({row_text(first)}){early}{also}"]


def _same_figure(claim: Claim, row: RefRow, number: float | None = None,
                 figure: float | None = None) -> tuple[bool, tuple | None]:
    """Another chip's figure: within 5% for the chip's predecessor or successor, within 0.5%
    (the exact-match tolerance) for any other chip, so that common round numbers do not
    point at unrelated cards. With the row's rank among such figures (preliminary last,
    then the nearer generation, the smaller deviation, the name). ``number``, ``figure``:
    the claim's and the row's safe_float, for a float pre-test."""
    distance = chain_distance(claim.entity, row.entity)
    if distance < 99:
        limit, window = MATCH_MAX, MATCH_WINDOW
    else:
        limit, window = EXACT_MAX, EXACT_WINDOW
    if not may_match(number, figure, window):
        return False, None
    dev = deviation(claim.value, row.value)  # type: ignore[arg-type]
    return dev <= limit, (row.preliminary, distance, dev, row.entity)


# A row is another chip's figure only within MATCH_MAX of the claim (_same_figure); the
# window below is a little wider, so rounding in the float bounds never loses a row.
_LOW, _HIGH = 1 / (1 + float(MATCH_MAX)) * (1 - 1e-9), 1 / (1 - float(MATCH_MAX)) * (1 + 1e-9)


Figure = tuple[int, RefRow, str, "float | None"]


def _value_index(ref: Reference, attribute: str) -> tuple[list[float], list[Figure],
                                                           list[Figure]]:
    """Rows of one attribute with a figure, as (position in ref.attribute_rows, row, its
    chip's entity_key, its safe_float): positive figures sorted by value (with their values
    as floats, for bisect), and the others (zero or negative) apart. Built once per table."""
    return ref.memoized("diagnose.values", attribute, _build_value_index, ref, attribute)


def _build_value_index(ref: Reference, attribute: str) -> tuple:
    positive: list[Any] = []
    other: list[Any] = []
    for pos, row in enumerate(ref.attribute_rows(attribute)):
        if row.value is None:
            continue
        figure = (pos, row, entity_key(row.entity), safe_float(row.value))
        (positive if row.value > 0 else other).append((float(row.value), figure))
    positive.sort(key=lambda item: (item[0], item[1][0]))
    return ([v for v, _ in positive], [f for _, f in positive], [f for _, f in other])


def _near_figures(ref: Reference, attributes: tuple[str, ...], value: Decimal
                  ) -> list[tuple[RefRow, str, float | None]]:
    """Rows of ``attributes`` with a figure that can be within MATCH_MAX of ``value``, in
    ref.attribute_rows order (attribute by attribute): every row _same_figure can accept,
    each with its chip's entity_key and its safe_float (_value_index)."""
    out: list[tuple[RefRow, str, float | None]] = []
    number = float(value)
    for attribute in attributes:
        values, rows, other = _value_index(ref, attribute)
        picked = list(other)
        if number > 0:
            lo = bisect_left(values, number * _LOW)
            hi = bisect_right(values, number * _HIGH)
            picked += rows[lo:hi]
        picked.sort(key=lambda item: item[0])
        out += [(row, key, figure) for _, row, key, figure in picked]
    return out


def _searched(attribute: str) -> tuple[str, ...]:
    """The attributes whose rows wrong_precision, wrong_variant and misattributed read
    for a claim of ``attribute``."""
    group = {attribute, *_family(attribute)}
    if attribute in PRECISION_ATTRIBUTES:
        group.update(COMPUTE_ATTRIBUTES, ("fp64_tensor",))
    return tuple(sorted(group))


def may_explain(claim: Claim, ref: Reference) -> bool:
    """False only when no figure of the _searched attributes (any chip) is within MATCH_MAX
    of the claim, so that those three rules find nothing: a positive claim never matches a
    zero or negative figure, and the rest are looked up in floats (with _near_figures'
    margin). Figures outside FLOAT_SAFE, or such a claim, are not ruled out."""
    number = safe_float(claim.value)
    if number is None or number <= 0:
        return True
    unsafe, values = ref.memoized("diagnose.searched_figures", claim.attribute,
                                  _searched_figures, ref, claim.attribute)
    if unsafe:
        return True
    lo = bisect_left(values, number * _LOW)
    return lo < len(values) and values[lo] <= number * _HIGH


def _searched_figures(ref: Reference, attribute: str) -> tuple[bool, list[float]]:
    """Whether a positive figure the rules search lies outside FLOAT_SAFE, and the others
    as floats, sorted."""
    figures = [safe_float(r.value) for a in _searched(attribute)
               for r in ref.attribute_rows(a) if r.value is not None and r.value > 0]
    return None in figures, sorted(f for f in figures if f is not None)
