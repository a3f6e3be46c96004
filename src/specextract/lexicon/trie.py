"""Regexes composed from word lists: one factored alternation (a trie) per lexicon.

A plain alternation of hundreds of words makes the regex engine try every word at every
position; a trie tries one character class per position, which keeps a lexicon scan
linear and fast. Longer words win (children are tried before a word ends).
"""
from __future__ import annotations

import re

FLEX_SPACE = "\x00"  # stands for optional white space inside a word
FLEX_SEP = "\x01"  # an optional space or hyphen (model names: "RTX 4090", "RTX-4090")
FLEX_ONE = "\x02"  # at most one space ("MI300X" as "MI 300X")
PIECES = {FLEX_SPACE: r"\s*", FLEX_SEP: r"[\s\-]?", FLEX_ONE: r"\s?"}
# A Latin word starts after no lower-case letter, or right after a unit that ends in one
# ("80GB/sHBM3", "1.4GHzboost", "7nmprocess"). The first look-behind fails at once inside
# most words (after a letter that ends none of those units); the rest are tried only
# after "m", "s" or "z".
LATIN_LEFT = r"(?-i:(?<![a-ln-rt-y])(?:(?<![msz])|(?<=[BbMm]/s)|(?<=Hz)|(?<=nm)))"
LATIN_RIGHT = r"(?-i:(?![a-z]))"
# The lexicon's only fixed pattern (the rest is built from its word lists):
LETTERS_DIGIT = re.compile(r"(?<![A-Za-z])([A-Za-z]{2,}+)(\d)")   # "RTX4090": the seam


def flexible(word: str) -> str:
    """Mark where white space may appear: at spaces, and between Latin and CJK."""
    out = []
    for i, ch in enumerate(word):
        if ch == " ":
            out.append(FLEX_SPACE)
            continue
        if out and out[-1] != FLEX_SPACE and _script(out[-1]) != _script(ch) \
                and "cjk" in (_script(out[-1]), _script(ch)):
            out.append(FLEX_SPACE)
        out.append(ch)
    return "".join(out)


def _script(ch: str) -> str:
    return "cjk" if "\u3400" <= ch <= "\u9fff" else "latin" if ch.isascii() and ch.isalnum() else "other"


def model_name(alias: str) -> str:
    """Mark a model name's flexible seams: spaces (space or hyphen), and the seam between
    a run of two or more letters and a digit (one optional space)."""
    marked = LETTERS_DIGIT.sub(lambda m: m.group(1) + FLEX_ONE + m.group(2), alias)
    return marked.replace(" ", FLEX_SEP)


def plain_trie(words: list[str], mark=lambda w: w, end=lambda w: "", fold: bool = False) -> str:
    """A trie alternation of ``words`` (no boundaries but ``end(word)`` after each), in
    lower case; ``fold``: in either case by itself (see :func:`_folded_piece`)."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in mark(word).lower():
            node = node.setdefault(ch, {})
        node[""] = word
    piece = _folded_piece if fold else _piece
    return _first_chars(trie) + _branches(trie, end, piece) if trie else "(?!)"


def trie_regex(words: list[str]) -> str:
    """A factored alternation matching any of ``words`` in any case (by itself: compile
    it without re.IGNORECASE, see :func:`_folded_piece`).

    Latin words get word boundaries (no lower-case letter before or after); spaces and
    Latin/CJK seams match optional white space."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in flexible(word.lower()):
            node = node.setdefault(ch, {})
        node[""] = word
    latin = {ch: n for ch, n in trie.items() if ch.isascii() and ch.isalnum()}
    other = {ch: n for ch, n in trie.items() if ch not in latin}
    parts = []
    if latin:
        parts.append(f"{_first_chars(latin)}{LATIN_LEFT}"
                     f"{_branches(latin, _latin_end, _folded_piece)}")
    if other:
        parts.append(_first_chars(other) + _branches(other, _latin_end, _folded_piece))
    return either(parts, _first_chars(trie)) if parts else "(?!)"


def either(parts: list[str], first: str) -> str:
    """The alternation of ``parts``, behind ``first`` (the look-ahead on the characters
    any of them can start with, see :func:`first_chars`): a position that starts none
    of them then fails one set test instead of one per part."""
    if len(parts) > 1 and first:
        return first + "(?:" + "|".join(parts) + ")"
    return "|".join(parts)


def first_chars(words: list[str], mark=lambda w: w) -> str:
    """A look-ahead on the first characters of the (marked) ``words``, both cases; ""
    when a word may start with optional space."""
    return _first_chars({mark(word).lower()[:1]: None for word in words})


def _first_chars(node: dict) -> str:
    """A look-ahead on the characters a match can start with: most positions of a text
    fail this one set test instead of trying every branch."""
    chars: set[str] = set()
    for ch in node:
        if ch in PIECES or not ch:
            return ""  # a word may start with optional space: no cheap test
        chars.update((ch.lower(), ch.upper()))
    # case-sensitive (both cases are listed): under re.IGNORECASE the engine would
    # lower-case the text's character at every position it tries
    return "(?-i:(?=[" + "".join(re.escape(c) for c in sorted(chars)) + "]))"


def _latin_end(word: str) -> str:
    return LATIN_RIGHT if word[-1].isascii() and word[-1].isalpha() else ""


def _branches(node: dict, end, piece) -> str:
    alternatives = [piece(ch) + _node(child, end, piece) for ch, child in sorted(node.items())
                    if ch]
    return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"


def _node(node: dict, end, piece) -> str:
    children = {ch: n for ch, n in node.items() if ch}
    if "" not in node:
        return _branches(children, end, piece)
    stop = end(node[""])
    if not children:
        return stop
    rest = _branches(children, end, piece)
    return f"(?:{rest}|{stop})" if stop else f"(?:{rest})?"


def _piece(ch: str) -> str:
    return PIECES.get(ch) or re.escape(ch)


def _folded_piece(ch: str) -> str:
    """A character in either case as a class ("[aA]"): the regex engine skips a branch
    led by a plain literal or class at one test, but enters in full every branch led by
    a case-insensitive literal (re.IGNORECASE)."""
    if ch in PIECES:
        return PIECES[ch]
    cases = [c for c in dict.fromkeys((ch, ch.lower(), ch.upper())) if len(c) == 1]
    return re.escape(ch) if len(cases) == 1 else "[" + "".join(map(re.escape, cases)) + "]"


def squash(text: str) -> str:
    """The lookup key of a matched word: lower case, no white space (str.split() splits
    at the characters ``\\s`` matches, and joins faster than a regex substitutes)."""
    return "".join(text.split()).lower()


def scan(pattern: re.Pattern, text: str, regions=None) -> list[re.Match]:
    """Matches in the given (start, end) regions of ``text``, or in all of it, in order
    (a list: a generator costs a call into it per match)."""
    if regions is None:
        return list(pattern.finditer(text))
    out: list[re.Match] = []
    for start, end in regions:
        out.extend(pattern.finditer(text, start, end))
    return out
