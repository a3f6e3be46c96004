"""Table cells -> drafts: what a row or column label says, and the figures of one cell.

Shared by the table readers (:mod:`tables` for grid and run tables, :mod:`linetables` for
line-per-row flattened tables): a label gives the attribute keyword, a unit written in it
("显存带宽(GB/s)", "(MHz)") and qualifiers; a bare number in a cell takes its unit from
the label or from the attribute.
"""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ..codebook import ATTRIBUTE_UNITS, QUALIFIERS
from .gluedcells import APPROX_SIGNS, Piece
from .mentions import Keyword, Mention
from .numbers import MAGNITUDES, Number, parse_arabic, times
from .drafts import (DEFAULT_ATTRIBUTE, PRECISE_ATTRS, THROUGHPUT_ATTRS, Draft, Found, fits,
                    in_canonical, plausible)
from .quantities import Quantity, Units, units_of
from .nonclaims import names_network, names_system, other_link, pin_speed
from .relabel import names_no_claim
from .segment import Span
from .patterns import (AFTER_GAP, BRACKETED, CELL_CLAUSE_MARK as CLAUSE_MARK, DENSITY_GAP,
                       MAGNITUDE_LABEL, OP_BEFORE)

UNIT_FOR_ATTRIBUTE = {"memory_size": ("bytes", "GB"), "memory_bandwidth": ("bandwidth", "GB/s"),
                      "nvlink_bandwidth": ("bandwidth", "GB/s"), "tdp": ("power", "W"),
                      "process_node": ("length", "nm"), "die_area": ("area", "mm2"),
                      "boost_clock": ("frequency", "MHz"), "memory_bus_width": ("bits", "bit"),
                      "l2_cache": ("bytes", "MB")}


def in_span(found: Found, name: str, span: Span) -> list:
    """Items of ``found.<name>`` lying inside ``span``."""
    return [x for x in found.within(name, span.start, span.end) if x.end <= span.end]


def _pair_gap(found: Found, a: Quantity, b: Quantity) -> bool:
    """'156 / 312', '156 TFLOPS / 312 TFLOPS': a dense / sparse pair in one cell; not
    '148 TFLOPS FP16 / 296 TFLOPS' (a label of its own between them: two figures)."""
    return "/" in found.text[a.end:b.start] and not found.within("keywords", a.end, b.start)


def label_info(found: Found, label: Span) -> tuple[Keyword | None, tuple | None, set[str]]:
    """(attribute keyword, unit written in the label, qualifiers) of a row/column label."""
    kws = in_span(found, "keywords", label)
    kw = None
    if kws:
        precise = [k for k in kws if k.attribute in PRECISE_ATTRS]
        kw = precise[0] if precise else kws[0]
    unit = None
    units = units_of(found.lexicon)
    for m in units.in_label.finditer(found.text, label.start, label.end):
        if m.group().isascii() or BRACKETED.match(found.text, m.end()):
            unit = units.info(m.group())  # (a Chinese unit only in brackets: 定位 is no 位)
            break
    if unit is None:  # "晶体管数量(亿)", "Transistors (billions)": a magnitude for counts
        mag = MAGNITUDE_LABEL.search(found.text, label.start, label.end)
        if mag is not None:
            word = mag.group(1).lower().removesuffix("s")
            unit = ("count", Decimal(10) ** MAGNITUDES[word], "")
    quals = {q.qualifier for q in in_span(found, "qualifiers", label)}
    return kw, unit, quals


