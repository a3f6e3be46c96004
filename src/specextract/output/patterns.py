r"""The output stage's structural patterns, in one place: reading a reference row's source
(``citation``), writing HTML (``pages``, ``index``) and shortening a diagnosis (``worst``).

``re.VERBOSE`` patterns: a literal space is ``\ `` (or ``[ ]``) and ``#`` is ``\#``.
"""
from __future__ import annotations

import re

from ..regex_screens import compile_pattern

# --- citation: a source as publisher, title, date ----------------------------------------

SOURCE_URL = compile_pattern(r"https?://[^\s\"'<>|()]+")     # ends before " | " and "(...)"
SOURCE_DATE = compile_pattern(r"""
    \b( \d{4}-\d{2}(?:-\d{2})?                              # 2020-05 or 2020-05-14
      | (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\ \d{4}   # May 2020
      | (?:19|20)\d{2} )\b                                  # 2020
    """, re.VERBOSE)
QUOTED_TITLE = compile_pattern(r"""
    (?:^|[\s(])            # at the start, after a blank or "("
    '([^']{3,80})'         # 'a title' of 3-80 characters
    (?=[\s,;.)]|$)         # then a blank, punctuation or the end
    """, re.VERBOSE)
PAREN_OPEN = compile_pattern(r"\(([^()]*)")                  # "(" and what follows up to a bracket
NOT_A_PUBLISHER = compile_pattern(r"[:'\"]")                  # a colon or a quote

# --- pages and index: HTML ------------------------------------------------------------

HTML_SPECIAL = compile_pattern(r"[&<>\"']")                   # characters to escape
SAFE_CHARS = compile_pattern(r"[^A-Za-z0-9_-]+")              # what a file name replaces
PAGE_URL = compile_pattern(r"https?://[^\s\"'<>]+")           # a link in a source

# --- worst: a diagnosis in a few words -------------------------------------------------

# "... is V100's fp32 figure": whose figure (bounded: linear time).
OWNER = compile_pattern(r"""
    \ is\ (?P<owner>[^'\ ][^']{0,39})     # " is NVIDIA V100"
    's\ (?P<attribute>\w{1,40})\ figure   # "'s fp32 figure"
    """, re.VERBOSE)
RATIO_HEAD = compile_pattern(r"^[\d.]+x? is ")                # "2.5x is " before a ratio's name
