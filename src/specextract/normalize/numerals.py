"""Numbers written to be misread: other digit systems, spaced thousands, marks inside.

    text, step = fold_numbers(text)     # step: the OffsetMap of what was deleted, or None
    number_notes(raw_text)              # what a document gets noted for

The character sets are data (``data/number_chars.tsv``): digits of other systems (Arabic-
Indic "١٩.٥", Devanagari, mathematical bold "𝟏𝟗.𝟓") read as ASCII 0-9; a group
separator (space, apostrophe, thin space...) between digit groups of three joins them as
a comma does ("1 979" -> "1,979"; not in a run of numbers, "312 624 1248"); a combining
mark inside a number is removed ("1\u03039.5" -> "19.5"). Folding and joining keep the
length; removing marks returns an offset map. Bidi controls are removed by the
normalizer's invisible characters; here they are only counted, for the document's note.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..regex_screens import compile_pattern
from ..errors import DataFileError
from ..lexicon.files import parse_codepoints
from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .offsets import OffsetMap, delete_matches


@dataclass(frozen=True)
class NumberChars:
    digits: dict[int, str]      # translate table: other digits -> ASCII
    foreign: re.Pattern         # any digit of another system
    groups: re.Pattern          # a number with group separators between groups of three
    separator: re.Pattern       # one separator inside such a number
    marks: re.Pattern           # combining marks inside a number (one capturing group)
    any_mark: re.Pattern        # any combining mark (a quick test before ``marks``)
    bidi: re.Pattern            # any bidi control


def number_chars(lex: Lexicon) -> NumberChars:
    """The tables of number_chars.tsv (a Lexicon.built builder)."""
    path = str(lex.paths["number_chars.tsv"])
    sets: dict[str, list[str]] = {"zero": [], "group": [], "mark": [], "bidi": []}
    for row in lex.rows("number_chars.tsv"):
        line = int(row["_line"])
        chars = parse_codepoints(row["codepoints"], path, line)
        if row["action"] == "zero":
            for zero in chars:
                if any(unicodedata.digit(chr(ord(zero) + i), None) != i for i in range(10)):
                    raise DataFileError(path, line, f"U+{ord(zero):04X} does not start ten "
                                                    "digits 0-9")
        sets[row["action"]].extend(chars)
    digits = {ord(z) + i: str(i) for z in sets["zero"] for i in range(10)}
    foreign = "".join(map(chr, digits))
    sep = _class(sets["group"])
    mark = _class(sets["mark"])
    return NumberChars(
        digits, compile_pattern(_class(foreign)),
        # the first digit, then what may not precede it (a digit, a point, a letter, a
        # number and a separator); nor may a separator and a digit follow: "312 624 1248"
        # is a list of numbers, not one
        compile_pattern(rf"[0-9](?<![0-9.,][0-9])(?<![^\W\d_][0-9])(?<![0-9]{sep}[0-9])"
                        rf"[0-9]{{0,2}}(?:{sep}[0-9]{{3}})+(?![0-9]|{sep}[0-9])"),
        compile_pattern(sep),
        compile_pattern(rf"((?<=[0-9]){mark}+(?=[0-9.,]|{sep}[0-9])|(?<=[0-9][.,]){mark}+(?=[0-9]))"),
        compile_pattern(mark),
        compile_pattern(_class(sets["bidi"])))


def _class(chars) -> str:
    """A character class of ``chars``, consecutive code points as ranges (a class of
    single astral characters is scanned several times slower)."""
    points = sorted({ord(c) for c in chars})
    parts, start = [], 0
    for i in range(1, len(points) + 1):
        if i == len(points) or points[i] != points[i - 1] + 1:
            lo, hi = points[start], points[i - 1]
            parts.append(re.escape(chr(lo)) + ("" if lo == hi else "-" + re.escape(chr(hi))))
            start = i
    return "[" + "".join(parts) + "]"


def fold_numbers(text: str, lexicon: Lexicon | None = None) -> tuple[str, OffsetMap | None]:
    """Digits of other systems as ASCII, spaced thousands joined by commas (both keep the
    length), combining marks inside numbers removed (the map of that deletion, or None)."""
    chars = lexicon_or_default(lexicon).built(number_chars)
    if chars.foreign.search(text):
        text = text.translate(chars.digits)
    step = None
    if chars.any_mark.search(text):
        text, step = delete_matches(text, chars.marks)
    return chars.groups.sub(lambda m: chars.separator.sub(",", m.group()), text), step


def number_notes(text: str, lexicon: Lexicon | None = None) -> list[str]:
    """What a document is noted for: bidi controls, digits of other systems and marks
    inside numbers, each with how many."""
    chars = lexicon_or_default(lexicon).built(number_chars)
    notes = []
    if n := len(chars.bidi.findall(text)):
        notes.append(f"{n} bidi control characters removed (text around them may display "
                     "in another order than it is read)")
    if n := len(chars.foreign.findall(text)):
        notes.append(f"{n} digits of other scripts read as 0-9")
        text = text.translate(chars.digits)
    if chars.any_mark.search(text) and (n := len(chars.marks.findall(text))):
        notes.append(f"{n} combining marks inside numbers removed")
    return notes
