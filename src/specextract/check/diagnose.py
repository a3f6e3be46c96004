"""Why a claim is not supported, as far as the reference shows it (codebook, Diagnoses).

``diagnose`` returns '; '-joined parts, most specific first; each part starts with one of
the keywords of :mod:`.figures` (``DIAGNOSES``) so the export can be filtered on it. This
module orders the detectors; each cause has its own module:

- :mod:`.lookalikes`: the value is another figure of the reference (another precision,
  variant or chip);
- :mod:`.slips`: a unit mix-up, a power of ten, swapped digits;
- :mod:`.speedup_causes`: speed-up ratios;
- :mod:`.figures`: keywords, wording and the float pre-tests they share.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Callable, Sequence

from ..codebook import CONTRADICTED, FULL_DIE_VARIANT, SUPPORTED
from ..records import Claim
from .figures import DIAGNOSES  # noqa: F401 - the keywords, named here as before
from .figures import (FULL_DIE, NOT_SUPPORTED, PRELIMINARY, approx_ratios, number_text,
                      row_text)
from .lookalikes import may_explain, misattributed, wrong_precision, wrong_variant
from .ratios import Candidate
from .reference import Reference
from .rows import Selection
from .slips import digits_swapped, magnitude, slip_parts, unit_factor, unit_mixup
from .speedup_causes import speedup_parts, vendor_ratio
from .verdicts import matches


def diagnose(claim: Claim, verdict: str, candidates: Sequence[Candidate],
             selection: Selection | None, ref: Reference,
             slips: list[tuple[str, str, str]] | None = None) -> str:
    """'; '-joined diagnoses for a claim that is not supported ('' when none applies).
    ``slips``: number_slips of the candidates' figures, when the caller has them."""
    if verdict == SUPPORTED:
        return selection.qualifier_wrong if selection else ""
    parts: list[str] = []
    numbers = [c.value for c in candidates if c.value is not None and not c.not_supported]
    if claim.attribute == "speedup":
        parts += speedup_parts(claim, verdict, ref, candidates)
    elif selection is not None:
        full_die = _full_die(claim, verdict)   # (then no other chip's figure is the cause)
        parts += _not_supported(claim, verdict, selection) + full_die
        # The most specific explanation the reference shows, in this order: another of the
        # chip's own figures, its preliminary figure, another variant's, another chip's.
        if verdict == CONTRADICTED and may_explain(claim, ref) and not full_die:
            explain: tuple[Callable[[Claim, Reference, Selection], list[str]], ...] = (
                wrong_precision, _preliminary_of, wrong_variant, misattributed)
        else:  # (contradicted: no figure the other three search can match the claim)
            explain = (_preliminary_of,)
        for rule in explain:
            found = rule(claim, ref, selection)
            if found:
                parts += found
                break
    if slips is None:
        ratios = approx_ratios(claim.value, numbers)
        parts += unit_mixup(claim, numbers, ratios)
        parts += magnitude(claim, numbers, ratios)
        parts += digits_swapped(claim, numbers)
    else:
        parts += slip_parts(claim, numbers, slips)
    if claim.attribute == "speedup":
        parts += vendor_ratio(claim, ref)
    if selection is not None and selection.qualifier_wrong:
        parts.append(selection.qualifier_wrong)
    return "; ".join(dict.fromkeys(parts))


def _not_supported(claim: Claim, verdict: str, sel: Selection) -> list[str]:
    absent = [r for r in sel.rows if r.not_supported]
    if verdict != CONTRADICTED or not absent or any(r.value is not None for r in sel.rows):
        return []
    why = f" ({absent[0].condition})" if absent[0].condition else ""
    return [f"{NOT_SUPPORTED}: the reference says {claim.entity} has no {claim.attribute}{why}"]


def _full_die(claim: Claim, verdict: str) -> list[str]:
    """'完整的 GA100 有 128 个 SM': the text speaks of the whole die, which the codebook
    makes its product; the product sold under that name enables fewer units."""
    if verdict != CONTRADICTED or claim.variant != FULL_DIE_VARIANT:
        return []
    return [f"{FULL_DIE}: {number_text(claim.value)} is said of the whole, uncut die; "
            f"the {claim.entity} sold enables fewer units"]


def _preliminary_of(claim: Claim, ref: Reference, sel: Selection) -> list[str]:
    hits = [r for r in sel.preliminary if r.value is not None and matches(claim.value, r.value)]
    return [f"{PRELIMINARY}: {number_text(claim.value)} is the preliminary figure "
            f"{row_text(r)} ({r.condition})" for r in hits[:1]]


def explains(claim: Claim, value: Decimal) -> bool:
    """Does a unit slip, a power of ten or swapped digits turn the reference figure
    ``value`` into the claim's? (The figure such a diagnosis names is the expected one.)"""
    numbers = [value]
    return bool(unit_factor(claim, numbers) or magnitude(claim, numbers)
                or digits_swapped(claim, numbers))
