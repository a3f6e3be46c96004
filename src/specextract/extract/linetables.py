"""Flattened tables one row to a line: a line of chip names, then "label values" lines.

    GeForce X1 GeForce X2          <- header: only chip names (and brand words)
    Shader Units / GPU51209728     <- label (an attribute keyword), then one cell per chip
    Boost Clock (MHz)16501800      <- units may sit in the label only
    Peak INT8 Tensor TOPs250300 / 600

The cells of a row are often run together; :mod:`gluedcells` lists the ways to split
them, and a row is read only when exactly one reading is plausible for its attribute
(see :func:`best`). Rows counted per unit ("/ SM", "per SM") are no claims and are
skipped, as are rows whose label names no attribute or whose figures don't fit it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cells import (in_span as _in, label_info as _label, label_names_no_claim, more_columns,
                    piece_draft, piece_quantity, shared_unit)
from .comparecol import compare_draft, is_compare_header, speedup_value
from .gluedcells import Cell, Piece, parses
from .mentions import Keyword, Mention
from .numbers import parse_arabic
from .drafts import Draft, Found, plausible
from .quantities import units_of
from .segment import Span
from .patterns import (CORNER, HEADER_FILLER, LINE_HEADER_GAP as HEADER_GAP, NOTE_TAIL, NOT_SPEC,
                       PER_UNIT, PRECISION_NAME, VALUES_START)

MAX_ROW = 120  # a longer line is prose, and ends the table
MAX_LABEL_LINES = 3  # a label wrapped over lines ("Peak FP16 Tensor TFLOPs" / "with FP32 Accumulate")
PAIR_RATIO = (1.9, 2.1)  # a "dense / sparse" pair: structured sparsity doubles the rate


def read_line_tables(found: Found, grids: Sequence[Span] = ()) -> tuple[list[Draft], list[Span]]:
    """Drafts of every line-per-row flattened table, and the spans the tables cover
    (a header line inside one of the ``grids``, the grid tables, is theirs)."""
    drafts, spans = [], []
    lines = text_lines(found.text)
    i = 0
    while i < len(lines):
        inside = any(g.start <= lines[i].start < g.end for g in grids)
        header = None if inside else _header(found, lines[i])
        if header is None:
            i += 1
            continue
        rows_end, table = _rows(found, lines, i + 1, header)
        if table and _wrapped(found, lines, i):  # its columns are a guess: no accusation
            table = [replace(d, link="wrapped-header") for d in table]
        if table:
            drafts.extend(table)
            spans.append(Span(lines[i].start, lines[rows_end - 1].end))
        i = max(rows_end, i + 1)
    return drafts, spans


def text_lines(text: str) -> list[Span]:
    """The span of each line of ``text``."""
    out, pos = [], 0
    for row in text.split("\n"):
        out.append(Span(pos, pos + len(row)))
        pos += len(row) + 1
    return out


@dataclass(frozen=True)
class Header:
    chips: list[Mention]
    compare: bool = False  # a last column of speed-ups ("提升")


def _header(found: Found, line: Span) -> Header | None:
    """A line that names two or more chips (or variants) and nothing else but brand
    words, bracketed notes, a corner label before them and a comparison column after."""
    chips = [c for c in _in(found, "chips", line)]
    if len(chips) < 2 or any(c.system for c in chips):
        return None
    if len({(c.entity, c.variant) for c in chips}) < len(chips):
        return None  # the same chip twice: not one column each
    tail = _tail_after_names(found, line, chips)
    if tail is None:
        return None
    if HEADER_FILLER.match(tail):
        return Header(chips)
    if len(chips) == 2 and is_compare_header(tail):
        return Header(chips, compare=True)
    return None


def _tail_after_names(found: Found, line: Span, chips: list[Mention]) -> str | None:
    """What follows the line's chip names (a bracketed note after the last one dropped),
    when brand words, after a corner label or not, stand before them ("参数 NVIDIA T4
    NVIDIA A10") and only blanks, notes and brand words between them; else None."""
    text = found.text
    head = text[line.start:chips[0].start]
    corner = CORNER.match(head)
    if not (HEADER_FILLER.match(head) or corner and HEADER_FILLER.match(head[corner.end():])):
        return None
    if not all(HEADER_GAP.fullmatch(text[max(a.end, a.variant_end):b.start])
               for a, b in zip(chips, chips[1:])):
        return None
    return NOTE_TAIL.sub("", text[max(chips[-1].end, chips[-1].variant_end):line.end], count=1)


def _wrapped(found: Found, lines: list[Span], i: int) -> bool:
    """Is header line ``i`` one line of a header wrapped over several (a line of chip names
    just above or below it, or two lines off with a line between: "V100 PCIe" / "T4 A100
    PCIe" / "A100 SXM", "H100" / "80GB PCIe" / "H20H800" / "80GB SXM")?"""
    def near(j: int) -> bool:  # no blank line between
        return 0 <= j < len(lines) and all(found.text[b.start:b.end].strip()
                                           for b in lines[min(i, j) + 1:max(i, j)])
    return any(near(j) and _names_only(found, lines[j]) for j in (i - 1, i + 1, i - 2, i + 2))


def _names_only(found: Found, line: Span) -> bool:
    """Does the line hold one or more chip names and nothing else but brand words, notes
    and a corner label?"""
    chips = _in(found, "chips", line)
    tail = _tail_after_names(found, line, chips) if chips else None
    return tail is not None and HEADER_FILLER.match(tail) is not None


def _rows(found: Found, lines: list[Span], i: int, header: Header) -> tuple[int, list[Draft]]:
    """(index after the table's last line, drafts) of the rows under a header. A line
    with no reading continues the label of the next ("Peak FP16 Tensor TFLOPs" / "with
    FP32 Accumulate" / "130.5142 / 238")."""
    drafts: list[Draft] = []
    label_start, waiting = None, 0
    while i < len(lines):
        line = lines[i]
        if not found.text[line.start:line.end].strip() or line.end - line.start > MAX_ROW:
            break
        start = line.start if label_start is None else label_start
        read = _first_reading(found, header, start, line)
        if read is None and waiting < MAX_LABEL_LINES and not _has_figure(found.masked[line.start:line.end]):
            label_start, waiting = start, waiting + 1
        else:
            label_start, waiting = None, 0
            drafts.extend(read or ())
        i += 1
    return i, drafts


def _has_figure(row: str) -> bool:
    return any(c.isdigit() for c in PRECISION_NAME.sub("", row))


def _first_reading(found: Found, header: Header, start: int, line: Span) -> list[Draft] | None:
    """The drafts of a row whose label starts at ``start`` ([] when its reading is
    ambiguous or no claim), or None when the line holds no reading at all."""
    masked = found.masked
    for m in VALUES_START.finditer(masked, line.start, line.end):
        if m.start() > line.start and masked[m.start() - 1].isdigit():
            continue
        label = Span(start, m.start())
        if not _in(found, "keywords", label):
            continue
        read = _row(found, header, label, Span(m.start(), line.end))
        if read is not None:
            skip = PER_UNIT.search(found.text, label.start, label.end) or NOT_SPEC.search(
                found.text, label.start, label.end)
            return [] if skip else read
    return None


def _row(found: Found, header: Header, label: Span, values: Span) -> list[Draft] | None:
    """The drafts of the one clear reading of a row ([] if ambiguous), None if none."""
    kw, unit, quals = _label(found, label)
    if kw is None:
        return None
    if label_names_no_claim(found, label, kw):
        return []  # "ICI bandwidth", "Host RAM per VM": another link's, a system's
    chip = header.chips[0]

    def keep(piece) -> bool:  # (a figure that cannot be a cell of this row)
        return (piece_draft(found, chip, piece, kw, unit, quals, "", "") is not None
                or header.compare and piece.unit in ("%", "x", "×", "倍"))

    readings = []
    widths = (len(header.chips) + 1, len(header.chips)) if header.compare else (len(header.chips),)
    for n in widths:  # (a comparison cell may be left empty)
        cells_list = parses(found.masked, values.start, values.end, n, keep, found.lexicon)
        if cells_list is None:
            return []
        for cells in cells_list:
            drafts = _cells_drafts(found, header, cells, kw, unit, quals)
            if drafts is not None:
                readings.append((cells, drafts))
        if readings:
            break
    if not readings:
        return None
    read = best(readings) or []
    if read and more_columns(found, _line_figures(found, values), widths[0]):
        # "80GB HBM2e80GB94GB96GB80GB" under two names: the header names only some columns
        read = [replace(d, link="wrapped-header") for d in read]
    return read


def _line_figures(found: Found, values: Span) -> list[tuple[int, int]]:
    """The figures with a unit on the line of ``values`` (a label may hold cells too)."""
    line_start = found.text.rfind("\n", 0, values.start) + 1
    return [(q.start, q.end) for q in found.within("quantities", line_start, values.end)
            if q.dimension != "bare"]


def best(readings: list[tuple[list[Cell], list[Draft]]]) -> list[Draft] | None:
    """The one clear reading, or None. Readings giving the same figures are one; among
    the rest, pairs whose second figure is twice the first (dense / sparse) win, then a
    cell repeated across the row ("691269126912"), then three or more cells of one width,
    then the fewest decimals (a table
    prints "16.335.6" as 16.3 and 35.6). A tie is ambiguous: the row yields nothing."""
    distinct: dict[tuple, tuple] = {}
    for cells, drafts in readings:
        key = tuple((d.entity, d.variant, d.attribute, d.value, d.qualifier) for d in drafts)
        distinct.setdefault(key, (_rank(cells), drafts))
    if not distinct:
        return None
    ranked = sorted(distinct.values(), key=lambda r: r[0])
    if len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
        return None
    return ranked[0][1]


def _rank(cells: list[Cell]) -> tuple[int, int, int, int]:
    mismatched = 0
    for cell in cells:
        if cell is not None and len(cell) == 2:
            a, b = (parse_arabic(p.number).value for p in cell)  # type: ignore[union-attr]  # (read as numbers)
            if not (a and PAIR_RATIO[0] <= b / a <= PAIR_RATIO[1]):
                mismatched += 1
    texts = {tuple(p.number + p.unit for p in c) for c in cells if c is not None}
    repeated = 0 if len(texts) == 1 and len(cells) > 1 else 1
    decimals = sum(p.decimals for c in cells if c is not None for p in c)
    return mismatched, repeated, _uneven(cells), decimals


def _uneven(cells: list[Cell]) -> int:
    """0 when three or more cells print their figures with as many integer digits
    ("1555193515552039" as 1555, 1935, 1555, 2039), else 1 (two cells are too few to tell)."""
    widths = {len(p.number.partition(".")[0].replace(",", "")) for c in cells if c is not None for p in c}
    filled = [c for c in cells if c is not None]
    return 0 if len(filled) >= 3 and len(widths) == 1 else 1


def _cells_drafts(found: Found, header: Header, cells: list[Cell], kw: Keyword,
                  unit, quals: set[str]) -> list[Draft] | None:
    """Drafts of one reading of a row, or None when a figure doesn't fit the label. A
    bare figure among figures that all write one unit takes that unit (when the label
    writes none): "2.5 PFLOPS 2.25 PFLOPS 2.25"."""
    out, by_chip = [], []
    if unit is None:
        unit = _pieces_unit(found, cells)
    for chip, cell in zip(header.chips, cells):
        mine = []
        pieces = cell or ()
        for n, piece in enumerate(pieces):
            pair = "" if len(pieces) == 1 else ("dense", "sparse")[n]
            d = piece_draft(found, chip, piece, kw, unit, quals, pair, "run-table")
            if d is None:
                return None
            mine.append(d)
            if kw.attribute == "tensor_cores":
                mine.extend(_note_generation(found, chip, piece))
        out.extend(mine)
        by_chip.append(mine)
    if len(cells) > len(header.chips) and cells[-1] is not None:
        speedup = _compare(found, by_chip, cells[-1])
        if speedup is None:
            return None
        out.append(speedup)
    return out


def _pieces_unit(found: Found, cells: list[Cell]) -> tuple | None:
    """(dimension, factor, written) of the one unit a reading's written figures share,
    when another of its figures is bare; else None."""
    pieces = [p for c in cells if c is not None for p in c]
    if all(p.unit for p in pieces):
        return None
    return shared_unit(found, [p.unit for p in pieces if p.unit and p.unit != "ordinal"])


def _note_generation(found: Found, chip: Mention, piece: Piece) -> list[Draft]:
    """The Tensor Core generation a count's note gives ("576(2nd Gen)")."""
    start, end = piece.note
    ordinals = [q for q in found.within("quantities", start, end)
                if q.end <= end and q.dimension == "ordinal" and q.written != "PCIe"]
    if len(ordinals) != 1 or not plausible(found.lexicon, "tensor_core_gen", ordinals[0].value):
        return []
    q = ordinals[0]
    return [Draft(chip.entity, "tensor_core_gen", q, q.value, 0, Span(start, end), chip.variant,
                  link="run-table")]


def _compare(found: Found, by_chip: list[list[Draft]], cell: Cell) -> Draft | None:
    """The speed-up of a comparison cell, borne out by the row's two figures."""
    if cell is None or len(cell) != 1 or any(len(d) != 1 for d in by_chip):
        return None
    q = piece_quantity(cell[0], units_of(found.lexicon))
    if q is None:
        return None
    speedup = speedup_value(found.text, q)
    if speedup is None:
        return None
    return compare_draft(by_chip[0][0], by_chip[1][0], q, speedup, Span(q.start, q.end),
                         "table-compare", found.lexicon)
