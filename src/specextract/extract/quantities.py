"""Find quantities in normalized text: a number, its magnitude word and its unit.

``find_quantities(text)`` returns :class:`Quantity` records with spans into ``text``.
Model names and keywords that contain digits (A100, FP64, HBM2e) must be masked with
spaces before the call (see :mod:`specextract.extract.claims`), so that "FP647.8 TFLOPS"
yields 7.8 and "A100" yields nothing.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..lexicon.made import built
from ..regex_screens import compile_pattern
from ..lexicon.trie import FLEX_ONE, plain_trie, scan
from ..lexicon.units import unit_rows
from .fractionwords import fraction_values
from .numbers import (MAGNITUDES, ORDINAL_WORDS, WORD_NUMBERS, Number, parse_arabic,
                       parse_cjk, scale, times)
from .patterns import (ARABIC, CJK_NUM, FLOP_WORDS, FOUNDRY_NODE, NEWLINE, ORDINAL_PATTERNS,
                       PER_SECOND_BEFORE, QUANTITY_MAGNITUDE as MAGNITUDE,
                       QUANTITY_PAIR_JOIN as PAIR_JOIN, RANGE_AFTER, RANGE_AFTER_STARTS, RANGE_JOIN,
                       RANGE_JOIN_STARTS, RATIO_WORDS, RATIO_NOTATION_NEXT,
                       RATIO_NOTATION_NEXT_STARTS, RATIO_NOTATION_PREVIOUS, match_at,
                       SHARED_UNIT_AFTER, SHARED_UNIT_BEFORE, WORD_NUM)

COUNTERS = {"个": "count", "颗": "count", "枚": "count", "组": "count",
            "张": "other", "块": "other", "台": "other", "种": "other", "款": "other",
            "卡": "other", "年": "other", "月": "other", "日": "other", "元": "other",
            "美元": "other", "人民币": "other", "节点": "other", "倍数": "other"}


# Hashable like a frozen dataclass, and never changed once made, but not frozen: compiled,
# a frozen dataclass is built through interpreted object.__setattr__ calls (3x slower). Its
# own __init__ (the dataclass's parameters, kept by @dataclass) compiles too; the generated
# one is interpreted (tests/test_compiled_inits.py holds them to the fields).
@dataclass(unsafe_hash=True)
class Quantity:
    """A number with its unit, in the dimension's base unit (see data/units.tsv)."""

    start: int
    end: int
    value: Decimal
    precision_exp: int
    dimension: str  # throughput, bytes, bandwidth, ..., count, ordinal, ratio, percent, bare
    written: str = ""  # the unit as written, canonical spelling ("TOPS", "Gb", "个")
    number_start: int = 0
    number_end: int = 0
    is_range: bool = False
    pair: str = ""  # "dense" / "sparse" for the two halves of "156 / 312 TFLOPS"

    def __init__(self, start: int, end: int, value: Decimal, precision_exp: int, dimension: str,
                 written: str = "", number_start: int = 0, number_end: int = 0,
                 is_range: bool = False, pair: str = "") -> None:
        self.start, self.end, self.value, self.precision_exp = start, end, value, precision_exp
        self.dimension, self.written, self.number_start = dimension, written, number_start
        self.number_end, self.is_range, self.pair = number_end, is_range, pair


@dataclass(eq=False)
class Units:
    """A lexicon's units: the table, the alternation, and the regexes built on it."""

    table: dict[str, tuple[str, Decimal, str]]
    alternation: str
    quantity: re.Pattern = field(init=False)  # a number with its magnitude, unit or counter
    after: re.Pattern = field(init=False)     # a figure with a unit that ends where a search stops
    in_label: re.Pattern = field(init=False)  # a unit written in a table's row or column label

    def __post_init__(self) -> None:
        counters = "|".join(sorted(COUNTERS, key=len, reverse=True))
        number = rf"(?P<num>{ARABIC})|(?P<cjk>{CJK_NUM})|(?P<word>{WORD_NUM})(?=\s)"
        self.quantity = compile_pattern(
            rf"(?=[0-9零〇一二两三四五六七八九十百千oOtTfFsSeEnN])(?:{number})(?:\s?{FLOP_WORDS}|(?P<mag>{MAGNITUDE})?"
            rf"(?:\*?\s?(?:(?P<unit>{self.alternation})|(?P<counter>{counters})))?)"
        )
        self.after = compile_pattern(rf"\d\s?(?:{self.alternation})$")
        self.in_label = compile_pattern(rf"(?<![A-Za-z])(?:{self.alternation})")

    def info(self, unit_text: str) -> tuple[str, Decimal, str] | None:
        """(dimension, factor, written) of a unit as matched, or None."""
        key = " ".join(unit_text.split())
        return self.table.get(key) or self.table.get(key.lower())


