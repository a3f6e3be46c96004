"""First-character screens (regex_screens): which characters a match can start with, and
the same matches with the screen as without it."""
from __future__ import annotations

import re
from re import _parser

import pytest
from hypothesis import given, settings, strategies as st

from specextract.extract import patterns
from specextract.regex_screens import (SPACES, _drop_screen, _first_character_header, case_variants,
                                       compile_pattern, compile_screened, fast_start,
                                       first_characters, first_screen)

I, V = re.IGNORECASE, re.VERBOSE


@pytest.mark.parametrize("source,flags,screen", [
    (r"abc|d", 0, "(?=[ad])"),
    (r"(?:foo)?bar", 0, "(?=[bf])"),                  # an optional part: what follows counts too
    (r"[a-c]{0,2}d", 0, "(?=[abcd])"),
    (r"(?<![A-Za-z])each", 0, "(?=[e])"),             # a look-behind is no character
    (r"than|比", I, "(?=[t比])"),                      # under the pattern's own re.IGNORECASE
    (r"(?i:ab)c|D", 0, "(?=[D]|(?i:[a]))"),           # a part in any case, a part as written
    (r"(?: 比 | than ) \s* $", I | V, "(?=[t比])"),
    (r"a*", 0, ""),                                   # may match the empty string
    (r"x|$", 0, ""),                                  # may match at the end, with no character
    (r"\wx", 0, ""),                                  # a category other than \s
    (r"(?<!\s)\s*+(?:到|至)", 0,                        # \s: every white-space character
     "(?=[" + "".join(re.escape(c) for c in sorted(SPACES | {"到", "至"})) + "])"),
    (r"[^a]b", 0, ""),                                # a negated class
    (r".x", 0, ""),                                   # any character
    (r"[\u4e00-\u9fff]", 0, ""),                      # a range too wide to list
])
def test_the_characters_a_match_can_start_with(source, flags, screen) -> None:
    assert first_screen(re.compile(source, flags)) == screen


@pytest.mark.parametrize("source,flags,fast", [
    (r"\n", 0, True),                  # a literal: the engine scans for it itself
    (r"(?:从|由)\s*$", 0, True),        # an alternation of literals: the same
    (r"[ab]x", 0, True),
    (r"(?=[ab])(?:a|b)x", 0, True),    # a look-ahead of its own
    (r"(?i:each)", 0, True),           # one literal: one test per position already
    (r"(?<![A-Za-z])each", 0, False),
    (r"than|比", I, False),             # literals in any case: each branch entered in full
    (r"[ab]x", I, False),
])
def test_patterns_the_engine_starts_fast_get_no_screen(source, flags, fast) -> None:
    pattern = re.compile(source, flags)
    assert fast_start(pattern) is fast
    unchanged = compile_screened(source, flags).pattern == source
    assert unchanged is (fast or not first_screen(pattern))


def test_white_space_is_what_str_isspace_holds_in_all_of_unicode() -> None:
    assert SPACES == {chr(c) for c in range(0x110000) if chr(c).isspace()}
    assert all(re.fullmatch(r"\s", ch) for ch in SPACES)


def test_a_verbose_pattern_ending_in_a_comment_keeps_its_end() -> None:
    pattern = compile_screened(r"(?<!x) (?: foo | bar )   # a comment, last", V)
    assert pattern.pattern.startswith("(?=[bf])")
    assert [m.group() for m in pattern.finditer("foo xbar bar")] == ["foo", "bar"]