def cell_drafts(found: Found, chip: Mention, label: Span, cell: Span,
                 labels: dict[Span, tuple] | None = None, link: str = "",
                 row_unit: tuple | None = None) -> list[Draft]:
    """Drafts of one cell; a label naming several precisions ("FP16/BF16") gives each.
    ``labels`` remembers what each label says (a row's label serves every chip);
    ``row_unit`` is the unit the row's other cells write, for a bare number when the label
    writes none (see :func:`row_unit`)."""
    info = labels.get(label) if labels is not None else None
    if info is None:
        kw, unit, quals = label_info(found, label)
        group = [k for k in in_span(found, "keywords", label) if k.attribute in PRECISE_ATTRS]
        info = (kw, unit, quals, group, label_names_no_claim(found, label, kw))
        if labels is not None:
            labels[label] = info
    kw, unit, quals, group, no_claim = info
    if no_claim:
        return []
    if unit is None:
        unit = row_unit
    if kw is not None and len(group) > 1 and kw in group:
        out = []
        for k in group:
            out.extend(_one_cell(found, chip, cell, k, unit, set(quals), link))
        return out
    return _one_cell(found, chip, cell, kw, unit, set(quals), link)


def label_names_no_claim(found: Found, label: Span, kw: Keyword | None) -> bool:
    """Does a label (read as the keyword ``kw``) say its figures are no chip's claims?"""
    lex, text, start, end = found.lexicon, found.text, label.start, label.end
    if (kw is None or kw.attribute in ("-", "boost_clock")) and names_no_claim(found, start, end):
        return True  # "主频(MHz)", "显存频率": a base or memory clock
    if (kw is None or kw.attribute in ("memory_bandwidth", "memory_size")) \
            and names_network(lex, text, start, end):
        return True  # "Scale-out networking | 24x 200 GbE", "ICI bandwidth (GB/s)": no memory's
    return names_system(lex, text, start, end)  # "RAM (GB) (4-chip VM)": a system's


def row_unit(found: Found, cells: list[Span]) -> tuple | None:
    """(dimension, factor, written) of the one unit every figure of a row's cells writes,
    when some cell holds a bare number ("2.5 PFLOPS | 2.25 PFLOPS | 2.25"): the bare
    one is in that unit too. None when no cell is bare or the written units differ."""
    figures = [q for cell in cells for q in found.within("quantities", cell.start, cell.end)]
    if not any(q.dimension == "bare" for q in figures):
        return None
    return shared_unit(found, [q.written for q in figures
                               if q.dimension not in ("bare", "count", "ordinal", "ratio", "percent")])


def shared_unit(found: Found, written: list[str]) -> tuple | None:
    """(dimension, factor, written) of the units ``written``, when they are all one unit."""
    infos = {units_of(found.lexicon).info(w) for w in written}
    return infos.pop() if len(infos) == 1 and None not in infos else None


def one_figure(found: Found, chip: Mention, q: Quantity, kw: Keyword, label: Span,
               link: str) -> list[Draft]:
    """Drafts of one figure under the label ``label`` read as the keyword ``kw``."""
    _, unit, quals = label_info(found, label)
    return _one_cell(found, chip, Span(q.start, q.end), kw, unit, quals, link)


