"""What a speed-up claim is judged against (codebook, last paragraph of Verdicts).

With a metric: the ratio of the two chips' reference values on it; for ``compute`` the
per-precision ratios both chips have, dense against dense, and the best one counts.
Without one: the vendor's published ratios for the pair (marketing_ratios.csv).
Each reference value is a ``Candidate``; the checker judges the claim against all of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .reference import Reference, RefRow
from .rowselect import COMPUTE, COMPUTE_ATTRIBUTES, select_rows
from .verdicts import CONFIDENCE_RANK

RATIO_PLACES = Decimal("0.001")


@dataclass(frozen=True)
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


def from_row(row: RefRow) -> Candidate:
    return Candidate(row.value, row.variant, row.condition, row.source, row.confidence,
                     row.not_supported, row)


def _describe(row: RefRow) -> str:
    quals = " ".join(q for q in ("tensor", "sparse") if q in row.qualifiers)
    return f"{row.entity} {row.attribute}{' ' + quals if quals else ''} {row.value}"


def _worse(a: str, b: str) -> str:
    return max(a, b, key=lambda c: CONFIDENCE_RANK.get(c, 3))


def ratio_candidate(top: RefRow, bottom: RefRow) -> Candidate:
    ratio = (top.value / bottom.value).quantize(RATIO_PLACES)  # type: ignore[operator]
    label = f"{_describe(top)} / {_describe(bottom)}"
    sources = " | ".join(dict.fromkeys((top.source, bottom.source)))
    return Candidate(ratio, top.variant, f"ratio {label} = {ratio}", sources,
                     _worse(top.confidence, bottom.confidence), label=label)


def _usable(row: RefRow) -> bool:
    return not row.not_supported and row.value is not None and row.value > 0


def _dense(row: RefRow) -> bool:
    return "sparse" not in row.qualifiers


# Cross-precision comparisons vendors make (NVIDIA: A100 TF32 vs V100 FP32, FP16 mixed
# precision vs FP32, H100 FP8 vs A100 FP16). Used only to explain a contradicted speed-up.
STAND_INS = frozenset({("tf32", "fp32"), ("fp16", "fp32"), ("bf16", "fp32"), ("bf16", "fp16"),
                       ("fp16", "bf16"), ("fp8", "fp16"), ("fp8", "bf16")})


def _tensor(row: RefRow) -> bool:
    return "tensor" in row.qualifiers


def _same_kind(tops: list[RefRow], bottoms: list[RefRow]) -> list[tuple[RefRow, RefRow]]:
    """Tensor against Tensor and plain against plain; across the two only where one chip
    lacks that kind (A100 FP64 Tensor vs V100 FP64, as NVIDIA compares them)."""
    pairs = []
    for t in tops:
        same = [b for b in bottoms if _tensor(b) == _tensor(t)]
        pairs += [(t, b) for b in (same or bottoms)]
    return pairs


def metric_pairs(ref: Reference, subject: str, baseline: str, metric: str, variant: str = "",
                 dense_only: bool = True, cross: bool = False) -> list[tuple[RefRow, RefRow]]:
    """(subject row, baseline row) pairs on a metric; per precision for ``compute``.

    ``dense_only=False`` adds sparse figures and ``cross=True`` the vendor stand-in
    precisions, for diagnoses."""
    attrs = COMPUTE_ATTRIBUTES if metric == COMPUTE else (metric,)
    combos = [(a, a) for a in attrs]
    if cross:
        combos += [(t, b) for t, b in sorted(STAND_INS) if metric in (COMPUTE, t, b)]

    def rows(entity: str, attribute: str, name: str = "") -> list[RefRow]:
        return [r for r in select_rows(ref, entity, attribute, name).rows
                if _usable(r) and (not dense_only or _dense(r))]

    pairs = []
    for top_attr, bottom_attr in combos:
        tops, bottoms = rows(subject, top_attr, variant), rows(baseline, bottom_attr)
        pairs += (_same_kind(tops, bottoms) if top_attr == bottom_attr
                  else [(t, b) for t in tops for b in bottoms])
    return pairs


def speedup_candidates(ref: Reference, subject: str, baseline: str, metric: str,
                       variant: str = "") -> tuple[list[Candidate], str]:
    """Candidates for a speed-up claim and a note saying what they are."""
    if not baseline:
        return [], "speedup without a named baseline chip"
    if metric:
        cands = {c.label: c for c in (ratio_candidate(t, b) for t, b in
                                      metric_pairs(ref, subject, baseline, metric, variant))}
        note = f"ratio of {subject} to {baseline} on {metric}"
        return list(cands.values()), note if cands else f"no {metric} figures for both chips"
    cands = [Candidate(v, r.subject, f"vendor ratio {r.ratio!r} ({r.subject} vs {r.baseline}): "
                       f"{r.condition}", r.source, "", label=f"{r.subject} vs {r.baseline}")
             for r in ref.ratios(subject, baseline) for v in r.values]
    return cands, ("vendor ratios for the pair" if cands else
                   f"no metric and no vendor ratio for {subject} vs {baseline}")
