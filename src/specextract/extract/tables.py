"""Spec tables: every cell mapped to its chip, attribute and unit.

Two readers:

* grid tables (markdown pipes, HTML tables turned into " | " rows, tab- or
  space-aligned columns): chips head the columns and labels the rows, or chips head the
  rows and labels the columns; a bare number takes its unit from the label ("显存带宽(GB/s)")
  or from the attribute;
* run tables (tables flattened into text, "参数V100A100FP647.8 TFLOPS9.7 TFLOPS"): a run of
  chip names, then label after label each followed by one figure per chip, in order.

Returns drafts and the spans the tables cover, so prose linking leaves them alone.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .mentions import Keyword, Mention
from .prose import (DEFAULT_ATTRIBUTE, PRECISE_ATTRS, THROUGHPUT_ATTRS, Draft, Found, plausible,
                      in_canonical, inside_any)
from .quantities import Quantity, units_of
from .numbers import Number, times
from ..codebook import ATTRIBUTE_UNITS, QUALIFIERS
from .segment import Span

EMPTY_CELL = re.compile(r"N/A|n/a|不支持|暂无|未公布|TBD|—|(?<![\w.])-(?![\w.])")
SEPARATOR_ROW = re.compile(r"^[\s|:\-+=]*$")
WIDE_GAP = re.compile(r"\t|\s{2,}| \| |\|")
SPACE_RUN = re.compile(r"\s\s")  # with "\t" and "|", what WIDE_GAP needs (a quicker test)
HEADER_GAP = re.compile(r"^[\s|/]*(?:vs\.?|VS)?[\s|/]*$")
RUN_GAP = re.compile(r"^[\s|/、,，;；]*(?:TSMC|台积电|Samsung|三星)?[\s']*$")  # "TSMC 4NSamsung 8N"
# possessive (*+): each piece has one way to match, and a backtracking loop would keep a
# restart point per piece (time grows faster than the length on long runs of 数)
LABEL_TAIL = re.compile(r"^(?:[\s|:：/]|数量|个数|数|\([^)]{0,8}\)|（[^）]{0,8}）|TSMC|台积电|Samsung|三星)*+$")
OP_BEFORE = re.compile(r"(?:>|≥|超过|more than|over)\s*$", re.IGNORECASE)
UNIT_FOR_ATTRIBUTE = {"memory_size": ("bytes", "GB"), "memory_bandwidth": ("bandwidth", "GB/s"),
                      "nvlink_bandwidth": ("bandwidth", "GB/s"), "tdp": ("power", "W"),
                      "process_node": ("length", "nm"), "die_area": ("area", "mm2"),
                      "boost_clock": ("frequency", "MHz"), "memory_bus_width": ("bits", "bit"),
                      "l2_cache": ("bytes", "MB")}


def link_tables(found: Found) -> tuple[list[Draft], list[Span]]:
    drafts: list[Draft] = []
    spans: list[Span] = []
    for block in _grid_blocks(found.text):
        d = _read_grid(found, block)
        if d:
            drafts.extend(d)
            spans.append(Span(block[0][0].start, block[-1][-1].end))
    for run_drafts, span in _read_runs(found, spans):
        drafts.extend(run_drafts)
        spans.append(span)
    return drafts, spans


# -- grid tables -----------------------------------------------------------------
def _cells(text: str, line: Span) -> list[Span]:
    """Cell spans of a table row (outer pipes dropped, cells trimmed)."""
    row = text[line.start:line.end]
    cells, pos = [], 0
    for m in WIDE_GAP.finditer(row):
        cells.append((pos, m.start()))
        pos = m.end()
    cells.append((pos, len(row)))
    out = []
    for s, e in cells:
        chunk = row[s:e]
        lead = len(chunk) - len(chunk.lstrip())
        trail = len(chunk.rstrip())
        if trail > lead:
            out.append(Span(line.start + s + lead, line.start + s + trail))
    return out


def _grid_blocks(text: str) -> list[list[list[Span]]]:
    """Runs of two or more consecutive table rows, each row a list of cells."""
    blocks, current = [], []
    end = -1
    for row in text.split("\n"):
        start = end + 1
        end = start + len(row)
        if "|" in row and SEPARATOR_ROW.match(row):
            continue
        cells = _cells(text, Span(start, end)) if _has_wide_gap(row.strip()) else []
        if len(cells) >= 2:
            current.append(cells)
            continue
        if len(current) >= 2:
            blocks.append(current)
        current = []
    if len(current) >= 2:
        blocks.append(current)
    return blocks


def _has_wide_gap(row: str) -> bool:
    """``WIDE_GAP.search(row)``, without running the regex over every line of prose."""
    return "|" in row or "\t" in row or SPACE_RUN.search(row) is not None


def _in(found: Found, name: str, span: Span) -> list:
    """Items of ``found.<name>`` lying inside ``span``."""
    return [x for x in found.within(name, span.start, span.end) if x.end <= span.end]


def _chip_of(found: Found, cell: Span) -> Mention | None:
    chips = _in(found, "chips", cell)
    entities = {c.entity for c in chips}
    return chips[0] if len(entities) == 1 and not chips[0].system else None


def _read_grid(found: Found, rows: list[list[Span]]) -> list[Draft]:
    header = rows[0]
    if _header_lacks_label(found.text, rows):  # "         L40S   A100   H100": no label above the labels
        header = [Span(header[0].start, header[0].start)] + header
    col_chips = {j: _chip_of(found, c) for j, c in enumerate(header) if j}
    col_chips = {j: c for j, c in col_chips.items() if c is not None}
    row_chips = {i: _chip_of(found, r[0]) for i, r in enumerate(rows) if i}
    row_chips = {i: c for i, c in row_chips.items() if c is not None}
    out: list[Draft] = []
    labels: dict[Span, tuple] = {}
    if col_chips and len(col_chips) >= len(row_chips):
        for row in rows[1:]:
            for j, chip in col_chips.items():
                if j < len(row):
                    out.extend(_cell_drafts(found, chip, row[0], row[j], labels, "table-column"))
    elif row_chips:
        for i, chip in row_chips.items():
            row = rows[i]
            for j in range(1, min(len(row), len(header))):
                out.extend(_cell_drafts(found, chip, header[j], row[j], labels, "table-row"))
    return out


def _header_lacks_label(text: str, rows: list[list[Span]]) -> bool:
    """An aligned table whose header row leaves the label column empty: it has one cell
    fewer than most rows, and its first cell starts right of the rows' first cells."""
    header, body = rows[0], rows[1:]
    widths = [len(r) for r in body]
    common = max(set(widths), key=widths.count)
    if len(header) != common - 1:
        return False

    def column(span: Span) -> int:
        return span.start - (text.rfind("\n", 0, span.start) + 1)

    return all(column(header[0]) > column(r[0]) + 2 for r in body if len(r) == common)


