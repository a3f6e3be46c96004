"""Chips, attribute keywords and qualifiers found in normalized text, from the data files.

Each lexicon compiles to one regex alternation (longest alias first). Latin aliases
ignore case and never match inside a longer word or model name; a chip alias may name
a ``context`` that must be near it ("D1" only near Dojo or Tesla).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from ..codebook import EDITION_VARIANT, FULL_DIE_VARIANT
from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..lexicon.trie import either, first_chars, model_name, plain_trie, scan, squash, trie_regex
from ..regex_screens import compile_pattern
from .chipnames import find_names
from .patterns import (ALIAS_SEPARATORS, CODENAME_GAP, EDITION_AFTER, EDITION_AFTER_STARTS,
                       EDITION_BEFORE, FULL_DIE_BEFORE, NOT_A_CHIP_AFTER, SUPERCHIP_AFTER,
                       SYSTEM_AFTER, SYSTEM_AFTER_STARTS, SYSTEM_BEFORE, VARIANT_SEP, match_at)

CONTEXT_WINDOW = 40


# Not frozen, with its own __init__, like quantities.Quantity (see there why).
@dataclass(unsafe_hash=True)
class Mention:
    """A chip named in the text."""

    start: int
    end: int
    entity: str
    variant: str = ""
    variant_end: int = 0
    system: bool = False  # named as part of a system (DGX A100, NVL72): its figures are totals
    kind: str = ""  # "cpu" or "soc": a processor, not an accelerator; its figures are no claims

    def __init__(self, start: int, end: int, entity: str, variant: str = "",
                 variant_end: int = 0, system: bool = False, kind: str = "") -> None:
        self.start, self.end, self.entity, self.variant = start, end, entity, variant
        self.variant_end, self.system, self.kind = variant_end, system, kind


# Not frozen, with its own __init__, like Mention.
@dataclass(unsafe_hash=True)
class Keyword:
    """An attribute keyword or a qualifier word."""

    start: int
    end: int
    attribute: str
    qualifier: str
    dims: frozenset[str]

    def __init__(self, start: int, end: int, attribute: str, qualifier: str,
                 dims: frozenset[str]) -> None:
        self.start, self.end, self.attribute = start, end, attribute
        self.qualifier, self.dims = qualifier, dims


def _boundaries(alias: str) -> tuple[str, str]:
    """(left, right) boundary of an alias, so that A10 never matches inside A100."""
    if alias[0].isascii() and alias[0].isalpha():
        # a long name may follow an upper-case word in run-together tables ("SXMA100");
        # a short one may not ("GT4" is no T4)
        left = r"(?<![A-Za-z])" if len(alias) <= 3 else ""
    else:
        left = r"(?<![A-Za-z0-9.])"
    last = alias[-1]
    right = r"(?-i:(?![0-9])(?![a-rt-z])(?!s[a-z]))" if last.isascii() and last.isalnum() else ""
    if alias.isdigit():
        right = r"(?![0-9.,])(?!\s*(?:[A-Za-z]|[万亿个颗%元块台张年月日号]))"
    return left, right


def _alias_regex(aliases: list[str]) -> str:
    """One trie per left boundary; each alias ends with its right boundary."""
    by_left: dict[str, list[str]] = {}
    for alias in aliases:
        by_left.setdefault(_boundaries(alias)[0], []).append(alias)
    parts = []
    for left, group in sorted(by_left.items(), key=lambda kv: -max(map(len, kv[1]))):
        trie = plain_trie(group, model_name, lambda a: _boundaries(a)[1])
        parts.append(f"{left}(?i:{trie})")
    first = first_chars(aliases, model_name)
    # the tries compare case-insensitively, and so must the look-ahead in front of them
    return either(parts, f"(?i:{first})" if first else "")


def chip_lexicon(lex: Lexicon) -> tuple[re.Pattern, dict[str, dict[str, str]]]:
    rows = lex.rows("chips.tsv")
    by_alias: dict[str, dict[str, str]] = {}
    for r in rows:
        by_alias[_norm_alias(r["alias"])] = r
    return compile_pattern(_alias_regex([r["alias"] for r in rows])), by_alias


@lru_cache(maxsize=4096)
def _norm_alias(text: str) -> str:
    return ALIAS_SEPARATORS.sub("", text).lower()


@lru_cache(maxsize=None)
def _context_regex(pattern: str) -> re.Pattern:
    return compile_pattern(pattern)


def _editions(lex: Lexicon) -> frozenset[str]:
    """Chips that are themselves a special edition (chips.tsv note "China SKU ..."): an
    edition word beside them ("特供版H20") names no variant."""
    return frozenset(r["entity"] for r in lex.rows("chips.tsv") if r["note"].startswith("China SKU"))


def variant_patterns(lex: Lexicon) -> list[tuple[re.Pattern, str]]:
    rows = lex.rows("variants.tsv")
    return [(compile_pattern(r["pattern"], re.IGNORECASE), r["canonical"]) for r in rows]


VARIANT_STARTS = frozenset("0123456789SsPpNnAa")  # first characters of data/variants.tsv


def find_chips(text: str, lexicon: Lexicon | None = None) -> list[Mention]:
    """Chip mentions in ``text`` with entity, variant and whether a system is meant."""
    lex = lexicon_or_default(lexicon)
    pattern, by_alias = lex.built(chip_lexicon)
    matches = [(m, row) for m in pattern.finditer(text)
               if (row := by_alias.get(_norm_alias(m.group()))) is not None]
    # a short alias that needs context ("4090") also stands once the document has named
    # the chip in full ("RTX 4090"), or seen once in its context, or the document holds
    # its doc_context (each context looked for once per match, each doc_context once)
    named, near, in_doc = set(), [], {}
    for m, row in matches:
        near.append(bool(row["context"]) and _in_context(text, m, row))
        if not row["context"] or near[-1]:
            named.add(row["entity"])
        doc_context = row.get("doc_context")
        if doc_context:
            if doc_context not in in_doc:
                in_doc[doc_context] = bool(_context_regex(doc_context).search(text))
            if in_doc[doc_context]:
                named.add(row["entity"])
    out = []
    for (m, row), is_near in zip(matches, near):
        if row["context"] and not is_near:
            if row["entity"] not in named or NOT_A_CHIP_AFTER.match(text, m.end()):
                continue
        mention = _mention(text, m.start(), m.end(), row["entity"], lex)
        note = row.get("note") or ""
        if note.startswith("two-GPU superchip") and SUPERCHIP_AFTER.match(text, m.end()):
            mention = replace(mention, system=True)   # "GB200 Superchip": two GPUs' totals
        if note == "die" and not mention.variant \
                and FULL_DIE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            mention = replace(mention, variant=FULL_DIE_VARIANT)
        out.append(mention)
    return _with_names(text, out, by_alias, lex)


def _mention(text: str, start: int, end: int, entity: str, lex: Lexicon,
             kind: str = "") -> Mention:
    variant, variant_end = read_variant(text, end, lex)
    if not variant and (EDITION_BEFORE.search(text, max(0, start - 16), start)
                        or match_at(EDITION_AFTER, EDITION_AFTER_STARTS, text, end)) \
            and entity not in lex.built(_editions):
        variant = EDITION_VARIANT  # "中国特供版Gaudi 3": not the figures of the chip sold elsewhere
    system = bool(SYSTEM_BEFORE.search(text[max(0, start - 12):start])
                  or match_at(SYSTEM_AFTER, SYSTEM_AFTER_STARTS, text[end:end + 12]))
    return Mention(start, end, entity, variant, variant_end, system, kind)


def _with_names(text: str, found: list[Mention], by_alias: dict, lex: Lexicon) -> list[Mention]:
    """``found`` (lexicon mentions) with the model names of chipnames.find_names: a
    name the lexicon knows takes its entity; where a name and a lexicon mention overlap,
    the longer wins ("RTX 4080 Super" over "RTX 4080"), the lexicon on a tie."""
    out = _Spans(found)
    for n in find_names(text, lex):
        row = by_alias.get(_norm_alias(n.entity))
        entity = row["entity"] if row is not None else n.entity
        overlap = out.overlapping(n.start, n.end)
        if any(c.entity == entity for c in overlap.values()):
            continue
        if any(c.start < n.start or c.end > n.end or c.end - c.start >= n.end - n.start
               for c in overlap.values()):
            continue
        out.remove(overlap)
        out.add(_mention(text, n.start, n.end, entity, lex,
                         "" if n.cls == "accelerator" else n.cls))
    return _code_names(text, sorted(out.in_order(), key=lambda c: c.start))


def _code_names(text: str, found: list[Mention]) -> list[Mention]:
    """A chip named as the code name of the chip right before it ("The H200 (codename:
    GH200)") names that chip in the whole document: its figures are that chip's."""
    means: dict[str, str] = {}
    for prev, c in zip(found, found[1:]):
        if c.entity != prev.entity and not prev.system and not prev.kind and not c.kind \
                and CODENAME_GAP.fullmatch(text, max(prev.end, prev.variant_end), c.start):
            means.setdefault(c.entity, prev.entity)
    if not means:
        return found
    return [replace(c, entity=means[c.entity]) if c.entity in means else c for c in found]