def units_of(lexicon: Lexicon | None = None) -> Units:
    """The units of ``lexicon`` (the bundled one by default), built once per lexicon."""
    return built(lexicon_or_default(lexicon), _build_units)


def _build_units(lex: Lexicon) -> Units:
    return units_from_rows(unit_rows(lex))


def units_from_rows(rows: list[dict[str, str]]) -> Units:
    """(alias lower-cased or exact -> (dimension, factor, written), regex alternation).

    Case-exact aliases ("Gb" bits, "W", "x") come first as a plain alternation, longest
    first (two of one length never match the same text); the rest form one
    case-insensitive trie."""
    table: dict[str, tuple[str, Decimal, str]] = {}
    exact: list[str] = []
    loose: list[str] = []
    for r in sorted(rows, key=lambda r: (-len(r["alias"]), r["alias"])):
        alias = r["alias"]
        is_exact = r["case"] == "exact"
        table[alias if is_exact else alias.lower()] = (r["dimension"], Decimal(r["factor"]), r["written"])
        (exact if is_exact else loose).append(alias)
    lowered = [a.lower() for a in exact + loose]
    exact_alt = "|".join(re.escape(a) + _unit_end(a, _starts_longer(a, lowered)) for a in exact)
    loose_trie = plain_trie(loose, lambda a: a.replace(" ", FLEX_ONE), _unit_end)
    return Units(table, f"{exact_alt}|(?i:{loose_trie})")


def _unit_end(alias: str, prefix: bool = False) -> str:
    """A unit may run into an upper-case label in flattened tables ("TFLOPSFP32"); a
    one-letter unit may not ("4 GPUs" is no 4 G), nor one that starts a longer unit
    ("PF" of "PFLOPS")."""
    if not (alias[-1].isascii() and alias[-1].isalpha()):
        return ""
    return r"(?-i:(?![A-Za-z]))" if len(alias) == 1 or prefix else r"(?-i:(?![a-z]))"


def _starts_longer(alias: str, lowered: list[str]) -> bool:
    """Does a longer unit start with ``alias`` (case aside)?"""
    low = alias.lower()
    return any(len(o) > len(low) and o.startswith(low) for o in lowered)


def unit_info(unit_text: str, lexicon: Lexicon | None = None) -> tuple[str, Decimal, str] | None:
    """(dimension, factor, written) of a unit as matched, or None."""
    return units_of(lexicon).info(unit_text)


@lru_cache(maxsize=1)
def ordinal_pattern() -> re.Pattern:
    return compile_pattern("(?=[第1-6fFsStTPpGg])(?:" + "|".join(f"(?:{p})" for p in ORDINAL_PATTERNS) + ")")


def find_quantities(text: str, regions=None, lexicon: Lexicon | None = None,
                    labels: Sequence[tuple[int, frozenset[str]]] = ()) -> list[Quantity]:
    """All quantities in ``text`` (masked normalized text), in order; only in the
    (start, end) ``regions`` when given. ``labels`` are the (start, dims) of the attribute
    keywords masked out of ``text``, in order: a bare number whose first label after it
    counts something ("110 CUs and 128GB") keeps that label, not the next figure's unit."""
    units = units_of(lexicon)
    out: list[Quantity] = []
    for m in scan(units.quantity, text, regions):
        q = _quantity(text, m, units)
        if q is not None:
            out.append(q)
    special = _ordinals(text, regions) + _node_names(text, regions) + _fractions(text, regions)
    if special:  # "PCIe 4.0" is an ordinal and "TSMC 4N" a node, not the numbers 4.0 and 4
        out = [q for q in out if not _overlaps_any(q, special)]
    out.extend(special)
    out.extend(_ratio_words(text, regions))
    out = [q for q in out if not _in_ratio_notation(text, q)]
    out.sort(key=lambda q: q.start)
    return _share_units(text, _mark_ranges(text, out), units, labels)


def _in_ratio_notation(text: str, q: Quantity) -> bool:
    """Is a bare number one side of a ratio written "4:1" ("77.97 TFLOPS (4:1)", "FP64 1:2")?
    (Not a label's digits before a colon: "FP32:19.5".)"""
    if q.dimension != "bare" or (q.start and (text[q.start - 1].isalnum() or text[q.start - 1] == ".")):
        return False
    return (match_at(RATIO_NOTATION_NEXT, RATIO_NOTATION_NEXT_STARTS, text, q.end) is not None
            or RATIO_NOTATION_PREVIOUS.search(text, max(0, q.start - 12), q.start) is not None)


def _overlaps_any(q: Quantity, others: list[Quantity]) -> bool:
    """Does ``q`` overlap one of ``others``?"""
    start, end = q.start, q.end
    for o in others:
        if o.start < end and start < o.end:
            return True
    return False