def _label(found: Found, label: Span) -> tuple[Keyword | None, tuple | None, set[str]]:
    """(attribute keyword, unit written in the label, qualifiers) of a row/column label."""
    kws = _in(found, "keywords", label)
    kw = None
    if kws:
        precise = [k for k in kws if k.attribute in PRECISE_ATTRS]
        kw = precise[0] if precise else kws[0]
    unit = None
    units = units_of(found.lexicon)
    m = units.in_label.search(found.text, label.start, label.end)
    if m:
        unit = units.info(m.group())
    quals = {q.qualifier for q in _in(found, "qualifiers", label)}
    return kw, unit, quals


def _cell_drafts(found: Found, chip: Mention, label: Span, cell: Span,
                 labels: dict[Span, tuple] | None = None, link: str = "") -> list[Draft]:
    """Drafts of one cell; a label naming several precisions ("FP16/BF16") gives each.
    ``labels`` remembers what each label says (a row's label serves every chip)."""
    info = labels.get(label) if labels is not None else None
    if info is None:
        kw, unit, quals = _label(found, label)
        group = [k for k in _in(found, "keywords", label) if k.attribute in PRECISE_ATTRS]
        info = (kw, unit, quals, group)
        if labels is not None:
            labels[label] = info
    kw, unit, quals, group = info
    if kw is not None and len(group) > 1 and kw in group:
        out = []
        for k in group:
            out.extend(_one_cell(found, chip, cell, k, unit, set(quals), link))
        return out
    return _one_cell(found, chip, cell, kw, unit, set(quals), link)


