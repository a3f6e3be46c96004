r"""The normalize stage's structural patterns, in one place.

``text`` uses them: the "?" of a space lost in scraping, and the pieces of the pinyin
noise pattern (a syllable, the Han ranges), which ``text._noise_pattern`` completes with
the syllables of data/pinyin_noise.tsv. Patterns built from data files (number
characters, normalize characters, the traditional-to-simplified trie) stay where they
are built (``numerals``, ``text``, ``script``).

``re.VERBOSE`` patterns: a literal space is ``\ `` (or ``[ ]``) and ``#`` is ``\#``.
Fragments that go into other patterns are written without VERBOSE.
"""
from __future__ import annotations

import re

from ..regex_screens import compile_pattern

TONE_VOWELS = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜńňǹḿ"
# One pinyin syllable: optional initial, vowels (at least one, maybe tone-marked), final.
SYLLABLE = rf"(?:[bpmfdtnlgkhjqxrzcswy]h?)?[aeiouüv{TONE_VOWELS}]{{1,3}}(?:ng|n|r)?"
HAN_RANGES = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"   # Han characters, for a class

# A space lost in scraping and printed as "?" ("RTX?4090", "2520?MHz"), not a URL's query.
LOST_SPACE = compile_pattern(r"""
    (?<=[A-Za-z0-9])        # after a letter or digit
    \?                      # the "?"
    (?=[A-Za-z0-9])         # before a letter or digit
    (?![A-Za-z0-9_]*+=)     # but not "?key=value"
    """, re.VERBOSE)