class _Spans:
    """Mentions in the order they were added, found by position in time that does not
    grow with their number (a document of thousands of chip names stays linear)."""

    def __init__(self, mentions: list[Mention]) -> None:
        self.items: dict[int, Mention] = {}       # key (order added) -> mention
        self.index: list[tuple[int, int]] = []    # (start, key), sorted
        self.longest = self.next_key = 0
        for m in mentions:
            self.add(m)

    def add(self, m: Mention) -> None:
        key, self.next_key = self.next_key, self.next_key + 1
        self.items[key] = m
        bisect.insort(self.index, (m.start, key))
        self.longest = max(self.longest, m.end - m.start)

    def overlapping(self, start: int, end: int) -> dict[int, Mention]:
        """key -> mention for those with c.start < end and start < c.end, in the order
        added (none starts before start - longest)."""
        hi = bisect.bisect_left(self.index, (end, -1))
        lo = bisect.bisect_left(self.index, (start - self.longest, -1))
        keys = sorted(k for _, k in self.index[lo:hi] if self.items[k].end > start)
        return {k: self.items[k] for k in keys}

    def remove(self, keys) -> None:
        for k in keys:
            at = bisect.bisect_left(self.index, (self.items.pop(k).start, k))
            del self.index[at]

    def in_order(self) -> list[Mention]:
        return list(self.items.values())