def _share_units(text: str, quantities: list[Quantity], units: Units,
                 labels: Sequence[tuple[int, frozenset[str]]] = ()) -> list[Quantity]:
    """'15.7和19.5 TFLOPS', '183 | 366* TFLOPS': a bare number takes the unit written once
    after it, unless a label of counts stands between them (``labels``, see
    find_quantities); '733 TFLOPS (1,466 with sparsity)': the one before it. A
    'dense | sparse' pair (the second twice the first) is marked as such."""
    label_starts = [start for start, _ in labels]
    out = list(quantities)
    rows_seen: dict = {}
    for i in range(len(out) - 1, 0, -1):
        a, b = out[i - 1], out[i]
        gap = text[a.end:b.start]
        if "|" in gap and _is_table_row(text, a.end, rows_seen):
            continue  # in a pipe table "|" separates cells, not a pair
        if a.dimension == "bare" and b.dimension not in ("bare", "ordinal", "count") \
                and SHARED_UNIT_BEFORE.match(gap) \
                and not _count_label(labels, label_starts, a.end, b.start, b.dimension):
            a = out[i - 1] = _with_unit_of(a, b, units)
        elif b.dimension == "bare" and a.dimension == "throughput" and SHARED_UNIT_AFTER.match(gap):
            b = out[i] = _with_unit_of(b, a, units)
        if a.dimension == b.dimension == "throughput" and PAIR_JOIN.match(gap) and a.value and b.value:
            if abs(b.value / a.value - 2) < Decimal("0.02"):  # "156 / 312"
                out[i - 1], out[i] = replace(a, pair="dense"), replace(b, pair="sparse")
            elif abs(a.value / b.value - 2) < Decimal("0.02"):  # "18/9 PFLOPS", sparse first
                out[i - 1], out[i] = replace(a, pair="sparse"), replace(b, pair="dense")
    return out


def _count_label(labels: Sequence[tuple[int, frozenset[str]]], starts: list[int],
                 start: int, end: int, dimension: str) -> bool:
    """Is the first label in [start, end) one of counts, not of ``dimension``?"""
    j = bisect_left(starts, start)
    if j == len(starts) or starts[j] >= end:
        return False
    dims = labels[j][1]
    return "count" in dims and dimension not in dims


def _is_table_row(text: str, pos: int, seen: dict) -> bool:
    """Is the line holding ``pos`` a pipe-table row? (answered once per line)"""
    if "newlines" not in seen:
        seen["newlines"] = [m.start() for m in NEWLINE.finditer(text)]
    newlines = seen["newlines"]
    i = bisect_left(newlines, pos)
    start = newlines[i - 1] + 1 if i else 0
    if start not in seen:
        end = newlines[i] if i < len(newlines) else len(text)
        seen[start] = text.count("|", start, end) >= 2
    return seen[start]


def _with_unit_of(bare: Quantity, other: Quantity, units: Units) -> Quantity:
    """``bare`` in ``other``'s unit (the factor is read off ``other``'s written unit)."""
    info = units.info(other.written)
    factor = info[1] if info else Decimal(1)
    number = times(Number(bare.value, bare.precision_exp), factor)
    return replace(bare, value=number.value, precision_exp=number.precision_exp,
                   dimension=other.dimension, written=other.written)


