"""Cells run together: the ways a row's value text can split into N cells.

Flattened tables lose the gaps between cells: "460810496" is two chips' 4608 and 10496,
"16.335.6" is 16.3 and 35.6, "261284 / 568" is 261 and the pair 284 / 568. ``parses``
lists every reading of such a text as exactly N cells (a number with an optional unit,
magnitude word and bracketed note, a "dense / sparse" pair, or an empty cell); the
caller keeps the readings whose figures are plausible and accepts one only when the
choice is clear (see :func:`best`). A number never starts with a 0 ("0496"), which
settles most runs of integers ("250300400400" can only be 250, 300, 400, 400).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..regex_screens import compile_pattern
from .quantities import units_of
from .patterns import (EMPTY, GAP, GLUED_MAGNITUDE as MAGNITUDE, GLUED_PAIR_JOIN as PAIR_JOIN,
                       NOTE, NUMBER_RUN, ORDINAL_SUFFIX, VALID_NUMBER)

APPROX_SIGNS = "~～≈"  # "~8.1 TFLOPS": about (operator "~")
LEAD_SIGNS = "+" + APPROX_SIGNS  # written before a cell's number and kept out of it
MAX_PARSES = 256  # more readings than this: too ambiguous to choose


@dataclass(frozen=True)
class Piece:
    """One written figure: the number's span, its unit and magnitude word as written."""

    start: int
    end: int  # end of the number, unit and magnitude
    number: str
    unit: str = ""
    magnitude: str = ""
    sign: str = ""  # "+" or "~" written before the number
    note: tuple[int, int] = (0, 0)  # span of a bracketed note after it ("(3rd Gen)")

    @property
    def number_start(self) -> int:
        return self.start + len(self.sign)

    @property
    def decimals(self) -> int:
        return len(self.number.partition(".")[2])


# a cell: None (empty), one piece, or (dense, sparse) pieces
Cell = tuple[Piece, ...] | None


def unit_regex(lex: Lexicon) -> re.Pattern:
    """A unit right after a number in a glued run (built once per lexicon)."""
    return lex.built(_build_unit_regex)


def _build_unit_regex(lex: Lexicon) -> re.Pattern:
    return compile_pattern(rf"\s?(?:{units_of(lex).alternation})")


def _numbers(text: str, pos: int, end: int) -> list[tuple[int, str]]:
    """(end, number text) of every number that can start at ``pos`` (shortest first)."""
    m = NUMBER_RUN.match(text, pos, end)
    if not m:
        return []
    run = m.group()
    out = []
    for i in range(1, len(run) + 1):
        piece = run[:i]
        if VALID_NUMBER.fullmatch(piece) and (i == len(run) or run[i].isdigit()):
            out.append((pos + i, piece))
    return out


def _pieces(text: str, pos: int, end: int, unit_re: re.Pattern) -> list[Piece]:
    """Every figure that can be read at ``pos``: a number, then a magnitude and a unit."""
    out = []
    for num_end, number in _numbers(text, pos, end):
        at, magnitude, unit = num_end, "", ""
        o = ORDINAL_SUFFIX.match(text, at, end)
        if o and len(number) == 1:  # "3rd", "4th Gen"
            out.append(Piece(pos, o.end(), number, "ordinal"))
            continue
        m = MAGNITUDE.match(text, at, end)
        if m:
            magnitude, at = m.group().strip(), m.end()
        u = unit_re.match(text, at, end)
        if u:
            unit, at = u.group().strip(), u.end()
        out.append(Piece(pos, at, number, unit, magnitude))
    return out


def _cells(text: str, pos: int, end: int, keep: Callable[[Piece], bool],
           unit_re: re.Pattern) -> list[tuple[int, Cell]]:
    """(end, cell) of every cell that can start at ``pos`` (figures that ``keep`` accepts)."""
    m = EMPTY.match(text, pos, end)
    if m:
        return [(m.end(), None)]
    out: list[tuple[int, Cell]] = []
    # "+43%" in a comparison column, "~8.1 TFLOPS" (about)
    sign = text[pos] if pos < end and text[pos] in LEAD_SIGNS else ""
    for piece in _pieces(text, pos + len(sign), end, unit_re):
        piece = replace(piece, start=pos, sign=sign) if sign else piece
        if not keep(piece):
            continue
        at = piece.end
        note = NOTE.match(text, at, end)
        if note:
            at = note.end()
            piece = replace(piece, note=note.span())
        out.append((at, (piece,)))
        join = PAIR_JOIN.match(text, at, end)
        if join:
            for second in _pieces(text, join.end(), end, unit_re):
                if keep(second):
                    out.append((second.end, (piece, second)))
    return out


def parses(text: str, start: int, end: int, n: int,
           keep: Callable[[Piece], bool] = lambda piece: True,
           lexicon: Lexicon | None = None) -> list[list[Cell]] | None:
    """Every reading of ``text[start:end]`` as exactly ``n`` cells whose figures ``keep``
    accepts; None when there are more than MAX_PARSES (too many to choose from)."""
    unit_re = unit_regex(lexicon_or_default(lexicon))
    memo: dict[tuple[int, int], list[list[Cell]]] = {}

    def rest(pos: int, k: int) -> list[list[Cell]]:
        pos = GAP.match(text, pos, end).end()  # type: ignore[union-attr]  # (matches the empty string)
        if k == 0:
            return [[]] if pos >= end else []
        key = (pos, k)
        if key not in memo:
            found: list[list[Cell]] = []
            for cell_end, cell in _cells(text, pos, end, keep, unit_re):
                for tail in rest(cell_end, k - 1):
                    found.append([cell] + tail)
                    if len(found) >= MAX_PARSES:
                        break
            memo[key] = found
        return memo[key]

    found = rest(start, n)
    return None if len(found) >= MAX_PARSES else found
