"""Which script a document is written in, and traditional -> simplified conversion.

Conversion is OpenCC's character-level ``t2s`` (it keeps this domain's 核心, which the
phrase configs rewrite to 内核) followed by the project's own Taiwan / Hong Kong term
list (``data/zh_hant_terms.tsv``: 记忆体→内存, 电晶体→晶体管, 奈米→纳米 ...), applied
as edits so that the offset map survives the length changes.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

import numpy as np
import opencc

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..lexicon.trie import plain_trie
from ..programcache import ProgramCache
from ..regex_screens import compile_pattern
from .offsets import Edit, OffsetMap, RunBuilder, apply_edits

OPENCC_CONFIG = "t2s"


@lru_cache(maxsize=1)
def _converters() -> tuple[opencc.OpenCC, opencc.OpenCC]:
    return opencc.OpenCC("t2s"), opencc.OpenCC("s2t")


HAN, TRAD, SIMP, LETTER = 1, 2, 4, 8  # bits of the character classes table


# the table below, kept from one process to the next under OpenCC's version (building it
# converts every Han character both ways, and loading OpenCC's s2t alone takes 0.05 s)
TABLES = ProgramCache("script-classes", __file__)


@lru_cache(maxsize=1)
def _char_classes() -> np.ndarray:
    """One byte per BMP character: Han, traditional-only, simplified-only (read off
    OpenCC's own t2s and s2t conversions) and Latin-letter bits."""
    version = f"opencc {getattr(opencc, '__version__', '')}"
    kept = TABLES.get("table", version, 0)
    if isinstance(kept, bytes) and len(kept) == 0x10000:
        return np.frombuffer(kept, dtype=np.uint8)
    table = _built_char_classes()
    TABLES.put("table", version, 0, table.tobytes())
    return table


def _built_char_classes() -> np.ndarray:
    t2s, s2t = _converters()
    table = np.zeros(0x10000, dtype=np.uint8)
    table[0x3400:0xA000] |= HAN
    table[0xF900:0xFB00] |= HAN
    for lo, hi in ((0x41, 0x5B), (0x61, 0x7B)):
        table[lo:hi] |= LETTER
    chars = [chr(c) for c in range(0x3400, 0xA000)]
    joined = "\n".join(chars)
    as_simp = t2s.convert(joined).split("\n")
    as_trad = s2t.convert(joined).split("\n")
    for c, s, t in zip(chars, as_simp, as_trad):
        if s != c:
            table[ord(c)] |= TRAD
        elif t != c:
            table[ord(c)] |= SIMP
    return table


_CLASS_BITS = {name: [v for v in range(16) if v & bit]
               for name, bit in (("han", HAN), ("trad", TRAD), ("simp", SIMP))}


def script_counts(text: str) -> dict[str, int]:
    """Counts of Han characters, traditional-only and simplified-only ones, Latin words
    (runs of two or more letters)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    classes = _char_classes()[np.minimum(codes, 0xFFFF)]  # astral: neither script
    per_class = np.bincount(classes, minlength=16).tolist()
    counts = {name: sum(per_class[v] for v in values) for name, values in _CLASS_BITS.items()}
    letters = b"\x00" + (classes == LETTER).tobytes()  # one byte per character: 1 = letter
    counts["latin_words"] = letters.count(b"\x00\x01\x01")  # a non-letter, then 2+ letters
    return counts


def detect_script(text: str) -> str:
    """zh-Hans, zh-Hant, en or mixed (Chinese and English prose in one document)."""
    return classify(script_counts(text))


def classify(c: dict[str, int]) -> str:
    """The script label for counts from :func:`script_counts`."""
    han, words = c["han"], c["latin_words"]
    if han < 10 and han <= words:
        return "en"
    # A Han character carries about a word; a page whose Latin words rival its Han
    # characters is code-switched, not Chinese with a few product names.
    if words > 0.35 * han:
        return "en" if han < 0.1 * words else "mixed"
    return "zh-Hant" if is_traditional(c) else "zh-Hans"


def is_traditional(counts: dict[str, int]) -> bool:
    return counts["trad"] > 0 and counts["trad"] > 2 * counts["simp"]


def to_simplified(text: str, lexicon: Lexicon | None = None) -> tuple[str, OffsetMap | None]:
    """Traditional -> simplified with the domain's terms; returns text and map (None = identity)."""
    t2s, _ = _converters()
    converted = t2s.convert(text)
    step: OffsetMap | None = None
    if len(converted) != len(text):
        converted, step = _aligned_convert(text, t2s)
    termed, term_map = apply_edits(converted, _term_edits(converted, lexicon))
    if term_map is None:
        return termed, step
    return termed, (step.then(term_map) if step is not None else term_map)


def _aligned_convert(text: str, conv: opencc.OpenCC) -> tuple[str, OffsetMap]:
    """Convert line by line, aligning the rare lines whose length OpenCC changed."""
    out = RunBuilder()
    pieces: list[str] = []
    in_pos = out_pos = 0
    for line in text.splitlines(keepends=True):
        conv_line = conv.convert(line)
        if len(conv_line) == len(line):
            out.add(out_pos, in_pos, 1)
        else:
            ops = SequenceMatcher(None, line, conv_line, autojunk=False).get_opcodes()
            for tag, i1, i2, j1, j2 in ops:
                if j2 == j1:
                    continue
                if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                    out.add(out_pos + j1, in_pos + i1, 1)
                else:  # a replacement of another length, or an insertion
                    base = in_pos + min(i1, max(len(line) - 1, 0))
                    out.add(out_pos + j1, base, 1 if i2 > i1 else 0)
                    if i2 - i1 < j2 - j1 and i2 > i1:
                        out.add(out_pos + j1 + (i2 - i1), in_pos + i2 - 1, 0)
        pieces.append(conv_line)
        in_pos += len(line)
        out_pos += len(conv_line)
    return "".join(pieces), out.build(out_pos)


def term_pattern(lex: Lexicon) -> tuple[re.Pattern, dict[str, str]]:
    rows = lex.rows("zh_hant_terms.tsv")
    table = {r["term"]: r["mainland"] for r in rows}
    return compile_pattern(plain_trie(list(table))), table  # a trie: longest term first


def _term_edits(text: str, lexicon: Lexicon | None = None) -> list[Edit]:
    pattern, table = lexicon_or_default(lexicon).built(term_pattern)
    return [Edit(m.start(), m.end(), table[m.group()]) for m in pattern.finditer(text)]
