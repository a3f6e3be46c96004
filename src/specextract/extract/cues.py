"""Cue words around a figure (data/cues.tsv): operators, comparisons, exclusions."""
from __future__ import annotations

import re

from ..lexicon.lexicon import Lexicon
from ..lexicon.made import built
from ..lexicon.trie import squash, trie_regex
from ..regex_screens import compile_pattern


def cue_pattern(lex: Lexicon, kind: str, anchor: str = "") -> re.Pattern:
    """Regex of the cues of ``kind`` (longest first); ``anchor`` '$' pins it to the end
    of the searched text, '^' to the start."""
    return built(lex, _cue_pattern, kind, anchor)


def _cue_pattern(lex: Lexicon, kind: str, anchor: str) -> re.Pattern:
    words = [r["cue"] for r in lex.of_kind("cues.tsv", kind)]
    core = trie_regex(words)
    if anchor == "$":
        return compile_pattern(rf"(?:{core})\s*$")
    if anchor == "^":
        return compile_pattern(rf"^\s*(?:{core})")
    return compile_pattern(core)   # in any case by itself (see trie_regex)


def cue_values(lex: Lexicon, kind: str) -> dict[str, str]:
    return {squash(r["cue"]): r["value"] for r in lex.of_kind("cues.tsv", kind)}


def cue_value(lex: Lexicon, kind: str, matched: str) -> str:
    return built(lex, cue_values, kind).get(squash(matched), "")
