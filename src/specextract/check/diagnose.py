"""Why a claim is not supported, as far as the reference shows it (codebook, Diagnoses).

``diagnose`` returns '; '-joined parts, most specific first; each part starts with one of
the keywords below so the export can be filtered on it.
"""
from __future__ import annotations

from functools import lru_cache

import math
import re
from bisect import bisect_left, bisect_right
from decimal import Decimal
from typing import Sequence

from ..lexicon.lexicon import Lexicon, default_lexicon
from ..records import Claim, format_decimal
from .reference import Reference, RefRow
from .rules import entity_key
from .rows import COMPUTE, COMPUTE_ATTRIBUTES, Selection, select_rows
from ..codebook import ATTRIBUTE_UNITS, CONTRADICTED, PRECISION_ATTRIBUTES, SUPPORTED
from .ratios import Candidate, metric_pairs, ratio_candidate, same_kind
from .verdicts import EXACT_MAX, MATCH_MAX, deviation, matches

NOT_SUPPORTED = "not supported"
PRELIMINARY = "preliminary"
MISATTRIBUTED = "misattributed"
WRONG_VARIANT = "wrong variant"
SPARSE_AS_DENSE = "sparse as dense"
WRONG_PRECISION = "wrong precision"
WRONG_QUALIFIER = "qualifier wrong"
UNIT = "unit mix-up"
MAGNITUDE = "magnitude"
DIGITS_SWAPPED = "digits swapped"
VENDOR_RATIO = "vendor ratio"
DIAGNOSES = (NOT_SUPPORTED, WRONG_VARIANT, SPARSE_AS_DENSE, WRONG_PRECISION, PRELIMINARY,
             MISATTRIBUTED, UNIT, MAGNITUDE, DIGITS_SWAPPED, VENDOR_RATIO, WRONG_QUALIFIER)
PLAIN_UNITS = frozenset({"count", "ordinal", "x"})

# Codebook: "前代/上一代/previous generation" P100 -> V100 -> A100 -> H100 -> B200, H100 -> H200.
# Unit slips by a factor: bits for bytes (8) and a prefix step (1000).
BYTE_UNITS = frozenset({"GB", "GB/s", "MB"})
PREFIX_STEP = {"GB/s": "GB/s vs TB/s", "TFLOPS": "TFLOPS vs PFLOPS", "TOPS": "TOPS vs POPS",
               "GB": "GB vs TB", "MB": "MB vs GB", "MHz": "MHz vs GHz", "W": "W vs kW"}
MAX_NAMES = 3


def predecessors(lex: Lexicon) -> dict[str, str]:
    """Chip key -> its predecessor's key (data/predecessors.tsv, built once per lexicon)."""
    return {entity_key(r["name"]): entity_key(r["chip"])
            for r in lex.of_kind("predecessors.tsv", "predecessor")}


def _ancestors(key: str, pred: dict[str, str]) -> list[str]:
    line = []
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


def _num(value: Decimal | None) -> str:
    return format_decimal(value) if value is not None else "?"


def _fig(row: RefRow) -> str:
    quals = " ".join(q for q in ("tensor", "sparse") if q in row.qualifiers)
    where = f", {row.variant}" if row.variant else ""
    unit = "" if row.unit in PLAIN_UNITS else f" {row.unit}"
    return f"{_num(row.value)}{unit}{' ' + quals if quals else ''}{where}"


def diagnose(claim: Claim, verdict: str, candidates: list[Candidate],
             selection: Selection | None, ref: Reference) -> str:
    """'; '-joined diagnoses for a claim that is not supported ('' when none applies)."""
    if verdict == SUPPORTED:
        return selection.qualifier_wrong if selection else ""
    parts: list[str] = []
    numbers = [c.value for c in candidates if c.value is not None and not c.not_supported]
    if claim.attribute == "speedup":
        parts += _speedup_parts(claim, verdict, ref, candidates)
    elif selection is not None:
        parts += _not_supported(claim, verdict, selection)
        # The most specific explanation the reference shows, in this order: another of the
        # chip's own figures, its preliminary figure, another variant's, another chip's.
        if verdict == CONTRADICTED and _may_explain(claim, ref):
            explain = (_wrong_precision, _preliminary_of, _wrong_variant, _misattributed)
        else:  # (contradicted: no figure the other three search can match the claim)
            explain = (_preliminary_of,)
        for rule in explain:
            found = rule(claim, ref, selection)
            if found:
                parts += found
                break
    ratios = _approx_ratios(claim.value, numbers)
    parts += _unit(claim, numbers, ratios)
    parts += _magnitude(claim, numbers, ratios)
    parts += _digits(claim, numbers)
    if claim.attribute == "speedup":
        parts += _vendor_ratio(claim, ref)
    if selection is not None and selection.qualifier_wrong:
        parts.append(selection.qualifier_wrong)
    return "; ".join(dict.fromkeys(parts))