def _mark_ranges(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """'1.9–2.0 TB/s', '300到350W': both ends of a range are ranges."""
    out = list(quantities)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if b.start - a.end <= 4 and match_at(RANGE_JOIN, RANGE_JOIN_STARTS, text[a.end:b.start]) \
                and a.dimension not in ("ordinal",) and b.dimension not in ("ordinal",):
            out[i - 1] = replace(a, is_range=True)
            out[i] = replace(b, is_range=True)
    return out


QUANTITY_GROUPS = ("num", "cjk", "word", "mag", "flopmag", "unit", "counter")


def _quantity(text: str, m: re.Match, units: Units) -> Quantity | None:
    start = m.start()
    if start:
        before = text[start - 1]
        if before.isascii() and (before.isalnum() or before in "_.") or before == "第":
            # inside a word or model name, or an ordinal (handled apart) -- unless it
            # follows a unit, as in tables flattened into text ("7.8 TFLOPS9.7 TFLOPS",
            # "1530MHz1410MHz")
            if not (before.isalpha() and _after_unit(text, start, units)):
                return None
    num, cjk, word, mag, flopmag, unit, counter = m.group(*QUANTITY_GROUPS)
    reading = _reading(units, num, cjk, word, mag, flopmag, unit, counter)
    if reading is None:
        return None
    value, precision_exp, dimension, written = reading
    number_end = m.end("num" if num else "cjk" if cjk else "word")
    end = m.end()
    if dimension == "bytes":  # "每秒3.35TB", "1.5万亿字节每秒": bytes per second
        if PER_SECOND_BEFORE.search(text, max(0, start - 12), start) or text.startswith("每秒", start - 2):
            dimension = "bandwidth"
        elif text.startswith("每秒", end):
            dimension, end = "bandwidth", end + 2
    is_range = match_at(RANGE_AFTER, RANGE_AFTER_STARTS, text, end) is not None
    return Quantity(start, end, value, precision_exp, dimension, written,
                    start, number_end, is_range)


def _reading(units, num, cjk, word, mag, flopmag, unit, counter) -> tuple | None:
    """(value, precision_exp, dimension, written) of a match's groups, or None when they
    make no figure. (Not cached: a cache saved 1.4% of the extract stage, 1255 vs 1273 M
    instructions per pass over corpus/.) A counter of no figure ("2024年") and a Chinese
    numeral with no unit are told before the number is read."""
    if counter and COUNTERS[counter] == "other" or cjk and not (flopmag or unit or counter):
        return None  # (a counter excludes a unit and a FLOP word: one group of the regex)
    if num:
        number = parse_arabic(num)
    elif cjk:
        number = parse_cjk(cjk)
    else:
        number = Number(Decimal(WORD_NUMBERS[word.lower()]), 0)
    if number is None:
        return None
    if mag:
        mag = mag.strip()
        if mag:
            number = scale(number, MAGNITUDES.get(mag, MAGNITUDES.get(mag.lower(), 0)))
    dimension, written = "bare", ""
    if flopmag:
        number = scale(number, MAGNITUDES[flopmag] - 12)  # -> T(FL)OPS
        dimension, written = "throughput", "万亿次"
    elif unit:
        info = units.info(unit)
        if info is None:
            return None
        dimension, factor, written = info
        number = times(number, factor)
    elif counter:
        dimension = COUNTERS[counter]
        written = counter
    if dimension == "other":
        return None
    if not num and dimension == "bare" and not word:
        return None  # a Chinese numeral needs a unit or counter to be a figure
    return number.value, number.precision_exp, dimension, written


def _after_unit(text: str, start: int, units: Units) -> bool:
    """Does a unit (or an N/A cell) end right before ``start``?"""
    if text.endswith("N/A", 0, start):
        return True
    m = units.after.search(text, max(0, start - 14), start)
    return m is not None and m.group().lstrip("0123456789 ") not in ("x", "X")  # not "x16" lanes


def _ordinals(text: str, regions=None) -> list[Quantity]:
    out = []
    for m in scan(ordinal_pattern(), text, regions):
        if m.group("ord"):
            raw = m.group("ord")
            n = int(raw) if raw.isdigit() else int(parse_cjk(raw).value)  # type: ignore[union-attr]  # the pattern matched a CJK numeral
            written = "代"
        elif m.group("ordw"):
            n, written = ORDINAL_WORDS[m.group("ordw").lower()], "generation"
        elif m.group("ordd"):
            n, written = int(m.group("ordd")), "代"
        elif m.group("pcie"):
            n, written = int(m.group("pcie")), "PCIe"
        elif m.group("gen"):
            n, written = int(m.group("gen")), "Gen"
        else:
            n, written = int(parse_cjk(m.group("pciecjk")).value), "PCIe"  # type: ignore[union-attr]
        out.append(Quantity(m.start(), m.end(), Decimal(n), 0, "ordinal", written,
                            m.start(), m.end()))
    return out


def _node_names(text: str, regions=None) -> list[Quantity]:
    """A foundry's node name ("TSMC 4N", "Samsung 8N", "台积电 N5", "4NP 工艺"): the process
    node in nm."""
    out = []
    for m in scan(FOUNDRY_NODE, text, regions):
        group = next(g for g in ("n", "m", "k", "j") if m.group(g))
        start = m.start(group) - (1 if group in ("m", "j") else 0)  # "N4": the N is the name's
        out.append(Quantity(start, m.end(), Decimal(m.group(group)), 0, "length", "N",
                            m.start(group), m.end(group)))
    return out


def _fractions(text: str, regions=None) -> list[Quantity]:
    """"H200 的 1/34", "五分之一", "一半": ratios written "/" (see :mod:`fractionwords`)."""
    return [Quantity(start, end, value, -6, "ratio", "/", start, end)
            for start, end, value in fraction_values(text, regions)]


def _ratio_words(text: str, regions=None) -> list[Quantity]:
    out = []
    for m in scan(RATIO_WORDS, text, regions):
        word = (m.group("w") or "double").lower().rstrip("sd") or "double"
        value = {"twice": 2, "double": 2, "doubl": 2, "tripl": 3, "triple": 3,
                 "quadrupl": 4, "quadruple": 4}.get(word, 2)
        out.append(Quantity(m.start(), m.end(), Decimal(value), 0, "ratio", "x",
                            m.start(), m.end()))
    return out
