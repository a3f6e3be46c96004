"""Cue words around a figure (data/cues.tsv): operators, comparisons, exclusions."""
from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon.files import bundled
from ..lexicon.trie import squash, trie_regex


@lru_cache(maxsize=None)
def cue_pattern(kind: str, anchor: str = "") -> re.Pattern:
    """Regex of the cues of ``kind`` (longest first); ``anchor`` '$' pins it to the end
    of the searched text, '^' to the start."""
    words = [r["cue"] for r in bundled("cues.tsv", ("cue", "kind", "value")) if r["kind"] == kind]
    core = trie_regex(words)
    if anchor == "$":
        return re.compile(rf"(?:{core})\s*$", re.IGNORECASE)
    if anchor == "^":
        return re.compile(rf"^\s*(?:{core})", re.IGNORECASE)
    return re.compile(core, re.IGNORECASE)


@lru_cache(maxsize=None)
def cue_values(kind: str) -> dict[str, str]:
    return {squash(r["cue"]): r["value"] for r in bundled("cues.tsv", ("cue", "kind", "value"))
            if r["kind"] == kind}


def cue_value(kind: str, matched: str) -> str:
    return cue_values(kind).get(squash(matched), "")
