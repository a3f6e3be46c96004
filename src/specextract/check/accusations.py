"""When a contradicted verdict stands: only where the text clearly ties the figure to the chip.

A ``contradicted`` verdict accuses an article of a wrong figure. Where the claim's chip was
only carried to the figure from further away (an earlier sentence or paragraph, a pronoun,
a chip named after the figure), a disagreement with the reference is more often the
linking's mistake than the article's. Such a claim is ``unverifiable`` with the reason
"uncertain link", and its diagnosis keeps what the reference says. Claims whose link is
unknown (read from a CSV without one) keep their verdict.
"""
from __future__ import annotations

from ..extract.drafts import LINKS, STRONG_LINKS
from ..decimaltext import format_decimal
from ..records import CheckedClaim
from ..codebook import CONTRADICTED, UNVERIFIABLE

# links through which a disagreement is reported as contradicted: the chip is named where
# the figure is, or heads the table, list or sentence it stands in (or the document, with no
# other chip named up to the list)
ACCUSING_LINKS = STRONG_LINKS | {"sentence", "list-head", "heading"}


def accusable(link: str) -> bool:
    """May a claim linked this way be called contradicted? (Unknown links: yes.)"""
    return not link or link in ACCUSING_LINKS


def guard(checked: CheckedClaim) -> CheckedClaim:
    """``checked`` unchanged, or, for a contradicted claim whose link is weak, the same
    claim made unverifiable with the reason and the reference's figure in its diagnosis."""
    if checked.verdict != CONTRADICTED or accusable(checked.claim.link):
        return checked
    link = checked.claim.link
    expected = format_decimal(checked.expected)
    reason = (f"uncertain link ({LINKS.get(link, link)}): the figure disagrees with the "
              f"reference ({expected} {checked.claim.unit}"
              + (f", {checked.expected_variant}" if checked.expected_variant else "") + ")")
    if checked.diagnosis:
        reason += f"; if the link is right: {checked.diagnosis}"
    fields = {**vars(checked), "verdict": UNVERIFIABLE, "expected": None,
              "expected_variant": "", "expected_condition": "", "deviation": None,
              "diagnosis": reason, "notes": checked.notes + ("uncertain link",)}
    return CheckedClaim(**fields)