def _one_cell(found: Found, chip: Mention, cell: Span, kw: Keyword | None, unit,
              quals: set[str], link: str = "") -> list[Draft]:
    quantities = found.within("quantities", cell.start, cell.end)
    if not quantities:
        return []
    in_cell = in_span(found, "qualifiers", cell)
    owned = _owned_density(found, quantities, in_cell)
    quals |= {k.qualifier for j, k in enumerate(in_cell) if j not in owned.values()}
    pair = len(quantities) == 2 and _pair_gap(found, quantities[0], quantities[1])
    out = []
    for i, q0 in enumerate(quantities):
        own = _cell_keyword(found, cell, q0)  # "FP32 算力 19.5 TFLOPS" under a 性能 column
        q_kw, q_unit = (kw, unit) if own is None else (own, None)
        q = with_unit(q0, q_kw, q_unit)
        if q is None or q.is_range or pin_speed(q) \
                or other_link(found.lexicon, found.text, q, cell.start, cell.end):
            continue  # (a range; "21 Gbps" a memory pin's rate; "ICI 800GB/s": another link's)
        attribute = attribute_of(q, q_kw)
        if attribute is None:
            continue
        value, exp = in_canonical(q, attribute)
        if not plausible(found.lexicon, attribute, value):
            continue
        cell_quals = set(quals)
        if q0.pair and attribute in THROUGHPUT_ATTRS:
            cell_quals -= {"dense", "sparse"}
            cell_quals.add(q0.pair)
        elif pair and attribute in THROUGHPUT_ATTRS:
            cell_quals.add("dense" if i == 0 else "sparse")
        if i in owned and attribute in THROUGHPUT_ATTRS:  # "362 (724 sparse)"
            cell_quals = (cell_quals - {"dense", "sparse"}) | {in_cell[owned[i]].qualifier}
        if "dense" in cell_quals and "sparse" in cell_quals and not pair:
            cell_quals -= {"dense", "sparse"}
        if attribute not in THROUGHPUT_ATTRS:
            cell_quals &= {"boost"}
        if q_kw is not None and q_kw.qualifier:
            cell_quals.add(q_kw.qualifier)
        if attribute == "tf32":
            cell_quals.discard("tensor")
        if attribute == "fp64" and "tensor" in cell_quals:  # "FP64 Matrix", "FP64 Tensor"
            attribute = "fp64_tensor"
        operator = ">=" if OP_BEFORE.search(found.text[cell.start:q.start]) else "="
        out.append(Draft(chip.entity, attribute, q, value, exp, Span(cell.start, cell.end),
                         chip.variant, operator, ";".join(x for x in QUALIFIERS if x in cell_quals),
                         link=link))
    return out


def _owned_density(found: Found, quantities: list[Quantity],
                   in_cell: list[Keyword]) -> dict[int, int]:
    """Figure index -> index in ``in_cell`` of a dense/sparse word written right after that
    figure ("724 sparse", "485 TFLOPS with sparsity"): that word is the figure's alone."""
    owned = {}
    for i, q in enumerate(quantities):
        for j, k in enumerate(in_cell):
            if k.qualifier in ("dense", "sparse") \
                    and DENSITY_GAP.fullmatch(found.text, q.end, k.start):
                owned[i] = j
                break
    return owned


def _cell_keyword(found: Found, cell: Span, q: Quantity) -> Keyword | None:
    """A keyword the cell itself gives the figure: the nearest one (a precision first)
    before it in its clause of the cell, else one right after it ("2TB/s 带宽")."""
    text = found.text
    before = [k for k in in_span(found, "keywords", Span(cell.start, q.start))
              if not CLAUSE_MARK.search(text, k.end, q.start) and fits(q, k)]
    precise = [k for k in before if k.attribute in PRECISE_ATTRS]  # FP32 beats a plain 算力
    if before:
        return (precise or before)[-1]
    after = [k for k in in_span(found, "keywords", Span(q.end, cell.end))
             if AFTER_GAP.match(text[q.end:k.start]) and fits(q, k)]
    return after[0] if after else None


def with_unit(q: Quantity, kw: Keyword | None, unit) -> Quantity | None:
    """A bare number takes the label's unit, or the attribute's canonical one."""
    if q.dimension != "bare":
        return q
    if unit is not None:
        dimension, factor, written = unit
        number = times(Number(q.value, q.precision_exp), factor)
        return replace(q, value=number.value, precision_exp=number.precision_exp,
                       dimension=dimension, written=written)
    if kw is None:
        return None
    attr_unit = UNIT_FOR_ATTRIBUTE.get(kw.attribute)
    if attr_unit:
        dimension, written = attr_unit
        if written == "MB":  # l2_cache: stored as GB in the bytes dimension
            return replace(q, value=q.value / 1000, precision_exp=q.precision_exp - 3,
                           dimension=dimension, written=written)
        return replace(q, dimension=dimension, written=written)
    if kw.attribute in THROUGHPUT_ATTRS:
        return replace(q, dimension="throughput", written=ATTRIBUTE_UNITS[kw.attribute])
    if "count" in kw.dims:
        return replace(q, dimension="count")
    return None


