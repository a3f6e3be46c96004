"""Chip model names the lexicon does not list, recognised by their product line.

A line word (any script) and a model code ("RTX 4060 Ti", "昇騰310P", "TPU v5p", "高通8295")
name a chip; data/chip_families.tsv lists the lines, their canonical word, class and code
shape. The entity is the codebook's model name: the line's canonical word and the code,
vendor words left out. CPUs and SoCs are recognised too (class ``cpu``/``soc``): they
are chips a figure may be about, so that it never goes to an accelerator nearby.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..lexicon.trie import FLEX_ONE, first_chars, plain_trie
from ..regex_screens import compile_pattern
from .patterns import GLUED_SUFFIX, NOT_AFTER, SUFFIX

SUFFIX_WORDS = {w.lower(): w for w in ("Ti", "Super", "Ultra", "Pro", "Max", "Plus", "XTX", "XT",
                                       "GRE", "Ada", "Gen", "Bionic", "Elite", "Nano", "AGX",
                                       "NX", "CPX")}


@dataclass(frozen=True)
class Family:
    """One product line of data/chip_families.tsv."""

    canonical: str
    cls: str
    join: str
    prefix: re.Pattern | None


@dataclass(frozen=True)
class Named:
    """A model name found in the text: span, canonical entity and class."""

    start: int
    end: int
    entity: str
    cls: str


def _latin_start(word: str) -> bool:
    return word[0].isascii() and word[0].isalpha()


def _case_free(word: str) -> bool:
    """Latin words of four or more letters match in any case (see data/chip_families.tsv)."""
    return sum(ch.isalpha() for ch in word) >= 4


def _starts(words: list[str]) -> str:
    """A look-ahead on where a line word starts (a Latin one after no letter or digit): a
    position of the text that starts none fails this one test instead of every line's
    branch. Its words as a trie (lexicon.trie), white space as in _word."""
    def trie(group: list[str]) -> str:
        return plain_trie(group, lambda w: w.replace(" ", FLEX_ONE)) if group else "(?!)"
    latin = [w for w in words if _latin_start(w)]
    free = [w for w in latin if _case_free(w)]
    exact = sorted({w for w in latin if not _case_free(w)}, key=lambda w: (-len(w), w))
    other = [w for w in words if not _latin_start(w)]
    exact_part = "|".join(re.escape(w).replace(r"\ ", r"\s?") for w in exact) or "(?!)"
    return (f"{first_chars(words)}(?:(?<![A-Za-z0-9])(?=(?i:{trie(free)})|{exact_part})"
            f"|(?=(?i:{trie(other)})))")


def _word(word: str) -> str:
    """A line word as a regex: long Latin words in any case, a left boundary before Latin."""
    body = re.escape(word).replace(r"\ ", r"\s?")
    if _latin_start(word):
        return r"(?<![A-Za-z0-9])" + (f"(?i:{body})" if _case_free(word) else body)
    return body


def families(lex: Lexicon) -> tuple[re.Pattern, tuple[Family, ...]]:
    """The product lines' one pattern and their Family records (built once per lexicon)."""
    rows = lex.rows("chip_families.tsv")
    parts, lines, all_words = [], [], []
    for i, r in enumerate(rows):
        words = sorted(r["words"].split("|"), key=len, reverse=True)
        all_words += words
        code = r["code"].replace("{S}", SUFFIX + "{0,2}")
        sep = r"[\s\-]?" if words[0][-1].isascii() else r"\s?"
        parts.append(f"(?P<w{i}>{'|'.join(_word(w) for w in words)}){sep}(?P<c{i}>{code})")
        prefix = compile_pattern(f"(?:{r['prefix']})[\\s\\-]*$") if r["prefix"] else None
        lines.append(Family(r["canonical"], r["class"], r["join"], prefix))
    pattern = compile_pattern(f"(?:{_starts(all_words)})(?:" + "|".join(parts)
                              + r")(?![A-Za-z0-9])")
    return pattern, tuple(lines)


def model_name(canonical: str, code: str, join: str) -> str:
    """The entity of a line word and code: "RTX", "4060ti" -> "RTX 4060 Ti"."""
    code = GLUED_SUFFIX.sub(" ", code.strip())
    words = [SUFFIX_WORDS.get(w.lower(), w) for w in code.split()]
    model = " ".join(words)
    if not canonical:
        return model
    if not model:
        return canonical
    return canonical + (" " if join == "space" else "") + model


def find_names(text: str, lexicon: Lexicon | None = None) -> list[Named]:
    """Model names of the product lines in data/chip_families.tsv, in text order."""
    pattern, lines = lexicon_or_default(lexicon).built(families)
    out = []
    for m in pattern.finditer(text):
        i = int(m.lastgroup[1:])  # type: ignore[index]  # line i's code group "c<i>" closes last
        fam = lines[i]
        if fam.prefix is not None and not fam.prefix.search(text, max(0, m.start() - 16), m.start()):
            continue
        if NOT_AFTER.match(text, m.end()):
            continue
        canonical = m.group(f"w{i}") if fam.canonical == "=" else fam.canonical
        entity = model_name(canonical, m.group(f"c{i}"), fam.join)
        out.append(Named(m.start(), m.end(), entity, fam.cls))
    return out