SAMPLES = [
    ("(?: 比 | 相比 | than | vs\\.? | compared\\s+(?:to|with) ) \\s* $", I | V),
    ("(?<![A-Za-z])(?i:each|per)(?![A-Za-z])", 0),
    ("(?:总|合计|(?<![A-Za-z])(?i:total))\\s*+(?P<n>\\d+)", 0),
    ("(?:[两三]|这)\\s*(?:张|块)?\\s*(?:GPU|卡)", I),
    ("(?:(?:a|b)c|d)(?=x)", I),
    ("(?-i:K)(?i:elvin)|ſ", I),
    ("(?<!\\s)\\s*+(?:-{1,2}+|到|to)\\s*+(?:1|二)", 0),
    ("(?: ^ | [，,\\s] ) (?: 其 | 它 | it ) \\b", V),
]
ALPHABET = "abcdxKkſSs比相较 这两三张GPU卡总合计01234ALtotalhnvs.compared\n\u3000-到二其它，,"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.integers(0, 8))
def test_a_screened_pattern_finds_what_the_pattern_finds(text, pos) -> None:
    for source, flags in SAMPLES:
        plain = re.compile(source, flags)
        fast = compile_screened(source, flags)
        assert [(m.span(), m.groups()) for m in fast.finditer(text, pos)] == \
            [(m.span(), m.groups()) for m in plain.finditer(text, pos)]
        fm, pm = fast.match(text, pos), plain.match(text, pos)
        assert (fm and (fm.span(), fm.groups())) == (pm and (pm.span(), pm.groups()))


def test_the_extraction_patterns_are_screened_where_that_helps() -> None:
    """Some comparison words before a chip get a screen; a pattern that opens with a
    literal does not."""
    assert patterns.STRONG_COMPARE.pattern.startswith("(?=[")
    assert not patterns.NEWLINE.pattern.startswith("(?=[")


# --- the first characters in the compiled header (compile_pattern) ------------------------
HEADER_SAMPLES = SAMPLES + [
    ("(?=[ab])(?:a|b)x", 0),                      # a look-ahead of its own
    ("(?<![A-Za-z])\\d+(?:\\.\\d+)?\\s*GB", 0),   # \d: a category, kept as one
    ("\\w+@x|[\\u4e00-\\u9fff]{2}", 0),           # \w and a wide range
    ("(?<!x)(?:kelvin|ſt|İx)", I),                # letters with more than two case forms
    ("(?:a|b)?c", I),
    ("(?=[a])(?:a|b)x", 0),                       # a look-ahead that narrows: kept
    ("(?-i:(?=[Aa]))(?i:a|b)x", 0),               # narrower than the rest in any case
]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET + "KkK5.7GB@İıi字词x٣_", max_size=40), st.integers(0, 8))
def test_a_pattern_with_its_first_characters_finds_what_re_compile_finds(text, pos) -> None:
    for source, flags in HEADER_SAMPLES:
        plain = re.compile(source, flags)
        fast = compile_pattern(source, flags)
        assert (fast.pattern, fast.flags, fast.groupindex) == \
            (plain.pattern, plain.flags, plain.groupindex)
        for method in ("finditer", "search", "match", "fullmatch"):
            got = getattr(fast, method)(text, pos)
            want = getattr(plain, method)(text, pos)
            got = list(got) if method == "finditer" else [got] if got else []
            want = list(want) if method == "finditer" else [want] if want else []
            assert [(m.span(), m.groups()) for m in got] == \
                [(m.span(), m.groups()) for m in want], (source, method)


@pytest.mark.parametrize("source,flags,header", [
    (r"(?=[ab])(?:a|b)x", 0, True),       # the engine reads no first characters here
    (r"(?<![A-Za-z])\d+GB", 0, True),
    (r"than|比", I, True),
    (r"[ab]x", 0, False),                  # it reads them itself
    (r"abc", 0, False),                    # a literal prefix
    (r"a*", 0, False),                     # may match the empty string
    (r".x|[^a]", 0, False),                # any character, a negated class
])
def test_which_patterns_get_their_first_characters_in_the_header(source, flags, header) -> None:
    tree = _parser.parse(source, flags)
    got = _first_character_header(tree, tree.state.flags | flags)
    assert (got is not None) is header


