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

A look-ahead is still a test the engine enters at every position. :func:`compile_pattern`
goes further: it puts the set of first characters (``\\d`` and ``\\w`` included) into the
compiled pattern's header, where the engine keeps the first characters of a pattern that
opens with a plain class, so that ``search`` and ``finditer`` skip every other position in
one tight loop and enter the pattern only where a match can start. The pattern itself is
the one ``re.compile`` builds, less a leading look-ahead screen that holds every first
character (each position the header lets through would pass it again); a Python whose
regex internals differ gets ``re.compile``.

:func:`first_characters` gives the same characters as a set, to test before
``pattern.match(text, pos)`` where a pattern is matched at one place many times.
"""
from __future__ import annotations

import re
from functools import lru_cache

import _sre
from re import _compiler, _constants as C, _parser   # the standard library's regex internals

from .programcache import ProgramCache

MAX_RANGE = 512   # a class range wider than this (a whole script) gets no screen
# what \s matches in a str pattern: the characters str.isspace() holds (none above U+3000)
SPACES = frozenset(ch for ch in map(chr, range(0x3001)) if ch.isspace())


# what compile_pattern and compile_screened build, kept from one process to the next
PROGRAMS = ProgramCache("patterns", __file__)


class _Unread(Exception):
    """The pattern opens with something the first-character reading does not follow."""


def compile_screened(source: str, flags: int = 0) -> re.Pattern:
    """``re.compile(source, flags)`` behind a look-ahead on the characters its matches can
    start with; without one when there is no such finite set (see the module docstring) or
    the engine starts the pattern fast already (:func:`fast_start`). Compiled once (the
    screen kept in PROGRAMS)."""
    screen = PROGRAMS.get("screen", source, int(flags))
    if not isinstance(screen, str):
        tree = _parse_source(source, flags)
        screen = _screen(tree, flags) if tree is not None and not _starts_fast(tree) else ""
        PROGRAMS.put("screen", source, int(flags), screen)
    if screen:
        close = "\n)" if flags & re.VERBOSE else ")"   # (a comment may end the pattern)
        try:
            return compile_pattern(f"{screen}(?:{source}{close}", flags)
        except re.error:   # e.g. global flags written inside the pattern, which must open it
            pass
    return compile_pattern(source, flags)


def compile_pattern(source: str, flags: int = 0) -> re.Pattern:
    """``re.compile(source, flags)`` for a pattern compiled once (at import, or once per
    lexicon: it keeps no pattern in memory), with the characters its matches can start with in the
    compiled header (see the module docstring): the same matches, and ``search`` and
    ``finditer`` skip the positions where none can start. As ``re.compile`` where the
    engine finds such a set itself, where there is none, or where the internals differ.
    The engine's program is kept in PROGRAMS: another process builds the pattern from it."""
    flags = int(flags)
    if not isinstance(source, str) or flags & re.LOCALE:
        return re.compile(source, flags)
    kept = PROGRAMS.get("program", source, flags)
    if kept is not None:
        try:
            return _from_program(source, kept)
        except Exception:  # noqa: BLE001 - not a program the engine takes: compile afresh
            PROGRAMS.forget("program", source, flags)
    tree = _parser.parse(source, flags)   # a bad pattern raises re.error here
    try:
        program = _program(flags, tree)
        pattern = _from_program(source, program)
    except Exception:  # noqa: BLE001 - regex internals that changed: as re.compile does
        return re.compile(source, flags)
    PROGRAMS.put("program", source, flags, program)
    return pattern


def _program(flags: int, tree) -> tuple:
    """What ``re._compiler.compile`` builds from ``tree``, with a first-character header
    where the engine has none and one can be read: (flags, code, groups, group index,
    group names), the arguments of ``_sre.compile`` after the source."""
    all_flags = tree.state.flags | flags
    header = _first_character_header(tree, all_flags)
    if header is not None:
        _drop_screen(tree)
    code = _compiler._code(tree, flags)
    if header is not None and code[0] == C.INFO:
        code = header + code[code[1] + 1:]   # the pattern after the engine's own header
    groups = [None] * tree.state.groups
    for name, index in tree.state.groupdict.items():
        groups[index] = name
    code = list(map(int, code))   # plain ints (the compiler's opcodes are an int subclass)
    return (all_flags, code, tree.state.groups - 1, dict(tree.state.groupdict), tuple(groups))


