"""What the reference table lacks for a corpus: the to-do list for its next rows.

Input: checked claims. Output: the chips the table has no rows for, the (chip, attribute)
pairs it has no row for, and the speed-up pairs with neither figures nor a vendor ratio,
each with the number of claims it leaves unverifiable. The checker's own notes say why a
claim found no row, so coverage sees exactly what the checker saw.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from ..codebook import UNVERIFIABLE
from ..records import CheckedClaim
from .patterns import NO_RATIO, UNKNOWN_CHIP

NO_ROW = "no reference row"


@dataclass
class Coverage:
    """Claims the table cannot judge, counted by what it lacks."""

    claims: int = 0
    chips: Counter = field(default_factory=Counter)          # entity -> claims
    attributes: Counter = field(default_factory=Counter)     # (entity, attribute) -> claims
    ratios: Counter = field(default_factory=Counter)         # (entity, baseline, metric) -> claims

    @property
    def lacking(self) -> int:
        return sum(self.chips.values()) + sum(self.attributes.values()) + sum(self.ratios.values())


def coverage(checked: Iterable[CheckedClaim]) -> Coverage:
    """Count every unverifiable claim whose reason is a missing row, chip or ratio."""
    out = Coverage()
    for c in checked:
        out.claims += 1
        if c.verdict != UNVERIFIABLE:
            continue
        claim = c.claim
        if any(UNKNOWN_CHIP.match(n) for n in c.notes):
            out.chips[claim.entity] += 1
        elif NO_ROW in c.notes and claim.attribute != "speedup":
            out.attributes[(claim.entity, claim.attribute)] += 1
        elif claim.attribute == "speedup" and any(NO_RATIO.match(n) for n in c.notes):
            out.ratios[(claim.entity, claim.baseline, claim.metric)] += 1
    return out


def render(cov: Coverage) -> list[str]:
    """The to-do list as text, largest gaps first."""
    share = cov.lacking / cov.claims if cov.claims else 0.0
    lines = [f"{cov.lacking} of {cov.claims} claims unverifiable for want of reference rows "
             f"({share:.1%})"]
    chip_width = max((len(e) for e, _ in cov.attributes), default=0)
    sections = (
        ("chips the table lacks", [(f"{e}", n) for e, n in cov.chips.most_common()]),
        ("attributes the table lacks for a chip it has",
         [(f"{e:<{chip_width}}  {a}", n) for (e, a), n in cov.attributes.most_common()]),
        ("speed-ups with no figures and no vendor ratio for the pair",
         [(f"{e} vs {b}" + (f"  ({m})" if m else ""), n) for (e, b, m), n in cov.ratios.most_common()]),
    )
    for title, items in sections:
        lines += ["", f"{title}: {len(items)}"]
        width = max((len(label) for label, _ in items), default=0)
        lines += [f"  {label:<{width}}  {n:>5}" for label, n in items]
    return lines