def _not_supported(claim: Claim, verdict: str, sel: Selection) -> list[str]:
    absent = [r for r in sel.rows if r.not_supported]
    if verdict != CONTRADICTED or not absent or any(r.value is not None for r in sel.rows):
        return []
    why = f" ({absent[0].condition})" if absent[0].condition else ""
    return [f"{NOT_SUPPORTED}: the reference says {claim.entity} has no {claim.attribute}{why}"]


def _preliminary_of(claim: Claim, ref: Reference, sel: Selection) -> list[str]:
    hits = [r for r in sel.preliminary if r.value is not None and matches(claim.value, r.value)]
    return [f"{PRELIMINARY}: {_num(claim.value)} is the preliminary figure {_fig(r)} "
            f"({r.condition})" for r in hits[:1]]


def _family(attribute: str) -> tuple[str, ...]:
    return COMPUTE_ATTRIBUTES if attribute == COMPUTE else (attribute,)


def _misattributed(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    near = _near_figures(ref, _family(claim.attribute), claim.value)
    if not near:
        return []
    own = entity_key(claim.entity)
    number = _safe_float(claim.value)
    ranked = []
    for row in near:
        if entity_key(row.entity) != own:
            same, rank = _same_figure(claim, row, number)
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
    return [f"{MISATTRIBUTED}: {_num(claim.value)} is {first.entity}'s {first.attribute} figure "
            f"({_fig(first)}){early}{also}"]


# A row is another chip's figure only within MATCH_MAX of the claim (_same_figure); the
# window below is a little wider, so rounding in the float bounds never loses a row.
_LOW, _HIGH = 1 / (1 + float(MATCH_MAX)) * (1 - 1e-9), 1 / (1 - float(MATCH_MAX)) * (1 + 1e-9)


def _value_index(ref: Reference, attribute: str) -> tuple[list[float], list[tuple[int, RefRow]],
                                                           list[tuple[int, RefRow]]]:
    """Rows of one attribute with a figure, as (position in ref.attribute_rows, row):
    positive figures sorted by value (with their values as floats, for bisect), and the
    others (zero or negative) apart. Built once per table."""
    return ref.memoized("diagnose.values", attribute, _build_value_index, ref, attribute)


def _build_value_index(ref: Reference, attribute: str) -> tuple:
    positive, other = [], []
    for pos, row in enumerate(ref.attribute_rows(attribute)):
        if row.value is None:
            continue
        (positive if row.value > 0 else other).append((float(row.value), pos, row))
    positive.sort(key=lambda item: (item[0], item[1]))
    return ([v for v, _, _ in positive], [(pos, row) for _, pos, row in positive],
            [(pos, row) for _, pos, row in other])


def _near_figures(ref: Reference, attributes: tuple[str, ...], value: Decimal) -> list[RefRow]:
    """Rows of ``attributes`` with a figure that can be within MATCH_MAX of ``value``, in
    ref.attribute_rows order (attribute by attribute): every row _same_figure can accept."""
    out: list[RefRow] = []
    number = float(value)
    for attribute in attributes:
        values, rows, other = _value_index(ref, attribute)
        picked = list(other)
        if number > 0:
            lo = bisect_left(values, number * _LOW)
            hi = bisect_right(values, number * _HIGH)
            picked += rows[lo:hi]
        picked.sort(key=lambda item: item[0])
        out += [row for _, row in picked]
    return out


def _searched(attribute: str) -> tuple[str, ...]:
    """The attributes whose rows _wrong_precision, _wrong_variant and _misattributed read
    for a claim of ``attribute``."""
    group = {attribute, *_family(attribute)}
    if attribute in PRECISION_ATTRIBUTES:
        group.update(COMPUTE_ATTRIBUTES, ("fp64_tensor",))
    return tuple(sorted(group))


def _may_explain(claim: Claim, ref: Reference) -> bool:
    """False only when no figure of the _searched attributes (any chip) is within MATCH_MAX
    of the claim, so that those three rules find nothing: a positive claim never matches a
    zero or negative figure, and the rest are looked up in floats (with _near_figures'
    margin). Figures outside FLOAT_SAFE, or such a claim, are not ruled out."""
    number = _safe_float(claim.value)
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
    figures = [_safe_float(r.value) for a in _searched(attribute)
               for r in ref.attribute_rows(a) if r.value is not None and r.value > 0]
    return None in figures, sorted(f for f in figures if f is not None)


def _wrong_variant(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    if not claim.variant:
        return []
    named = {r.line for r in select_rows(ref, claim.entity, claim.attribute, claim.variant).rows}
    others = [r for r in select_rows(ref, claim.entity, claim.attribute).rows
              if r.line not in named and r.value is not None and matches(claim.value, r.value)]
    return [f"{WRONG_VARIANT}: {_num(claim.value)} is {claim.entity} {r.variant}'s figure "
            f"({_fig(r)}), not {claim.variant}'s" for r in others[:1]]


def _same_figure(claim: Claim, row: RefRow, number: float | None = None
                 ) -> tuple[bool, tuple | None]:
    """Another chip's figure: within 5% for the chip's predecessor or successor, within 0.5%
    (the exact-match tolerance) for any other chip, so that common round numbers do not
    point at unrelated cards. With the row's rank among such figures (preliminary last,
    then the nearer generation, the smaller deviation, the name). ``number``: the claim's
    _safe_float, for a float pre-test."""
    distance = chain_distance(claim.entity, row.entity)
    if distance < 99:
        limit, window = MATCH_MAX, MATCH_WINDOW
    else:
        limit, window = EXACT_MAX, EXACT_WINDOW
    if not _may_match(number, _figure(row.value)[0], window):  # type: ignore[arg-type]
        return False, None
    dev = deviation(claim.value, row.value)  # type: ignore[arg-type]
    return dev <= limit, (row.preliminary, distance, dev, row.entity)


def _wrong_precision(claim: Claim, ref: Reference, sel: Selection | None = None) -> list[str]:
    if claim.attribute not in PRECISION_ATTRIBUTES:
        return []
    number = _safe_float(claim.value)
    rows = [r for r, figure in _precision_near(ref, claim.entity, claim.variant, number)
            if _may_match(number, figure) and matches(claim.value, r.value)]
    for row in sorted(rows, key=lambda r: (r.attribute != claim.attribute,
                                           deviation(claim.value, r.value))):
        sparse = "sparse" in row.qualifiers and "sparse" not in claim.qualifiers
        if row.attribute == claim.attribute:
            kind = SPARSE_AS_DENSE if sparse else WRONG_QUALIFIER
        else:
            kind = SPARSE_AS_DENSE if sparse else WRONG_PRECISION
        return [f"{kind}: {_num(claim.value)} is {claim.entity}'s {row.attribute} figure "
                f"({_fig(row)})"]
    return []


def _precision_near(ref: Reference, entity: str, variant: str, number: float | None
                    ) -> Sequence[tuple[RefRow, float | None]]:
    """The chip's precision rows (_precision_index) that _may_match can accept for a claim of ``number``, in the
    same order: positive figures found by bisect, the others always kept (all rows for a
    claim that is not a positive _safe_float)."""
    rows, values, positions, rest = _precision_index(ref, entity, variant)
    if number is None or number <= 0:
        return rows
    picked = rest + positions[bisect_left(values, number * _MAY_LOW):
                              bisect_right(values, number * _MAY_HIGH)]
    picked.sort()
    return [rows[pos] for pos in picked]


def _precision_index(ref: Reference, entity: str, variant: str) -> tuple[
        tuple[tuple[RefRow, float | None], ...], list[float], list[int], list[int]]:
    """The chip's applicable rows with a figure, of every precision (and FP64 Tensor), in
    attribute order, each with its figure as a _safe_float; its positive figures sorted
    (with their positions) and the positions of the others. Once per table, chip and
    variant."""
    return ref.memoized("diagnose.precision_index", (entity, variant), _build_precision_index,
                        ref, entity, variant)


def _build_precision_index(ref: Reference, entity: str, variant: str) -> tuple:
    rows = tuple((r, _safe_float(r.value)) for a in (*COMPUTE_ATTRIBUTES, "fp64_tensor")
                 for r in select_rows(ref, entity, a, variant).rows if r.value is not None)
    positive = sorted((figure, pos) for pos, (_, figure) in enumerate(rows)
                      if figure is not None and figure > 0)
    rest = [pos for pos, (_, figure) in enumerate(rows) if figure is None or figure <= 0]
    return rows, [f for f, _ in positive], [p for _, p in positive], rest


TOPS_WORD = re.compile(r"TOPS", re.I)  # a surface that spells the unit TOPS (_unit)
FLOP_WORD = re.compile(r"FLOP", re.I)


def _unit(claim: Claim, numbers: list[Decimal], ratios: list[float] | None = None) -> list[str]:
    """A unit slip: TOPS for TFLOPS, bits for bytes, a prefix step. ``ratios``: the claim
    over each number in floats (_approx_ratios); only numbers near a factor are tried."""
    parts = []
    surface, unit = claim.surface, claim.unit
    if unit == "TFLOPS" and TOPS_WORD.search(surface) and not FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TOPS for a TFLOPS figure ({surface!r})")
    if unit == "TOPS" and FLOP_WORD.search(surface):
        parts.append(f"{UNIT}: written in TFLOPS for a TOPS figure ({surface!r})")
    if ratios is not None:
        factors = UNIT_FACTORS[unit] if unit in UNIT_FACTORS else _unit_factors(unit)
        numbers = [number for number, ratio in zip(numbers, ratios)
                   if factors and _maybe_factor(ratio, factors)]
    return (parts + _unit_factor(claim, numbers))[:2]


def _unit_factor(claim: Claim, numbers: list[Decimal]) -> list[str]:
    """Bits for bytes or a prefix step between the claim and each of ``numbers``."""
    parts = []
    for ref_value in numbers:
        if ref_value == 0:
            continue
        ratio = claim.value / ref_value
        approx = float(ratio)
        if claim.unit in BYTE_UNITS and ((_maybe_near(approx, 8.0) and _near(ratio, 8))
                                         or (_maybe_near(approx, 0.125)
                                             and _near(ratio, Decimal(1) / 8))):
            parts.append(f"{UNIT}: bits for bytes (Gb vs GB, factor 8: "
                         f"{_num(claim.value)} vs {_num(ref_value)})")
        elif claim.unit in PREFIX_STEP and ((_maybe_near(approx, 1000.0) and _near(ratio, 1000))
                                            or (_maybe_near(approx, 0.001)
                                                and _near(ratio, Decimal("0.001")))):
            parts.append(f"{UNIT}: {PREFIX_STEP[claim.unit]} (factor 1000: "
                         f"{_num(claim.value)} vs {_num(ref_value)})")
    return parts


def explains(claim: Claim, value: Decimal) -> bool:
    """Does a unit slip, a power of ten or swapped digits turn the reference figure
    ``value`` into the claim's? (The figure such a diagnosis names is the expected one.)"""
    numbers = [value]
    return bool(_unit_factor(claim, numbers) or _magnitude(claim, numbers)
                or _digits(claim, numbers))


NEAR_MAX = Decimal("0.02")
POWERS = tuple((k, Decimal(10) ** k, 10.0 ** k) for k in (1, 2, 3, 4, -1, -2, -3, -4))


def _near(ratio: Decimal, target: Decimal | int) -> bool:
    return deviation(ratio, Decimal(target)) <= NEAR_MAX


def _maybe_near(ratio: float, target: float) -> bool:
    """False only when ``_near`` is surely false (a float test with a wide margin)."""
    return abs(ratio - target) <= 0.0201 * abs(target)


def _maybe_power(ratio: float) -> bool:
    """_maybe_near(ratio, fpower) for some power of POWERS: a ratio within 2.01% of 10**k
    has round(log10(ratio)) == k, so only that k is tried."""
    if ratio <= 0:
        return False
    k = round(math.log10(ratio))
    return k != 0 and abs(k) <= 4 and _maybe_near(ratio, 10.0 ** k)


def _maybe_factor(ratio: float, factors: tuple[float, ...]) -> bool:
    """_maybe_near(ratio, factor) for one of ``factors`` (of _unit_factors: none is within
    2.01% of a ratio between 0.13 and 7.8)."""
    return not 0.13 < ratio < 7.8 and any(_maybe_near(ratio, factor) for factor in factors)


def _unit_factors(unit: str) -> tuple[float, ...]:
    """The ratios _unit tests for a figure in ``unit``."""
    return (((8.0, 0.125) if unit in BYTE_UNITS else ())
            + ((1000.0, 0.001) if unit in PREFIX_STEP else ()))


UNIT_FACTORS = {unit: _unit_factors(unit) for unit in set(ATTRIBUTE_UNITS.values())}


# Figures within this magnitude range (or zero) divide in floats to within 1e-15 of the
# Decimal quotient rounded to a float, far inside _maybe_near's margin (0.0201 vs 0.02).
FLOAT_SAFE = (1e-150, 1e150)


def _safe_float(value: Decimal) -> float | None:
    """value as a float when it is zero or within FLOAT_SAFE; None otherwise (a figure
    too small for a float is not zero here)."""
    number = float(value)
    if not value:
        return number
    return number if FLOAT_SAFE[0] <= abs(number) <= FLOAT_SAFE[1] else None


MATCH_WINDOW = float(MATCH_MAX) + 1e-4
EXACT_WINDOW = float(EXACT_MAX) + 1e-4
# _may_match's window as bounds on a positive figure, a little wider (float rounding)
_MAY_LOW = 1 / (1 + MATCH_WINDOW) * (1 - 1e-9)
_MAY_HIGH = 1 / (1 - MATCH_WINDOW) * (1 + 1e-9)


def _may_match(claim: float | None, reference: float | None,
               window: float = MATCH_WINDOW) -> bool:
    """False only where matches() (deviation <= MATCH_MAX; EXACT_MAX with EXACT_WINDOW) is
    surely false: a float test with a wide margin, on _safe_float figures (None: no test)."""
    return (claim is None or reference is None
            or abs(claim - reference) <= window * abs(reference))


def _approx_ratios(value: Decimal, numbers: list[Decimal]) -> list[float] | None:
    """value / number for each number as floats, computed in floats (0.0 for a zero number);
    None when a figure is outside FLOAT_SAFE (the callers then test every number). A test
    on these is a filter only: false where the exact Decimal test is surely false."""
    top = _safe_float(value)
    if top is None:
        return None
    ratios = []
    for number in numbers:
        if not number:
            ratios.append(0.0)
            continue
        bottom = _figure(number)[0]
        if bottom is None:
            return None
        ratios.append(top / bottom)
    return ratios


def _magnitude(claim: Claim, numbers: list[Decimal],
               ratios: list[float] | None = None) -> list[str]:
    """A figure off by a power of ten. ``ratios`` as for _unit: only numbers near a power
    of ten are tried."""
    if ratios is not None:
        numbers = [number for number, ratio in zip(numbers, ratios) if _maybe_power(ratio)]
        if not numbers:
            return []
    for ref_value in sorted(numbers, key=lambda v: deviation(claim.value, v)):
        if not ref_value:
            continue
        ratio = claim.value / ref_value
        approx = float(ratio)
        for k, power, fpower in POWERS:
            if _maybe_near(approx, fpower) and _near(ratio, power):
                if abs(k) == 3 and claim.unit in PREFIX_STEP:
                    continue  # reported as a unit mix-up
                factor = f"{10 ** abs(k)}x {'too large' if k > 0 else 'too small'}"
                return [f"{MAGNITUDE}: {_num(claim.value)} is {factor} against "
                        f"{_num(ref_value)} (off by a power of ten)"]
    return []


def _figure(number: Decimal) -> tuple[float | None, str, frozenset[str]]:
    """A reference figure as a _safe_float, as _num writes it, and that text's _swaps.
    (Not remembered: a cache saved 4.5% of the check stage, 254 vs 243 M instructions per
    pass over corpus/, under the 5% a speed trick must pay.)"""
    text = _num(number)
    return _safe_float(number), text, _swaps(text)


def _swaps(text: str) -> frozenset[str]:
    """Every text that differs from ``text`` by two adjacent, different digits swapped
    (a '.' never moves): what a claim with digits swapped against this figure reads."""
    return frozenset(text[:i] + text[i + 1] + text[i] + text[i + 2:]
                     for i in range(len(text) - 1)
                     if text[i] != text[i + 1] and "." not in (text[i], text[i + 1]))


def _digits(claim: Claim, numbers: list[Decimal]) -> list[str]:
    text = _num(claim.value)
    for ref_value in numbers:
        _, other, swaps = _figure(ref_value)
        if text in swaps:
            return [f"{DIGITS_SWAPPED}: {text} vs {other}"]
    return []


def _speedup_parts(claim: Claim, verdict: str, ref: Reference,
                   candidates: list[Candidate]) -> list[str]:
    """A ratio formed with sparse figures, stand-in precisions or rows the claim's qualifiers
    exclude; another pair's vendor ratio."""
    if not claim.metric:
        return _ratio_misattributed(claim, ref) if verdict == CONTRADICTED else []
    judged = {c.label for c in candidates}
    ratios, bottoms = _diagnose_ratios(ref, claim.entity, claim.baseline, claim.metric,
                                       claim.variant)
    says_sparse = "sparse" in claim.qualifiers
    number = _safe_float(claim.value)
    hits = []
    for top, bottom, cand, figure in ratios:
        if cand.label in judged or not (_may_match(number, figure)
                                        and matches(claim.value, cand.value)):  # type: ignore[arg-type]
            continue  # a ratio the claim was judged against explains nothing
        cross = top.attribute != bottom.attribute
        sparse = "sparse" in top.qualifiers or "sparse" in bottom.qualifiers
        if cross:
            kind = WRONG_PRECISION
        elif sparse and not says_sparse:
            kind = SPARSE_AS_DENSE
        else:
            kind = WRONG_QUALIFIER  # same precision, a pair the claim's qualifiers exclude
        # prefer the claim's own precision, then Tensor against Tensor and plain against plain
        rank = (cross, not same_kind(top, bottom, bottoms[bottom.attribute]),
                deviation(claim.value, cand.value), cand.label)  # type: ignore[arg-type]
        hits.append((rank, kind, cand))
    if not hits:
        return []
    _, kind, cand = min(hits, key=lambda h: h[0])
    return [f"{kind}: {_num(claim.value)}x is the ratio {cand.label} = {_num(cand.value)}"]


def _diagnose_ratios(ref: Reference, subject: str, baseline: str, metric: str, variant: str
                     ) -> tuple[tuple, dict[str, list[RefRow]]]:
    """Every (top, bottom, ratio candidate, its value as a _safe_float) a wrong speed-up
    may have quoted, and the baseline rows per attribute; once per table and arguments."""
    return ref.memoized("diagnose.ratios", (subject, baseline, metric, variant),
                        _build_ratios, ref, subject, baseline, metric, variant)


def _build_ratios(ref: Reference, subject: str, baseline: str, metric: str, variant: str
                  ) -> tuple[tuple, dict[str, list[RefRow]]]:
    pairs = metric_pairs(ref, subject, baseline, metric, variant, diagnose=True)
    bottoms: dict[str, list[RefRow]] = {}
    for _, bottom in pairs:
        bottoms.setdefault(bottom.attribute, [])
        if bottom not in bottoms[bottom.attribute]:
            bottoms[bottom.attribute].append(bottom)
    cands = [(t, b, ratio_candidate(t, b)) for t, b in pairs]
    return tuple((t, b, c, _safe_float(c.value)) for t, b, c in cands), bottoms


def _ratio_misattributed(claim: Claim, ref: Reference) -> list[str]:
    pair = (entity_key(claim.entity), entity_key(claim.baseline))
    hits = [r for r in ref.marketing
            if (entity_key(r.subject_entity), entity_key(r.baseline_entity)) != pair
            and r.subject_entity and any(matches(claim.value, v) for v in r.values)]
    # a ratio that involves one of the claim's chips is the likelier source
    hits.sort(key=lambda r: (not {entity_key(r.subject_entity), entity_key(r.baseline_entity)} & set(pair),
                             r.line))
    return [f"{MISATTRIBUTED}: {_num(claim.value)}x is the vendor's {r.subject} over {r.baseline} "
            f"ratio ({r.ratio!r}: {r.condition})" for r in hits[:1]]


def _vendor_ratio(claim: Claim, ref: Reference) -> list[str]:
    if not claim.metric:
        return []
    hits = [r for r in ref.ratios(claim.entity, claim.baseline)
            if any(matches(claim.value, v) for v in r.values)]
    return [f"{VENDOR_RATIO}: matches {r.subject} vs {r.baseline} {r.ratio!r} ({r.condition})"
            for r in hits[:1]]
