r"""Every structural pattern of the check stage, in one place.

Sections follow the modules that use them: ``rules`` (figures written in a reference
row's value and condition, Tensor Core generations, the cues that credit a figure to
something else), ``rows`` (variant names), ``coverage`` (the checker's own notes) and
``slips`` (unit words).
Patterns built at run time from the lexicon or the table stay where they are built
(``rules.dies``, ``rules._other_card``, ``reference`` finding a chip's name).

Long patterns are written with ``re.VERBOSE``, one part per line with its comment; there,
a literal space is ``\ `` (or ``[ ]``) and ``#`` is ``\#``.
"""
from __future__ import annotations

import re

from ..regex_screens import compile_pattern

# --- rules: figures in a row's value and condition ---------------------------------------

# A figure in a condition: not inside another number; thousands commas; decimals.
# (A fragment: the condition patterns below put it where the figure stands.)
NUM = r"(?<![\d,])(\d[\d,]*+(?:\.\d++)?)"

ORDINAL_TEXT = compile_pattern(r"^(\d+)(?:st|nd|rd|th)$")           # a text value "3rd"

# A reference figure: ASCII digits, thousands grouped by commas or not at all, an optional
# decimal part; no sign, exponent, underscore or other digits.
REFERENCE_NUMBER = compile_pattern(r"""
    (?: [0-9]{1,3} (?:,[0-9]{3})+     # 1,979 (grouped)
      | [0-9]+ )                      # 1979
    (?: \.[0-9]+ )?                   # .5
    """, re.ASCII | re.VERBOSE)

DENSE_FIGURE = compile_pattern(rf"\bdense {NUM}(?![\d.])")          # "(dense 494.5)"
SPARSE_FIGURE = compile_pattern(rf"""
    {NUM}\ (?: with\ (?:2:4\ )?sparsity   # "624 with 2:4 sparsity"
             | sparse )\b                  # "; 624 sparse"
    | sparse\ figure\ {NUM}                # "sparse figure 624"
    """, re.VERBOSE)
PRELIMINARY_SAID = compile_pattern(rf"""
    \b(?:preliminary|preannouncement)\b   # the earlier state
    [^;()]*?                               # in the same clause
    \bsaid\ {NUM}                          # "... said 15"
    (?!\s*TB/s)                            # not a bandwidth quoted beside it
    """, re.VERBOSE)
FP32_MATRIX = compile_pattern(rf"FP32 matrix (?:=|also) {NUM}")     # AMD "FP32 matrix = 95.7"
BF16_SAME = compile_pattern(r"same for BF16|\(BF16 same\)")         # an FP16 row that is BF16's too
TSMC_4N = compile_pattern(r"\b4NP?\b")                              # TSMC 4N / 4NP

# Vendor ratios: "2.5x", "20×" and "+73%", "~90%" (sign kept apart).
RATIO_X = compile_pattern(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[x×]")
RATIO_PCT = compile_pattern(r"(?<![\d.])([+-]?)(\d+(?:\.\d+)?)\s*%")

# --- rules: Tensor Core generations in a condition ("3rd gen", "third-generation", "第三代")

ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                 "ninth")
GEN_EN = compile_pattern(r"""
    (?<![\w])
    (?: (?P<num>\d)(?:st|nd|rd|th)         # "3rd"
      | (?P<word>""" + "|".join(ORDINAL_WORDS) + r""") )   # "third"
    [\s-]*gen(?:eration)?(?![a-z])\.?      # "-gen", " generation", "gen."
    """, re.IGNORECASE | re.VERBOSE)
GEN_ZH = compile_pattern(r"第\s*(?P<zh>[一二三四五六七八九]|\d)\s*代")   # "第三代", "第 3 代"
GEN_AFTER = compile_pattern(r"""
    (?:tensor[\s-]*cores?|张量核心|張量核心)   # "Tensor Cores"
    [\s-]*[(（]?\s*                          # "(" or a blank
    gen(?:eration)?[\s.:-]*                  # "Gen", "generation:"
    (?P<num>\d)(?![\d.])                     # "3", a single digit
    """, re.IGNORECASE | re.VERBOSE)
TENSOR_NEXT = compile_pattern(r"(?:tensor|张量|張量|TCs?\b)", re.IGNORECASE)   # after the ordinal
TENSOR_BEFORE = compile_pattern(r"(?:tensor[\s-]*cores?|张量核心|張量核心)\s*$",   # before it
                                re.IGNORECASE)
