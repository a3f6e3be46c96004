"""Diagnoses of a wrong speed-up claim: a ratio formed with sparse figures, another
precision or rows the claim's qualifiers exclude; another chip pair's vendor ratio;
the vendor ratio the claim repeats.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..codebook import CONTRADICTED
from ..records import Claim
from .figures import (MISATTRIBUTED, SPARSE_AS_DENSE, VENDOR_RATIO, WRONG_PRECISION,
                      WRONG_QUALIFIER, may_match, number_text, safe_float)
from .ratios import Candidate, metric_pairs, ratio_candidate, same_kind
from .reference import Reference, RefRow
from .rules import entity_key
from .verdicts import deviation, matches


def speedup_parts(claim: Claim, verdict: str, ref: Reference,
                   candidates: Sequence[Candidate]) -> list[str]:
    """A ratio formed with sparse figures, stand-in precisions or rows the claim's qualifiers
    exclude; another pair's vendor ratio."""
    if not claim.metric:
        return _ratio_misattributed(claim, ref) if verdict == CONTRADICTED else []
    judged = {c.label for c in candidates}
    ratios, bottoms = _diagnose_ratios(ref, claim.entity, claim.baseline, claim.metric,
                                       claim.variant)
    says_sparse = "sparse" in claim.qualifiers
    number = safe_float(claim.value)
    hits = []
    for top, bottom, cand, figure in ratios:
        if cand.label in judged or not (may_match(number, figure)
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
    return [f"{kind}: {number_text(claim.value)}x is the ratio {cand.label} = "
            f"{number_text(cand.value)}"]


def _diagnose_ratios(ref: Reference, subject: str, baseline: str, metric: str, variant: str
                     ) -> tuple[tuple, dict[str, list[RefRow]]]:
    """Every (top, bottom, ratio candidate, its value as a safe_float) a wrong speed-up
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
    return tuple((t, b, c, safe_float(c.value)) for t, b, c in cands), bottoms  # type: ignore[arg-type]


def _ratio_misattributed(claim: Claim, ref: Reference) -> list[str]:
    """A speed-up without a metric that is another chip pair's vendor ratio."""
    pair = (entity_key(claim.entity), entity_key(claim.baseline))
    hits = [r for r in ref.marketing
            if (entity_key(r.subject_entity), entity_key(r.baseline_entity)) != pair
            and r.subject_entity and any(matches(claim.value, v) for v in r.values)]
    # a ratio that involves one of the claim's chips is the likelier source
    hits.sort(key=lambda r: (not {entity_key(r.subject_entity),
                                  entity_key(r.baseline_entity)} & set(pair), r.line))
    return [f"{MISATTRIBUTED}: {number_text(claim.value)}x is the vendor's {r.subject} over "
            f"{r.baseline} ratio ({r.ratio!r}: {r.condition})" for r in hits[:1]]


def vendor_ratio(claim: Claim, ref: Reference) -> list[str]:
    """The vendor ratio of the claim's own pair that the claim repeats."""
    if not claim.metric:
        return []
    hits = [r for r in ref.ratios(claim.entity, claim.baseline)
            if any(matches(claim.value, v) for v in r.values)]
    return [f"{VENDOR_RATIO}: matches {r.subject} vs {r.baseline} {r.ratio!r} ({r.condition})"
            for r in hits[:1]]