def _one_cell(found: Found, chip: Mention, cell: Span, kw: Keyword | None, unit,
              quals: set[str], link: str = "") -> list[Draft]:
    quantities = found.within("quantities", cell.start, cell.end)
    if not quantities:
        return []
    quals |= {q.qualifier for q in _in(found, "qualifiers", cell)}
    pair = len(quantities) == 2 and "/" in found.text[quantities[0].end:quantities[1].start]
    out = []
    for i, q0 in enumerate(quantities):
        q = q0
        q = _with_unit(q, kw, unit)
        if q is None or q.is_range:
            continue
        attribute = _attribute(q, kw)
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
        if "dense" in cell_quals and "sparse" in cell_quals and not pair:
            cell_quals -= {"dense", "sparse"}
        if attribute not in THROUGHPUT_ATTRS:
            cell_quals &= {"boost"}
        if kw is not None and kw.qualifier:
            cell_quals.add(kw.qualifier)
        if attribute == "tf32":
            cell_quals.discard("tensor")
        operator = ">=" if OP_BEFORE.search(found.text[cell.start:q.start]) else "="
        out.append(Draft(chip.entity, attribute, q, value, exp, Span(cell.start, cell.end),
                         chip.variant, operator, ";".join(x for x in QUALIFIERS if x in cell_quals),
                         link=link))
    return out


def _with_unit(q: Quantity, kw: Keyword | None, unit) -> Quantity | None:
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


def _attribute(q: Quantity, kw: Keyword | None) -> str | None:
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


# -- run tables ------------------------------------------------------------------
def _read_runs(found: Found, taken: list[Span]) -> list[tuple[list[Draft], Span]]:
    text = found.text
    taken_starts = [s.start for s in taken]  # grid tables, in text order
    chips = [c for c in found.chips if not inside_any(c, taken, taken_starts)]
    headers: list[list[Mention]] = []
    i = 0
    while i < len(chips):
        run = [chips[i]]
        while i + len(run) < len(chips):
            nxt = chips[i + len(run)]
            gap = text[max(run[-1].end, run[-1].variant_end):nxt.start]
            if not HEADER_GAP.match(gap) or "\n" in gap:
                break
            run.append(nxt)
        i += len(run)
        if len(run) >= 2 and len({c.entity for c in run}) >= 2:
            headers.append(run)
    out = []
    for n, run in enumerate(headers):
        stop = headers[n + 1][0].start if n + 1 < len(headers) else len(text)
        drafts, _ = _run_rows(found, run, stop, taken)
        for d in drafts:  # prose between the rows stays prose
            out.append(([d], Span(d.quantity.start, d.quantity.end)))
    return out


def _run_rows(found: Found, header: list[Mention], stop_at: int,
              taken: list[Span] = ()) -> tuple[list[Draft], int]:
    """Label after label following a chip run, each with one figure (or N/A) per chip."""
    text = found.text
    start = max(header[-1].end, header[-1].variant_end)
    limit = text.find("\n\n", start)
    limit = len(text) if limit < 0 else limit
    limit = min(limit, stop_at)  # the next chip run starts a table of its own
    keywords: list[Keyword] = []
    for k in found.within("keywords", start, limit):
        if any(t.start <= k.start < t.end for t in taken):
            continue  # (a grid table read already owns its labels)
        if keywords and keywords[-1].attribute == k.attribute:
            continue  # "Memory128 GB HBM2e192 GB": HBM2e continues the Memory row
        if keywords and not found.masked[keywords[-1].end:k.start].strip():
            # "TF32 Tensor Core989 TFLOPS": one label of two keywords; the precision wins
            if keywords[-1].attribute not in THROUGHPUT_ATTRS:
                keywords[-1] = replace(k, start=keywords[-1].start)
            else:
                keywords[-1] = replace(keywords[-1], end=k.end)
            continue
        keywords.append(k)
    drafts: list[Draft] = []
    labels: dict[Span, tuple] = {}
    end = start
    for n, kw in enumerate(keywords):
        stop = keywords[n + 1].start if n + 1 < len(keywords) else limit
        slots = sorted([(q.start, q.end, q) for q in found.within("quantities", kw.end, stop)]
                       + [(m.start(), m.end(), None) for m in EMPTY_CELL.finditer(text, kw.end, stop)],
                       key=lambda t: t[0])
        if len(slots) < len(header) or not LABEL_TAIL.match(found.masked[kw.end:slots[0][0]]):
            continue  # a row the run cannot read ("CUDA核心9728107528704"): skip it
        cells = slots[:len(header)]
        if any(not RUN_GAP.match(found.masked[a[1]:b[0]]) for a, b in zip(cells, cells[1:])):
            continue
        label = Span(kw.start, cells[0][0])
        for chip, (s0, e0, q) in zip(header, cells):
            if q is not None:
                drafts.extend(_cell_drafts(found, chip, label, Span(s0, e0), labels, "run-table"))
        end = cells[-1][1]
    return drafts, end