FUNCTION_WORD = compile_pattern(r"(?:with|and|in|of|for|on|per|x)\b", re.IGNORECASE)
WORD_NEXT = compile_pattern(r"[A-Za-z\u4e00-\u9fff]")                # another noun follows
SPACED_DASH = compile_pattern(r"\s[—–-]+\s")                        # a dash that ends a clause

# --- rules: cues that credit a condition's figure to something other than the row --------

OWN_SOURCE = compile_pattern(r"\b(?:this|same|the row's|its own) source\b", re.IGNORECASE)
CUES = {
    "another card": compile_pattern(r"""
        \b(?: vs\.?|versus|than|unlike|whereas|while|like|same\ as
            | as\ (?:on|in|with)\ the
            | predecessor|successor|previous|prior|older|newer|compared )\b
        | 相比|对比|對比|前代|上一代|下一代
        """, re.IGNORECASE | re.VERBOSE),
    "another source": compile_pattern(r"""
        \b(?: according
            | per(?!\s+(?:sm|gpu|die|chip|card|clock|second)\b)   # not "per SM", "per second"
            | says?|said|reports?|reported|lists?|listed|claims?|claimed|quotes?|quoted
            | cites?|cited|states?|stated
            | wiki\w*|techpowerup|product\ page|data\ ?sheet|spec\ sheet|whitepaper|review\w*
            | database|forum|other|another|elsewhere|some|alternative|third-party|secondary
            | sources? )\b
        | 据|據|另一|其他|有的|报道|報導
        """, re.IGNORECASE | re.VERBOSE),
    "a conflicting report": compile_pattern(r"""
        \b(?:or|either|unclear|uncertain|unconfirmed|disputed?)\b
        | \?|？|存疑|或
        | (?:\d(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth)\s*[/&]   # "3rd/4th"
        """, re.IGNORECASE | re.VERBOSE),
    "a preliminary state": compile_pattern(r"""
        \b(?: preliminary|pre-?announce\w*|pre-?launch|pre-?release|announced|announcement
            | initial(?:ly)?|original(?:ly)?|early|earlier|planned|expected|tentative|projected
            | rumou?r\w*|leak\w*|engineering\ sample|roadmap|revised|changed|was )\b
        | 初步|预发布|預發布|预告|預告|早期|原定|传闻|傳聞
        """, re.IGNORECASE | re.VERBOSE),
    "a base clock": compile_pattern(r"\bbase\b|基础频率|基礎頻率|基礎時脈|基准频率", re.IGNORECASE),
}
# A conflict reported anywhere in the condition leaves none of its ordinals the row's own.
CONFLICT = compile_pattern(r"""
    \b(?:conflict\w*|disagree\w*|inconsistent|discrepan\w*|contradict\w*)\b
    | 冲突|衝突|矛盾|不一致
    """, re.IGNORECASE | re.VERBOSE)
# A model-like label another card goes by: "A40:", "MI250X =", "H800's".
LABEL = compile_pattern(r"""
    (?<![\w])
    ([A-Za-z][A-Za-z]{0,6}[\s-]?\d{1,4}[A-Za-z]{0,3})   # letters, digits, a suffix
    \s*(?:[:：=]|['’]s\b)                              # then a colon, "=" or "'s"
    """, re.VERBOSE)

# --- rows: a variant's name as tokens ("SXM4 80GB" -> sxm4, 80gb) -------------------------

VARIANT_GB = compile_pattern(r"""
    (?<!\d)(\d++)       # a whole number: the group the memory size keeps
    \s*+g(?:i?b)?        # "GB", "GiB", "G" (lower case), a blank allowed before it
    (?![a-z])            # and no longer word
    """, re.VERBOSE)
VARIANT_TOKEN = compile_pattern(r"[a-z0-9]+")

# --- ratios: a precision word of a speed-up's metric (built per metric, or nothing) -------

NOTHING = compile_pattern(r"(?!)")                                  # matches nowhere

# --- coverage: the checker's notes on what the table lacks ------------------------------

UNKNOWN_CHIP = compile_pattern(r"^unknown chip ")
NO_RATIO = compile_pattern(r"^no metric and no vendor ratio for |^no \S+ figures for both chips")

# --- slips: how a surface spells its unit -------------------------------------------------

TOPS_WORD = compile_pattern(r"TOPS", re.I)  # a surface that spells the unit TOPS (unit_mixup)
FLOP_WORD = compile_pattern(r"FLOP", re.I)
