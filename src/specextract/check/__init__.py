"""Check: claims -> verdicts against the sourced reference table.

Enters: ``Claim`` records and a :class:`Reference` (``reference``: load and validate
``specs.csv`` / ``marketing_ratios.csv``; ``rules``: how reference rows reach the
codebook's names).
Inside: ``rows`` (the reference rows that apply to a claim), ``ratios`` (speed-up
claims against marketing ratios and computed ones), ``verdicts`` (the codebook's
tolerance rules), ``diagnose`` (why a figure is wrong: the order of the detectors in
``lookalikes``, ``slips`` and ``speedup_causes``, with the terms and float pre-tests of
``figures``), ``claimcheck`` (one claim: its candidates, best verdict, expected value and
diagnosis), ``checker`` (the stage: the loop over a document's claims, each one's failure
caught), ``consensus`` (values per chip and attribute across
documents, by the store's query), ``accusations`` (a contradicted verdict only through a
close link), ``contradictions`` (claims of one document that disagree), ``names`` (a
user's names for chips and attributes), ``validate`` and ``coverage`` (what is wrong with,
and missing from, a reference table), ``patterns`` (the stage's fixed regular expressions).
Leaves: ``CheckedClaim`` records (verdict, expected value, source, diagnosis) and the
per-chip ``consensus`` table.
"""
from __future__ import annotations

from .checker import check, check_one
from .consensus import CONSENSUS_COLUMNS, consensus
from .reference import Reference, ReferenceTableError, RefRow, load_reference

__all__ = ["CONSENSUS_COLUMNS", "Reference", "ReferenceTableError", "RefRow", "check", "check_one",
           "consensus", "load_reference"]
