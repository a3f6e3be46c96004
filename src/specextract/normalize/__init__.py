"""Normalize: article text -> one form, with a map back to the original.

Enters: the text of a document.
Leaves: :class:`Normalized` (``text``): pinyin noise and invisible characters out,
full-width ASCII folded, traditional -> simplified (``script``), the script detected, and
an :class:`~specextract.normalize.offsets.OffsetMap` from every normalized character to
the original (``offsets``). The stage's fixed regular expressions are in ``patterns``.
"""
from __future__ import annotations

from .offsets import OffsetMap
from .text import Normalized, normalize

__all__ = ["Normalized", "OffsetMap", "normalize"]