def _from_program(source: str, program: tuple) -> re.Pattern:
    """The pattern built from a _program (the engine checks the program first)."""
    flags, code, groups, groupindex, indexgroup = program
    return _sre.compile(source, flags, code, groups, groupindex, indexgroup)


def _first_character_header(tree, flags: int) -> list[int] | None:
    """The engine's INFO block naming the characters a match can start with, or None
    where the engine keeps a literal prefix or such a set itself, or none can be read."""
    if _compiler._get_literal_prefix(tree, flags)[0] or _compiler._get_charset_prefix(tree, flags):
        return None
    low, high = tree.getwidth()
    items = _charset_items(tree)
    if low == 0 or not items:
        return None
    header = [C.INFO, 0, C.SRE_INFO_CHARSET, min(low, _compiler.MAXCODE),
              min(high, _compiler.MAXCODE)]
    charset, _cased = _compiler._optimize_charset(items)
    _compiler._compile_charset(charset, flags, header)
    header[1] = len(header) - 1
    return header


def _drop_screen(tree) -> None:
    """Drop a leading look-ahead that every match passes (a screen: it holds every character
    the rest can start with) from ``tree``: with the first characters in the header,
    ``search`` tries only positions that pass it, and each of them would test it again."""
    items, ignore_case = tree.data, bool(tree.state.flags & re.IGNORECASE)
    if not items or tree.state.flags & (re.ASCII | re.LOCALE):
        return   # (the characters are read as Unicode's, in Unicode's cases)
    op, av = items[0]
    if op is C.SUBPATTERN and av[0] is None and len(av[3]) == 1:   # "(?-i:(?=[...]))"
        if av[1] & (re.ASCII | re.LOCALE):
            return
        inner_case = _scoped(ignore_case, av[1], av[2])
        op, av = av[3][0]
    else:
        inner_case = ignore_case
    if op is not C.ASSERT or av[0] != 1:
        return
    try:
        screen = _characters(_first(av[1], inner_case))
        rest = _characters(_first(items[1:], ignore_case))
    except Exception:  # noqa: BLE001 - _Unread, or a parser that changed: keep it
        return
    if screen is not None and rest is not None and rest <= screen:
        del tree.data[0]


def _characters(first: tuple[set[str], set[str], bool, set]) -> set[str] | None:
    """The characters of _first's reading (case variants included), None when it is not a
    finite set of characters (an empty match, a category)."""
    chars, folded, empty, other = first
    if empty or other:
        return None
    return chars | {v for ch in folded for v in case_variants(ch)}


def _charset_items(tree) -> list | None:
    """The engine's class items for every character a match can start with (case
    variants included), or None when that set is unknown or the pattern can start with
    nothing (an empty match)."""
    try:
        chars, folded, empty, other = _first(tree.data, bool(tree.state.flags & re.IGNORECASE))
    except Exception:  # noqa: BLE001 - _Unread, or a parser that changed: no set
        return None
    if empty:
        return None
    for ch in folded:
        chars |= case_variants(ch)
    items = [(C.LITERAL, ord(ch)) for ch in sorted(chars)]
    return items + sorted(other, key=str) or None


def first_characters(pattern: re.Pattern) -> frozenset[str]:
    """Every character a match of ``pattern`` can start with (case variants included): a
    test to make before ``pattern.match(text, pos)``, which fails where ``text[pos]`` is
    none of them. ValueError where no such finite set can be read (the pattern can match
    the empty string, or opens with ``\\d``, ``\\w``, a negated class, ...)."""
    tree = _parse(pattern)
    try:
        chars = _characters(_first(tree.data, bool(tree.state.flags & re.IGNORECASE)))
    except Exception:  # noqa: BLE001 - _Unread, or a parser that changed
        raise ValueError(f"no first characters can be read from {pattern.pattern!r}") from None
    if chars is None:
        raise ValueError(f"no finite set of first characters for {pattern.pattern!r}")
    return frozenset(chars)


