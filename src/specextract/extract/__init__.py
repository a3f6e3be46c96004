"""Extract: normalized text -> claim records with offsets into the original.

Enters: a document's text (or a :class:`~specextract.records.Document`, ``document``).
Inside: ``numbers`` and ``quantities`` (figures with units and magnitudes), ``mentions``
(chips, attribute keywords, qualifiers), ``segment`` (sentences, clauses), ``cues``
(operators, comparison and hedge words), ``prose`` (linking figures to chips in
sentences, comparisons, speed-ups), ``tables`` (grid and flattened tables), ``claims``
(the stage as one function), ``blocks`` (long documents block by block), ``patterns``
(the stage's fixed regular expressions, one section per module).
Leaves: ``list[Claim]`` (codebook columns, ``start``/``end`` into the original text).
"""
from __future__ import annotations

from .claims import extract, extract_normalized, find_all

__all__ = ["extract", "extract_normalized", "find_all"]
