"""Cue words around a figure (data/cues.tsv): operators, comparisons, exclusions."""
from __future__ import annotations

import re
from functools import lru_cache

from .datafiles import bundled


@lru_cache(maxsize=None)
def cue_pattern(kind: str, anchor: str = "") -> re.Pattern:
    """Regex of the cues of ``kind`` (longest first); ``anchor`` '$' pins it to the end
    of the searched text, '^' to the start."""
    words = [r["cue"] for r in bundled("cues.tsv", ("cue", "kind", "value")) if r["kind"] == kind]
    alternatives = []
    for w in sorted(words, key=len, reverse=True):
        body = re.escape(w).replace(r"\ ", r"\s+")
        if w[0].isascii() and w[0].isalpha():
            body = r"(?<![A-Za-z])" + body
        if w[-1].isascii() and w[-1].isalpha():
            body += r"(?![A-Za-z])"
        alternatives.append(body)
    core = "|".join(alternatives) or "(?!)"
    if anchor == "$":
        return re.compile(rf"(?:{core})\s*$", re.IGNORECASE)
    if anchor == "^":
        return re.compile(rf"^\s*(?:{core})", re.IGNORECASE)
    return re.compile(core, re.IGNORECASE)


@lru_cache(maxsize=None)
def cue_values(kind: str) -> dict[str, str]:
    return {r["cue"].lower(): r["value"] for r in bundled("cues.tsv", ("cue", "kind", "value"))
            if r["kind"] == kind}


def cue_value(kind: str, matched: str) -> str:
    return cue_values(kind).get(re.sub(r"\s+", " ", matched.strip().lower()), "")
