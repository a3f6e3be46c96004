"""What a speed-up claim is judged against (codebook, last paragraph of Verdicts).

With a metric: the ratio of the two chips' reference values on it, over every pair of
applicable rows (subject row / baseline row). On a precision metric the applicable rows are
each chip's plain and Tensor rows of that precision, narrowed by the claim's qualifiers as a
precision claim's are (all rows where that leaves none); for ``compute`` the per-precision
ratios both chips have, dense against dense. Figures are compared like for like: dense with
dense and sparse with sparse (a chip with no sparse figure has dense ones only), so that
"H100 1979 sparse / A100 312 dense" is no ratio. The best (nearest) ratio counts.
Without a metric: the vendor's published ratios for the pair (marketing_ratios.csv). With a
precision metric one of the chips has no figure for (FP8 on an A100, TF32 on a V100): the
vendor's ratios for the pair that name that precision ("FP8 4000 sparse vs A100 FP16").
Each reference value is a ``Candidate``; the checker judges the claim against all of them
(a ratio unrounded) and reports every speed-up ``expected`` to 3 decimals.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from .figures import number_text, safe_float
from .reference import Reference, RefRow
from .rows import COMPUTE, COMPUTE_ATTRIBUTES, OPPOSITE, qualifiers_compatible, select_rows
from ..codebook import THROUGHPUT_ATTRIBUTES
from .verdicts import CONFIDENCE_RANK
from .patterns import NOTHING

RATIO_PLACES = Decimal("0.001")


# Not frozen, with its own __init__, like extract/quantities.Quantity (see there why).
@dataclass(unsafe_hash=True)
class Candidate:
    """One reference value a claim can be judged against."""

    value: Decimal | None
    variant: str = ""
    condition: str = ""
    source: str = ""
    confidence: str = ""
    not_supported: bool = False
    row: RefRow | None = None
    label: str = ""            # how a ratio was formed, for diagnoses
    exact: Decimal | None = None   # a ratio's unrounded value, which the claim is judged against

    def __init__(self, value: Decimal | None, variant: str = "", condition: str = "",
                 source: str = "", confidence: str = "", not_supported: bool = False,
                 row: RefRow | None = None, label: str = "", exact: Decimal | None = None) -> None:
        self.value, self.variant, self.condition, self.source = value, variant, condition, source
        self.confidence, self.not_supported, self.row = confidence, not_supported, row
        self.label, self.exact = label, exact

    @property
    def judged_value(self) -> Decimal | None:
        return self.exact if self.exact is not None else self.value

    @cached_property
    def figure(self) -> tuple[float | None, str]:
        """The value (not None) as a safe_float and as a diagnosis writes it: worked out
        once per candidate (the candidates of a selection are built once per table)."""
        return safe_float(self.value), number_text(self.value)  # type: ignore[arg-type]


def from_row(row: RefRow) -> Candidate:
    return Candidate(row.value, row.variant, row.condition, row.source, row.confidence,
                     row.not_supported, row)


def _describe(row: RefRow) -> str:
    quals = " ".join(q for q in ("tensor", "sparse") if q in row.qualifiers)
    return f"{row.entity} {row.attribute}{' ' + quals if quals else ''} {row.value}"


def _worse(a: str, b: str) -> str:
    return max(a, b, key=lambda c: CONFIDENCE_RANK.get(c, 3))


def quantize_ratio(value: Decimal) -> Decimal:
    """A speed-up's ``expected`` as the checker reports it, ratio or vendor figure alike:
    3 decimals, ties to even (141 / 80 = 1.7625 -> 1.762), whatever the caller's context."""
    with localcontext() as ctx:
        ctx.prec = max(28, value.adjusted() + 8)
        return value.quantize(RATIO_PLACES, rounding=ROUND_HALF_EVEN)


def ratio_candidate(top: RefRow, bottom: RefRow) -> Candidate:
    """The ratio of two rows: judged unrounded, reported to 3 decimals."""
    with localcontext() as ctx:
        ctx.prec = 34
        exact = top.value / bottom.value  # type: ignore[operator]
    ratio = quantize_ratio(exact)
    label = f"{_describe(top)} / {_describe(bottom)}"
    sources = " | ".join(dict.fromkeys((top.source, bottom.source)))
    return Candidate(ratio, top.variant, f"ratio {label} = {ratio}", sources,
                     _worse(top.confidence, bottom.confidence), label=label, exact=exact)


def _usable(row: RefRow) -> bool:
    return (not row.not_supported and row.value is not None and row.value.is_finite()
            and row.value > 0)


def _dense(row: RefRow) -> bool:
    return "sparse" not in row.qualifiers


def _tensor(row: RefRow) -> bool:
    return "tensor" in row.qualifiers


# Cross-precision comparisons vendors make (NVIDIA: A100 TF32 vs V100 FP32, FP16 mixed
# precision vs FP32, H100 FP8 vs A100 FP16). Used only to explain a contradicted speed-up.
STAND_INS = frozenset({("tf32", "fp32"), ("fp16", "fp32"), ("bf16", "fp32"), ("bf16", "fp16"),
                       ("fp16", "bf16"), ("fp8", "fp16"), ("fp8", "bf16")})


def same_kind(top: RefRow, bottom: RefRow, bottoms: list[RefRow]) -> bool:
    """Tensor against Tensor, plain against plain, or across the two where the baseline has
    only the other kind (A100 FP64 Tensor vs V100 FP64, as NVIDIA compares them). Diagnoses
    prefer such pairs when they name the ratio a wrong claim quotes."""
    return _tensor(top) == _tensor(bottom) or not any(_tensor(b) == _tensor(top) for b in bottoms)


