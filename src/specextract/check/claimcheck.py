"""One claim against the reference table: its candidates, the best verdict, the expected
value and why it is wrong (``check_claim``). :mod:`.checker` runs it over a document's claims
with its fault handling around each call.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Sequence

from ..codebook import CONTRADICTED, SUPPORTED, UNVERIFIABLE
from ..records import CheckedClaim, Claim
from .diagnose import diagnose, explains
from .ratios import Candidate, from_row, speedup_candidates
from .reference import Reference
from .rows import Selection, select_rows
from .slips import figure_slips
from .verdicts import judge, sort_key

def check_claim(claim: Claim, ref: Reference) -> CheckedClaim:
    """The verdict, expected value, source and diagnosis of one claim."""
    selection: Selection | None = None
    candidates: Sequence[Candidate]
    notes: tuple[str, ...]
    if not isinstance(claim.value, Decimal) or not claim.value.is_finite():
        return CheckedClaim(claim, UNVERIFIABLE, notes=(f"value {claim.value!r} is not a number",))
    if claim.attribute == "speedup":
        candidates, note = speedup_candidates(ref, claim.entity, claim.baseline, claim.metric,
                                              claim.variant, claim.qualifiers)
        notes = (note,)
    else:
        selection, candidates = _selection(ref, claim)
        notes = selection.notes
    if not candidates:
        return CheckedClaim(claim, UNVERIFIABLE, notes=notes or ("no reference row",))
    verdict, dev, index = best_candidate(claim, candidates)
    slips = None if verdict == SUPPORTED else _slips(claim, candidates)
    if verdict == CONTRADICTED:
        dev, index = _explained(claim, candidates, dev, index, slips)
    best = candidates[index]
    return CheckedClaim(
        claim, verdict,
        expected=best.value,
        expected_variant=best.variant,
        expected_condition=best.condition,
        deviation=None if dev is None else float(dev),
        diagnosis=_diagnose_safely(claim, verdict, candidates, selection, ref, slips),
        source=best.source,
        confidence=best.confidence,
        notes=notes,
    )


SELECTION_CACHE_SIZE = 20_000


def _selection(ref: Reference, claim: Claim) -> tuple[Selection, tuple[Candidate, ...]]:
    """select_rows for the claim's chip, attribute, variant and qualifiers, and its rows as
    candidates (Candidates are immutable: built once per table and arguments; remembered
    under the qualifiers as written, whose set is made only then)."""
    key = (claim.entity, claim.attribute, claim.variant, claim.qualifier)
    return ref.memoized("check.selection", key, _candidates, ref, claim,
                        limit=SELECTION_CACHE_SIZE)


def _candidates(ref: Reference, claim: Claim) -> tuple[Selection, tuple[Candidate, ...]]:
    selection = select_rows(ref, claim.entity, claim.attribute, claim.variant, claim.qualifiers)
    return selection, tuple(from_row(r) for r in selection.rows)


def _slips(claim: Claim, candidates: Sequence[Candidate]) -> list[tuple[str, str, str] | None] | None:
    """number_slips of each candidate's figure (None for a candidate without one); None
    when a detector fails on one (each then runs, and fails, where it did alone)."""
    has = [_has_figure(c) for c in candidates]
    try:
        found = iter(figure_slips(claim, [(c.value, *c.figure)  # type: ignore[misc]
                                          for c, figure in zip(candidates, has) if figure]))
    except Exception:  # noqa: BLE001 - the detectors one by one decide what fails then
        return None
    return [next(found) if figure else None for figure in has]


def _has_figure(cand: Candidate) -> bool:
    """A figure the slip detectors and diagnoses read (diagnose's ``numbers``)."""
    return cand.value is not None and not cand.not_supported


def _diagnose_safely(claim: Claim, verdict: str, candidates: Sequence[Candidate],
                     selection: Selection | None, ref: Reference,
                     slips: list[tuple[str, str, str] | None] | None = None) -> str:
    try:
        return diagnose(claim, verdict, candidates, selection, ref,
                        None if slips is None else [s for s in slips if s is not None])
    except Exception:  # noqa: BLE001 - a diagnosis is an aid; the verdict stands without it
        return ""


UNJUDGED = Decimal("Infinity")   # a not-supported or figureless candidate ranks after all
BEST_KEY = sort_key(SUPPORTED, Decimal(0), "high")[:3]   # the least sort key a figure can have


def best_candidate(claim: Claim, candidates: Sequence[Candidate]) -> tuple[str, Decimal | None, int]:
    """Best verdict over the candidates (the first of equal sort keys), its deviation and
    the best one's position; for contradicted, the nearest numeric one."""
    if not candidates:
        raise ValueError("best_candidate: no candidates")
    best: tuple[tuple, str, Decimal | None, int] | None = None
    for order, cand in enumerate(candidates):
        value = cand.judged_value
        judged: tuple[tuple, str, Decimal | None, int]
        if cand.not_supported or value is None or not value.is_finite():
            judged = ((3, UNJUDGED, 9, order), CONTRADICTED, None, order)
        else:
            verdict, dev = judge(claim.value, value, claim.precision_exp, claim.operator)
            judged = (sort_key(verdict, dev, cand.confidence, order), verdict, dev, order)
        if best is None or judged[0] < best[0]:
            best = judged
            if best[0][:3] == BEST_KEY:
                break  # supported, exactly, at the highest confidence: no later one ranks first
    assert best is not None  # (candidates is not empty)
    _, best_verdict, best_dev, index = best
    return best_verdict, best_dev, index


def _explained(claim: Claim, candidates: Sequence[Candidate], dev: Decimal | None,
               best: int, slips: list[tuple[str, str, str] | None] | None = None
               ) -> tuple[Decimal | None, int]:
    """For a wrong figure, the candidate a unit, power-of-ten or digits diagnosis names
    (FP64 "97" is 10x 9.7, not the nearer Tensor 19.5), so that the expected value and the
    diagnosis agree; the nearest one when no such slip explains the figure. ``best``: the
    nearest one's position, as is the one returned; ``slips``: the candidates' _slips, when
    worked out."""
    def explained(index: int) -> bool:
        if slips is None:
            return explains(claim, candidates[index].value)  # type: ignore[arg-type]
        return any(slips[index])  # type: ignore[arg-type]

    if _has_figure(candidates[best]) and explained(best):
        return dev, best
    for index, cand in enumerate(candidates):
        value = cand.judged_value
        if _has_figure(cand) and value is not None and value.is_finite() and explained(index):
            return judge(claim.value, value, claim.precision_exp, claim.operator)[1], index
    return dev, best