def case_variants(ch: str) -> set[str]:
    """Every character the engine takes for ``ch`` when it ignores case: those that
    lower-case to the same character or to one of its extra case forms (as "s", "S" and
    the long s; "k", "K" and the Kelvin sign)."""
    lower = _sre.unicode_tolower(ord(ch))
    targets = {lower, *_compiler._EXTRA_CASES.get(lower, ())}
    table = _lowered_from()
    return {ch} | {chr(t) for t in targets} | {chr(c) for t in targets for c in table.get(t, ())}


@lru_cache(maxsize=1)
def _lowered_from() -> dict[int, tuple[int, ...]]:
    """Lower-case code point -> the other characters that lower-case to it. Case pairs
    outside the Basic Multilingual Plane stay outside it (tests/test_regex_screens.py),
    and the first characters read here are all inside it."""
    lowers = list(map(_sre.unicode_tolower, range(0x10000)))
    table: dict[int, list[int]] = {}
    for code in [c for c, lower in enumerate(lowers) if lower != c]:
        table.setdefault(lowers[code], []).append(code)
    return {k: tuple(v) for k, v in table.items()}


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
        chars, folded, empty, other = _first(tree.data, bool(tree.state.flags & re.IGNORECASE))
    except Exception:  # noqa: BLE001 - _Unread, or a parser that changed: no screen
        return ""
    if empty or other or not (chars or folded):   # (a look-ahead lists characters only)
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


def _first(items, ignore_case: bool) -> tuple[set[str], set[str], bool, set]:
    """(characters compared as they are, characters compared in any case, can be empty,
    other class items) for the start of a sequence of parsed items. The other items are
    the engine's classes a screen cannot list (``\\d``, ``\\w``, a wide range)."""
    chars: set[str] = set()
    folded: set[str] = set()
    other: set = set()
    for op, av in items:
        c, f, empty, o = _first_of(op, av, ignore_case)
        chars |= c
        folded |= f
        other |= o
        if not empty:
            return chars, folded, False, other
    return chars, folded, True, other


def _first_of(op, av, ignore_case: bool) -> tuple[set[str], set[str], bool, set]:
    if op is C.LITERAL:
        return _one(chr(av), ignore_case)
    if op is C.IN:
        return _class(av, ignore_case)
    if op is C.BRANCH:
        chars, folded, empty, other = set(), set(), False, set()
        for branch in av[1]:
            c, f, e, o = _first(branch, ignore_case)
            chars, folded, empty, other = chars | c, folded | f, empty or e, other | o
        return chars, folded, empty, other
    if op is C.SUBPATTERN:
        _group, add, remove, body = av
        return _first(body, _scoped(ignore_case, add, remove))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        low, _high, body = av
        chars, folded, empty, other = _first(body, ignore_case)
        return chars, folded, empty or low == 0, other
    if op is C.ATOMIC_GROUP:
        return _first(av, ignore_case)
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return set(), set(), True, set()   # zero-width: the next item starts the match
    raise _Unread(op)


def _one(ch: str, ignore_case: bool) -> tuple[set[str], set[str], bool, set]:
    return (set(), {ch}, False, set()) if ignore_case else ({ch}, set(), False, set())


def _class(items, ignore_case: bool) -> tuple[set[str], set[str], bool, set]:
    chars: set[str] = set()
    other: set = set()
    for op, av in items:
        if op is C.LITERAL:
            chars.add(chr(av))
        elif op is C.RANGE and av[1] - av[0] <= MAX_RANGE:
            chars.update(map(chr, range(av[0], av[1] + 1)))
        elif op is C.CATEGORY and av is C.CATEGORY_SPACE:
            chars.update(SPACES)
        elif op is C.CATEGORY or (op is C.RANGE and not ignore_case):
            other.add((op, av))   # \d, \w (they hold their case variants), a wide range
        else:   # a negated class, a wide range in any case
            raise _Unread(op)
    return (set(), chars, False, other) if ignore_case else (chars, set(), False, other)