def attribute_of(q: Quantity, kw: Keyword | None) -> str | None:
    if q.dimension == "ordinal":
        if q.written == "PCIe" or (kw is not None and kw.attribute == "pcie_gen"):
            return "pcie_gen"
        if kw is not None and kw.attribute == "tensor_cores":
            return "tensor_core_gen"
        return None
    if kw is not None and (q.dimension in kw.dims or (q.dimension == "count" and "count" in kw.dims)):
        return kw.attribute
    if q.dimension == "bytes":
        return "l2_cache" if q.written == "MB" else "memory_size"
    return DEFAULT_ATTRIBUTE.get(q.dimension)


def piece_draft(found: Found, chip: Mention, piece: Piece, kw: Keyword, unit, quals: set[str],
                pair: str, link: str) -> Draft | None:
    """The draft of one written figure in a table cell whose row or column label is
    ``kw`` (with ``unit`` and qualifiers ``quals``), or None if it does not fit the label."""
    q = piece_quantity(piece, units_of(found.lexicon))
    if q is None:
        return None
    q = with_unit(q, kw, unit)
    if q is None:
        return None
    attribute = attribute_of(q, kw)
    if attribute is None or attribute != kw.attribute and (attribute, kw.attribute) != ("tensor_core_gen", "tensor_cores"):
        return None  # the label decides: a figure of another kind is no cell of this row
    value, exp = in_canonical(q, attribute)
    if not plausible(found.lexicon, attribute, value):
        return None
    cell_quals = set(quals)
    if attribute in THROUGHPUT_ATTRS:
        if pair:
            cell_quals = (cell_quals - {"dense", "sparse"}) | {pair}
        if kw.qualifier:
            cell_quals.add(kw.qualifier)
    else:
        cell_quals &= {"boost"}
    if attribute == "tf32":
        cell_quals.discard("tensor")
    before = piece.sign or found.text[max(0, piece.start - 1):piece.start]
    about = bool(before) and before in APPROX_SIGNS
    return Draft(chip.entity, attribute, q, value, exp, Span(piece.start, piece.end), chip.variant,
                 "~" if about else "=", ";".join(x for x in QUALIFIERS if x in cell_quals),
                 link=link)


def piece_quantity(piece: Piece, units: Units) -> Quantity | None:
    number = parse_arabic(piece.number)
    if number is None:
        return None
    if piece.magnitude:
        number = Number(number.value * 10 ** MAGNITUDES[piece.magnitude],
                        number.precision_exp + MAGNITUDES[piece.magnitude])
    num_end = piece.number_start + len(piece.number)
    if piece.unit == "ordinal":
        return Quantity(piece.start, piece.end, number.value, 0, "ordinal",
                        number_start=piece.number_start, number_end=num_end)
    if not piece.unit:
        dimension = "count" if piece.magnitude else "bare"
        return Quantity(piece.start, piece.end, number.value, number.precision_exp, dimension,
                        number_start=piece.number_start, number_end=num_end)
    info = units.info(piece.unit)
    if info is None:
        return None
    dimension, factor, written = info
    number = times(number, factor)
    return Quantity(piece.start, piece.end, number.value, number.precision_exp, dimension, written,
                    number_start=piece.number_start, number_end=num_end)


def more_columns(found: Found, figures: list[tuple[int, int]], columns: int) -> bool:
    """Does a row with these figures ((start, end), in order) hold more of them than its
    header has ``columns``, beyond "dense / sparse" pairs (a slash between two figures)?
    Then the header names only some of the columns, and which cell is whose is a guess."""
    pairs = sum(1 for (_, a), (b, _) in zip(figures, figures[1:])
                if found.masked[a:b].strip() == "/")
    return len(figures) - pairs > columns
