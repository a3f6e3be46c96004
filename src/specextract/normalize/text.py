"""Bring an article to one form while remembering where every character came from.

Steps, in order:
1. scraping noise: pinyin printed after characters ("計(jì)算", "F(xiàn)P32") and
   invisible characters go; no-break and wide spaces become spaces, and so does a "?"
   printed for a lost space between letters or digits ("RTX?4090");
2. full-width ASCII (１９．５ＴＦＬＯＰＳ, ＧＢ, ％) becomes half-width, CJK punctuation stays;
   numbers are read as written for people (:mod:`specextract.normalize.numerals`): digits
   of other systems as 0-9, "1 979" as "1,979", a combining mark inside a number removed;
3. traditional (and mixed) text goes to simplified (see :mod:`specextract.normalize.script`).
Nothing else is rewritten: numbers, units and model names stay as written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..regex_screens import compile_pattern
from ..lexicon.files import parse_codepoints
from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .numerals import fold_numbers
from .offsets import OffsetMap, delete_matches
from .patterns import HAN_RANGES, LOST_SPACE, SYLLABLE, TONE_VOWELS
from .script import classify, is_traditional, script_counts, to_simplified


@dataclass(frozen=True)
class Normalized:
    """Normalized text, its map to the original (``to_original[i]``) and the script."""

    text: str
    to_original: OffsetMap
    script: str
    original_length: int

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Half-open span of the original text that produced ``text[start:end]``."""
        return self.to_original.span(start, end, self.original_length)


def char_tables(lex: Lexicon) -> tuple[dict[int, str], re.Pattern, str]:
    """(translate table for spaces and width folding, regex of runs it applies to,
    character class of invisible characters to delete)."""
    path = str(lex.paths["normalize_chars.tsv"])
    groups: dict[str, list[str]] = {"delete": [], "space": [], "keep": []}
    for row in lex.rows("normalize_chars.tsv"):
        line = int(row["_line"])
        groups.setdefault(row["action"], []).extend(
            parse_codepoints(row["codepoints"], path, line))
    table = {ord(c): " " for c in groups["space"]}
    keep = set(groups["keep"])
    for cp in range(0xFF01, 0xFF5F):
        if chr(cp) not in keep:
            table[cp] = chr(cp - 0xFEE0)
    invisible = "[" + re.escape("".join(groups["delete"])) + "]"
    folded = compile_pattern("[" + re.escape("".join(map(chr, table))) + "]+")
    return table, folded, invisible


def noise_pattern(lexicon: Lexicon | None = None) -> re.Pattern:
    """Scraping noise to delete: pinyin after a character, and invisible characters.

    The parenthesis comes first so the scan is cheap; the look-behinds then check what
    precedes it: a Han character or a letter for a tone-marked syllable, a Han
    character only for a toneless one."""
    return lexicon_or_default(lexicon).built(_noise_pattern)


def _noise_pattern(lex: Lexicon) -> re.Pattern:
    toneless = "|".join(r["syllable"] for r in lex.rows("pinyin_noise.tsv"))
    toned = rf"(?=[a-zü]*[{TONE_VOWELS}]){SYLLABLE}"
    _, _, invisible = lex.built(char_tables)
    return compile_pattern(
        rf"(\((?:(?<=[{HAN_RANGES}A-Za-z]\(){toned}|(?<=[{HAN_RANGES}]\()(?:{toneless}))\)"
        rf"|{invisible})")


def normalize(text: str, lexicon: Lexicon | None = None) -> Normalized:
    """Normalize ``text``; see the module docstring for the steps."""
    lex = lexicon_or_default(lexicon)
    mapping = OffsetMap.identity(len(text))
    current, step = delete_matches(text, noise_pattern(lex))
    if step is not None:
        mapping = mapping.then(step)
    table, folded, _ = lex.built(char_tables)
    # length-preserving: the map is unchanged
    current = folded.sub(lambda m: m.group().translate(table), current)
    current = LOST_SPACE.sub(" ", current)
    current, step = fold_numbers(current, lex)
    if step is not None:
        mapping = mapping.then(step)
    counts = script_counts(current)
    script = classify(counts)
    if is_traditional(counts):
        current, step = to_simplified(current, lex)
        if step is not None:
            mapping = mapping.then(step)
    return Normalized(current, mapping, script, len(text))
