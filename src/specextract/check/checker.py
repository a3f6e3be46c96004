"""Check claims against the reference table: ``check(claims) -> list[CheckedClaim]``.

One claim at a time: pick the applicable reference figures (rows / ratios), judge the
value against each (verdicts), keep the best verdict, fill ``expected`` from the matching
row (supported, approximate) or the nearest one (contradicted), and say why it is not
supported (diagnose). Then, per document, mark claims that another claim about the same
chip and attribute disagrees with (check.contradictions). (``consensus.py`` tabulates values
across documents.)
"""
from __future__ import annotations

from typing import Iterable

from ..codebook import UNVERIFIABLE
from ..records import CheckedClaim, Claim
from .accusations import guard
from .claimcheck import check_claim
from .contradictions import self_contradictions
from .reference import Reference, load_reference


def check(claims: Iterable[Claim], reference: Reference | None = None) -> list[CheckedClaim]:
    """Verdict, expected value, evidence and diagnosis for every claim, in input order."""
    ref = reference if reference is not None else load_reference()
    claims = list(claims)
    checked = [guard(_check_safely(claim, ref)) for claim in claims]
    try:
        contradictions = self_contradictions(claims)
    except Exception:  # noqa: BLE001 - a flag, never worth losing the verdicts over
        contradictions = {}
    for index, text in contradictions.items():
        checked[index] = _flagged(checked[index], text)
    return checked


def _flagged(checked: CheckedClaim, text: str) -> CheckedClaim:
    """replace(checked, self_contradiction=text), without dataclasses.replace's checks
    (CheckedClaim's fields are all init fields, and its instance dict holds just those)."""
    return CheckedClaim(**{**vars(checked), "self_contradiction": text})


def _check_safely(claim: Claim, ref: Reference) -> CheckedClaim:
    """check_one, but a claim the rules cannot handle is unverifiable, not an exception.
    (No verdict cache: the reference's memoized selections make a repeated figure cheap; a
    cache of whole verdicts saved under 1% of the check stage, 243 vs 244 M instructions
    per pass over corpus/.)"""
    try:
        return check_one(claim, ref)
    except Exception as exc:  # noqa: BLE001 - check() must return a verdict for every claim
        return CheckedClaim(claim, UNVERIFIABLE,
                            notes=(f"not checked: {type(exc).__name__}: {exc}",))


def check_one(claim: Claim, ref: Reference) -> CheckedClaim:
    """One claim's verdict (:func:`.claimcheck.check_claim`; the name a test replaces to
    make one claim fail)."""
    return check_claim(claim, ref)
