"""A first-character screen in front of a regex: the same matches, found faster.

``search`` tries a pattern at every position of the text. When the pattern opens with an
alternation of words under ``re.IGNORECASE`` or with a look-behind, the engine enters it in
full at each position; a look-ahead on the characters a match can start with fails most
positions at one test instead (2-3x faster on the comparison words read before a chip).

:func:`compile_screened` reads the pattern's syntax tree for the characters a match can
start with. The screen never changes what matches: every character a match can start with
is in it (case variants included where the pattern ignores case; ``\\s`` as every
white-space character), and a pattern that can match the empty string, or opens with a
construct the reading does not follow (a negated class, "any character", ``\\d`` or
``\\w``, a back-reference), gets no screen.
"""
from __future__ import annotations

import re

from re import _constants as C, _parser   # the standard library's regex parser (3.11+)

MAX_RANGE = 512   # a class range wider than this (a whole script) gets no screen
# what \s matches in a str pattern: the characters str.isspace() holds (none above U+3000)
SPACES = frozenset(ch for ch in map(chr, range(0x3001)) if ch.isspace())


class _Unread(Exception):
    """The pattern opens with something the first-character reading does not follow."""


def compile_screened(source: str, flags: int = 0) -> re.Pattern:
    """``re.compile(source, flags)`` behind a look-ahead on the characters its matches can
    start with; without one when there is no such finite set (see the module docstring) or
    the engine starts the pattern fast already (:func:`fast_start`). Compiled once."""
    tree = _parse_source(source, flags)
    screen = _screen(tree, flags) if tree is not None else ""
    if screen and not _starts_fast(tree):
        close = "\n)" if flags & re.VERBOSE else ")"   # (a comment may end the pattern)
        try:
            return re.compile(f"{screen}(?:{source}{close}", flags)
        except re.error:   # e.g. global flags written inside the pattern, which must open it
            pass
    return re.compile(source, flags)


def fast_start(pattern: re.Pattern) -> bool:
    """Does ``pattern`` need no screen: the engine scans for its first characters by itself
    (a literal prefix or a set of first characters it compiled), it opens with one literal
    (one test per position, as a screen would be) or with a look-ahead of its own?"""
    tree = _parse(pattern)
    return tree is None or _starts_fast(tree)


def first_screen(pattern: re.Pattern) -> str:
    """The look-ahead :func:`compile_screened` would put in front of ``pattern`` ("" for
    none)."""
    tree = _parse(pattern)
    return _screen(tree, pattern.flags) if tree is not None else ""


def _parse(pattern: re.Pattern):
    return _parse_source(pattern.pattern, pattern.flags) if isinstance(pattern.pattern, str) \
        else None


def _parse_source(source: str, flags: int):
    try:
        return _parser.parse(source, flags)
    except Exception:  # noqa: BLE001 - a parser that changed: leave the pattern alone
        return None


def _starts_fast(tree) -> bool:
    """The first item (inside groups): one literal; a class or an alternation of literals
    the engine compiles into its own first-character scan (compared as they are); or a
    look-ahead of the pattern's own."""
    items, ignore_case = tree.data, bool(tree.state.flags & re.IGNORECASE)
    while items and items[0][0] is C.SUBPATTERN:
        _group, add, remove, items = items[0][1]
        ignore_case = _scoped(ignore_case, add, remove)
    if not items:
        return True
    op, av = items[0]
    if op is C.LITERAL or (op is C.ASSERT and av[0] == 1):
        return True
    if op is C.IN:
        return not ignore_case
    if op is C.BRANCH:
        return all(b and b[0][0] is C.LITERAL and not (ignore_case and _cased(b[0][1]))
                   for b in av[1])
    return False


def _scoped(ignore_case: bool, add: int, remove: int) -> bool:
    """Whether case is ignored inside a group that adds or removes inline flags."""
    return (ignore_case or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE


def _cased(code: int) -> bool:
    ch = chr(code)
    return ch.lower() != ch or ch.upper() != ch


def _screen(tree, flags: int) -> str:
    try:
        chars, folded, empty = _first(tree.data, bool(tree.state.flags & re.IGNORECASE))
    except Exception:  # noqa: BLE001 - _Unread, or a parser that changed: no screen
        return ""
    if empty or not (chars or folded):
        return ""
    if flags & re.IGNORECASE:   # the look-ahead stands under the pattern's own flag
        return _lookahead(chars | folded)
    if not folded:
        return _lookahead(chars)
    if not chars:
        return f"(?i:{_lookahead(folded)})"
    return f"(?={_class_of(chars)}|(?i:{_class_of(folded)}))"


def _lookahead(chars: set[str]) -> str:
    return f"(?={_class_of(chars)})"


def _class_of(chars: set[str]) -> str:
    return "[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]"


def _first(items, ignore_case: bool) -> tuple[set[str], set[str], bool]:
    """(characters compared as they are, characters compared in any case, can be empty) for
    the start of a sequence of parsed items."""
    chars: set[str] = set()
    folded: set[str] = set()
    for op, av in items:
        c, f, empty = _first_of(op, av, ignore_case)
        chars |= c
        folded |= f
        if not empty:
            return chars, folded, False
    return chars, folded, True


def _first_of(op, av, ignore_case: bool) -> tuple[set[str], set[str], bool]:
    if op is C.LITERAL:
        return _one(chr(av), ignore_case)
    if op is C.IN:
        return _class(av, ignore_case)
    if op is C.BRANCH:
        chars, folded, empty = set(), set(), False
        for branch in av[1]:
            c, f, e = _first(branch, ignore_case)
            chars, folded, empty = chars | c, folded | f, empty or e
        return chars, folded, empty
    if op is C.SUBPATTERN:
        _group, add, remove, body = av
        return _first(body, _scoped(ignore_case, add, remove))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        low, _high, body = av
        chars, folded, empty = _first(body, ignore_case)
        return chars, folded, empty or low == 0
    if op is C.ATOMIC_GROUP:
        return _first(av, ignore_case)
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return set(), set(), True   # zero-width: the next item starts the match
    raise _Unread(op)


def _one(ch: str, ignore_case: bool) -> tuple[set[str], set[str], bool]:
    return (set(), {ch}, False) if ignore_case else ({ch}, set(), False)


def _class(items, ignore_case: bool) -> tuple[set[str], set[str], bool]:
    chars: set[str] = set()
    for op, av in items:
        if op is C.LITERAL:
            chars.add(chr(av))
        elif op is C.RANGE and av[1] - av[0] <= MAX_RANGE:
            chars.update(map(chr, range(av[0], av[1] + 1)))
        elif op is C.CATEGORY and av is C.CATEGORY_SPACE:
            chars.update(SPACES)
        else:   # a negated class, another category (\d, \w), a wide range
            raise _Unread(op)
    return (set(), chars, False) if ignore_case else (chars, set(), False)