def _in_context(text: str, m: re.Match, row: dict) -> bool:
    window = text[max(0, m.start() - CONTEXT_WINDOW):m.end() + CONTEXT_WINDOW]
    return bool(_context_regex(row["context"]).search(window))


def read_variant(text: str, pos: int, lexicon: Lexicon | None = None) -> tuple[str, int]:
    """Variant words right after a chip name ("80GB SXM4"); returns (variant, end)."""
    parts: list[str] = []
    end = pos
    nxt = text[pos:pos + 3].lstrip(" -_/")
    if not nxt or nxt[0] not in VARIANT_STARTS:
        return "", pos  # the common case: nothing that could be a variant follows
    while len(parts) < 3:
        at = VARIANT_SEP.match(text, end).end()  # type: ignore[union-attr]  # (matches the empty string)
        for regex, canonical in lexicon_or_default(lexicon).built(variant_patterns):
            vm = regex.match(text, at)
            if vm:
                parts.append(canonical.format(*vm.groups()))
                end = vm.end()
                break
        else:
            break
    return " ".join(parts), end


def keyword_lexicon(lex: Lexicon) -> tuple[re.Pattern, dict[str, Keyword]]:
    rows = lex.rows("attributes.tsv")
    table = {}
    for r in rows:
        dims = frozenset(d.strip() for d in r["dims"].split(",") if d.strip())
        table[squash(r["keyword"])] = Keyword(0, 0, r["attribute"], r["qualifier"], dims)
    words = [r["keyword"] for r in rows]
    return _compile_words(words), table


def qualifier_lexicon(lex: Lexicon) -> tuple[re.Pattern, dict[str, str]]:
    rows = lex.rows("qualifiers.tsv")
    table = {squash(r["keyword"]): r["qualifier"] for r in rows}
    return _compile_words([r["keyword"] for r in rows]), table


def _compile_words(words: list[str]) -> re.Pattern:
    return compile_pattern(trie_regex(words))   # in any case by itself (see trie_regex)


def find_keywords(text: str, regions=None, lexicon: Lexicon | None = None) -> list[Keyword]:
    """Attribute keywords in ``text`` (only in ``regions``, when given)."""
    pattern, table = lexicon_or_default(lexicon).built(keyword_lexicon)
    out = []
    for m in scan(pattern, text, regions):
        kw = table[squash(m.group())]
        out.append(Keyword(m.start(), m.end(), kw.attribute, kw.qualifier, kw.dims))
    return out


def find_qualifiers(text: str, regions=None, lexicon: Lexicon | None = None) -> list[Keyword]:
    """Qualifier words (sparse, dense, tensor, non-tensor) in ``text``."""
    pattern, table = lexicon_or_default(lexicon).built(qualifier_lexicon)
    out = []
    for m in scan(pattern, text, regions):
        qualifier = table[squash(m.group())]
        out.append(Keyword(m.start(), m.end(), "", qualifier, frozenset()))
    return out