def _rows(ref: Reference, entity: str, attribute: str, variant: str,
          qualifiers: frozenset[str], dense_only: bool) -> list[RefRow]:
    """A chip's applicable, final rows of one attribute: narrowed by the claim's qualifiers
    (all rows when they leave none) and, where asked, by density."""
    rows = [r for r in select_rows(ref, entity, attribute, variant).rows if _usable(r)]
    if qualifiers and attribute in THROUGHPUT_ATTRIBUTES:
        # narrowed among the figures themselves: a "not supported" Tensor row is no figure
        rows = [r for r in rows if qualifiers_compatible(r.qualifiers, qualifiers)] or rows
    return [r for r in rows if not dense_only or _dense(r)]


def metric_pairs(ref: Reference, subject: str, baseline: str, metric: str, variant: str = "",
                 qualifiers: frozenset[str] = frozenset(), *, diagnose: bool = False
                 ) -> list[tuple[RefRow, RefRow]]:
    """(subject row, baseline row) pairs on a metric, every applicable row of the subject
    against every applicable row of the baseline (Tensor against plain included).

    A precision metric sees both chips' plain and Tensor rows of that precision, narrowed
    by the claim's qualifiers (``sparse``/``dense``/``tensor``/``non-tensor``); where they
    leave a chip no row, all of its rows apply. ``compute`` pairs per precision, dense
    against dense (sparse rows join only when the claim says ``sparse``). The subject's
    rows are narrowed to the claim's variant; preliminary rows never apply.

    ``diagnose=True`` ignores the qualifiers, adds sparse figures and the vendor stand-in
    precisions: the ratios a wrong claim may have quoted."""
    attrs = COMPUTE_ATTRIBUTES if metric == COMPUTE else (metric,)
    combos = [(a, a) for a in attrs]
    if diagnose:
        combos += [(t, b) for t, b in sorted(STAND_INS) if metric in (COMPUTE, t, b)]
        quals: frozenset[str] = frozenset()
        dense_only = False
    else:
        quals = frozenset(q for q in qualifiers if q in OPPOSITE)
        dense_only = metric == COMPUTE and "sparse" not in quals
    pairs = []
    for top_attr, bottom_attr in combos:
        tops = _rows(ref, subject, top_attr, variant, quals, dense_only)
        bottoms = _rows(ref, baseline, bottom_attr, "", quals, dense_only)
        combo = [(t, b) for t in tops for b in bottoms]
        pairs += combo if diagnose else _like_for_like(combo)
    return pairs


def _like_for_like(pairs: list[tuple[RefRow, RefRow]]) -> list[tuple[RefRow, RefRow]]:
    """Dense with dense, sparse with sparse; every pair where that leaves none (a claim
    that says sparse, against a chip with no sparse figure)."""
    return [(t, b) for t, b in pairs if _dense(t) == _dense(b)] or pairs


def vendor_candidates(ref: Reference, subject: str, baseline: str,
                      metric: str = "") -> tuple[Candidate, ...]:
    """The vendor's published ratios for the pair, each value a candidate; with a
    ``metric``, only those whose subject or condition names that precision."""
    named = _precision_word(metric) if metric else None
    return tuple(Candidate(quantize_ratio(v), r.subject,
                           f"vendor ratio {r.ratio!r} ({r.subject} vs {r.baseline}): "
                           f"{r.condition}",
                           r.source, "", label=f"{r.subject} vs {r.baseline}", exact=v)
                 for r in ref.ratios(subject, baseline)
                 if named is None or named.search(f"{r.subject} {r.condition}")
                 for v in r.values)


def _precision_word(metric: str) -> re.Pattern:
    """'FP8' for fp8, 'FP64' for fp64_tensor; a pattern matching nothing for a metric
    that is no precision."""
    if metric not in THROUGHPUT_ATTRIBUTES or metric == COMPUTE:
        return NOTHING
    word = metric.split("_")[0]
    return re.compile(rf"(?<![A-Za-z0-9]){word}(?![0-9])", re.IGNORECASE)


def speedup_candidates(ref: Reference, subject: str, baseline: str, metric: str,
                       variant: str = "", qualifiers: frozenset[str] = frozenset()
                       ) -> tuple[list[Candidate], str]:
    """Candidates for a speed-up claim and a note saying what they are (computed once per
    table and arguments; a new list each call)."""
    cands, note = ref.memoized("speedup_candidates", (subject, baseline, metric, variant,
                                                      qualifiers), _speedup_candidates,
                               ref, subject, baseline, metric, variant, qualifiers)
    return list(cands), note


def _speedup_candidates(ref: Reference, subject: str, baseline: str, metric: str,
                        variant: str, qualifiers: frozenset[str]
                        ) -> tuple[tuple[Candidate, ...], str]:
    if not baseline:
        return (), "speedup without a named baseline chip"
    if metric:
        pairs = metric_pairs(ref, subject, baseline, metric, variant, qualifiers)
        by_label = {c.label: c for c in (ratio_candidate(t, b) for t, b in pairs)}
        if by_label:
            return tuple(by_label.values()), f"ratio of {subject} to {baseline} on {metric}"
        vendor = vendor_candidates(ref, subject, baseline, metric)
        if vendor:  # "FP8 six times the A100's": the A100 has no FP8 figure
            return vendor, f"vendor ratios for the pair (no {metric} figures for both chips)"
        return (), f"no {metric} figures for both chips"
    cands = vendor_candidates(ref, subject, baseline)
    return cands, ("vendor ratios for the pair" if cands else
                   f"no metric and no vendor ratio for {subject} vs {baseline}")