@pytest.mark.parametrize("letter", ["k", "s", "i", "a", "µ"])
def test_case_variants_are_every_character_the_engine_takes_for_a_letter(letter) -> None:
    pattern = re.compile(re.escape(letter), re.IGNORECASE)
    taken = {chr(c) for c in range(0x10000) if pattern.fullmatch(chr(c))}
    assert case_variants(letter) >= taken
    assert {"K", "\u212a"} <= case_variants("k") and "\u017f" in case_variants("s")


def test_no_case_pair_crosses_out_of_the_basic_multilingual_plane() -> None:
    """What case_variants' table (BMP only) relies on."""
    import _sre
    assert all((c < 0x10000) == (_sre.unicode_tolower(c) < 0x10000) for c in range(0x110000))


def test_the_lexicon_scans_carry_their_first_characters() -> None:
    from specextract.extract import mentions
    from specextract.lexicon import default_lexicon
    chips = default_lexicon().built(mentions.chip_lexicon)[0]
    tree = _parser.parse(chips.pattern, chips.flags)
    assert _first_character_header(tree, chips.flags) is not None


# --- first characters as a set, tested before a match at one place (first_characters) ------
@pytest.mark.parametrize("source,flags,chars", [
    (r"abc|d", 0, set("ad")),
    (r"(?<![A-Za-z])each", I, {"e", "E"}),
    (r"(?<!\s)\s*+(?:到|至)", 0, SPACES | {"到", "至"}),
    (r"(?i:s)x|比", 0, {"s", "S", "\u017f", "比"}),     # every case form the engine takes
    (r"^[:：]", 0, {":", "："}),                         # an anchor is no character
])
def test_first_characters_as_a_set(source, flags, chars) -> None:
    assert first_characters(re.compile(source, flags)) == chars


@pytest.mark.parametrize("source", [r"a*", r"x|$", r"\d+GB", r"[^a]b", r".x"])
def test_no_first_characters_where_no_finite_set_is_known(source) -> None:
    with pytest.raises(ValueError, match="first characters"):
        first_characters(re.compile(source))


def _starts_tables():
    return [(name[:-len("_STARTS")], getattr(patterns, name)) for name in dir(patterns)
            if name.endswith("_STARTS")]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET + "(（）):：'’的之版升增GNVLS8集 ", max_size=30),
       st.integers(0, 12))
def test_match_at_finds_what_match_finds(text, pos) -> None:
    """Every table of first characters in extract.patterns belongs to its pattern:
    match_at gives what pattern.match gives, at every place."""
    for name, starts in _starts_tables():
        pattern = getattr(patterns, name)
        got, want = patterns.match_at(pattern, starts, text, pos), pattern.match(text, pos)
        assert (got and got.span()) == (want and want.span()), name


def test_each_table_of_first_characters_is_its_patterns() -> None:
    tables = _starts_tables()
    assert len(tables) >= 10
    for name, starts in tables:
        assert starts == first_characters(getattr(patterns, name)), name


@pytest.mark.parametrize("source,flags,dropped", [
    (r"(?=[ab])(?:a|b)x", 0, True),               # it holds every first character: a screen
    (r"(?-i:(?=[AaBb]))(?i:a|b)x", 0, True),
    (r"(?=[a])(?:a|b)x", 0, False),               # it narrows the match: part of the pattern
    (r"(?=[ab])\wx", 0, False),                   # the rest starts with a category
    (r"(?!a)[ab]x", 0, False),                     # a negative look-ahead
    (r"(?=[ab])(?:a|b)x", re.ASCII, False),        # ASCII cases and classes: not read here
    (r"(?a:(?=[ab]))(?:a|b)x", 0, False),
])
def test_only_a_look_ahead_every_match_passes_is_dropped(source, flags, dropped) -> None:
    tree = _parser.parse(source, flags)
    before = len(tree.data)
    _drop_screen(tree)
    assert (len(tree.data) < before) is dropped
