"""Spec tables: every cell mapped to its chip, attribute and unit.

``link_tables`` runs the readers in turn, each leaving alone what an earlier one read:
grid tables and run tables (here), line-per-row flattened tables (:mod:`linetables`,
cells run together split by :mod:`gluedcells`, comparison columns by :mod:`comparecol`)
and chip rows under a header of labels (:mod:`rowtables`); :mod:`cells` turns a cell
into drafts for all of them.

* grid tables (markdown pipes, HTML tables turned into " | " rows, tab- or
  space-aligned columns): chips head the columns and labels the rows, or chips head the
  rows and labels the columns; a bare number takes its unit from the label ("显存带宽(GB/s)")
  or from the attribute;
* run tables (tables flattened into text, "参数V100A100FP647.8 TFLOPS9.7 TFLOPS"): a run of
  chip names, then label after label each followed by one figure per chip, in order.

Returns drafts and the spans the tables cover, so prose linking leaves them alone.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .cells import cell_drafts, in_span as _in, label_names_no_claim, more_columns, row_unit
from .comparecol import cell_speedups, compare_draft, is_compare_header, speedup_value
from .linetables import read_line_tables, text_lines
from .mentions import Keyword, Mention
from .drafts import THROUGHPUT_ATTRS, Draft, Found, fits, inside_any
from .rowtables import read_row_tables
from .segment import Span
from .patterns import (EMPTY_CELL, LABEL_TAIL, LONG_DECIMALS, RUN_GAP, SERIES_AFTER, SEPARATOR_ROW, SPACE_RUN,
                       TABLE_HEADER_GAP as HEADER_GAP, TABLE_WIDE_GAP as WIDE_GAP)


def link_tables(found: Found) -> tuple[list[Draft], list[Span]]:
    """Drafts of every table (grid, line-per-row, run), and the spans they cover."""
    drafts: list[Draft] = []
    spans: list[Span] = []
    blocks = _grid_blocks(found.text)
    for block in blocks:
        d = _read_grid(found, block)
        if d:
            drafts.extend(d)
            spans.append(Span(block[0][0].start, block[-1][-1].end))
    grid_rows = [Span(b[0][0].start, b[-1][-1].end) for b in blocks]  # (read or not)
    line_drafts, line_spans = read_line_tables(found, grid_rows)
    drafts.extend(line_drafts)
    spans.extend(line_spans)
    row_drafts, row_spans = read_row_tables(found, text_lines(found.text), grid_rows + line_spans)
    drafts.extend(row_drafts)
    spans.extend(row_spans)
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


def _chip_of(found: Found, cell: Span) -> Mention | None:
    chips = _in(found, "chips", cell)
    entities = {c.entity for c in chips}
    return chips[0] if len(entities) == 1 and not chips[0].system and not chips[0].kind else None


def _read_grid(found: Found, rows: list[list[Span]]) -> list[Draft]:
    header = rows[0]
    if _header_lacks_label(found.text, rows):  # "         L40S   A100   H100": no label above the labels
        header = [Span(header[0].start, header[0].start)] + header
    col_chips = {j: c for j, h in enumerate(header) if j and (c := _chip_of(found, h)) is not None}
    row_chips = {i: c for i, r in enumerate(rows) if i and (c := _chip_of(found, r[0])) is not None}
    out: list[Draft] = []
    labels: dict[Span, tuple] = {}
    if col_chips and len(col_chips) >= len(row_chips):
        compare = [j for j, c in enumerate(header) if j not in col_chips and len(col_chips) == 2
                   and is_compare_header(found.text[c.start:c.end])]
        for row in rows[1:]:
            by_chip = []
            unit = row_unit(found, [row[j] for j in col_chips if j < len(row)])
            for j, chip in col_chips.items():
                if j < len(row):
                    cell = cell_drafts(found, chip, row[0], row[j], labels, "table-column", unit)
                    out.extend(cell)
                    by_chip.append(cell)
            for j in compare:
                if j < len(row) and len(by_chip) == 2:
                    out.extend(_compare_cell(found, by_chip, row[j]))
    elif row_chips:
        for i, chip in row_chips.items():
            row = rows[i]
            for j in range(1, min(len(row), len(header))):
                out.extend(cell_drafts(found, chip, header[j], row[j], labels, "table-row"))
                out.extend(cell_speedups(found, chip, row[j]))
    return out


def _compare_cell(found: Found, by_chip: list[list[Draft]], cell: Span) -> list[Draft]:
    """The speed-up in a comparison column's cell, when each chip has one figure."""
    figures = [q for q in found.within("quantities", cell.start, cell.end) if q.end <= cell.end]
    if len(figures) != 1 or any(len(d) != 1 for d in by_chip):
        return []
    speedup = speedup_value(found.text, figures[0])
    if speedup is None:
        return []
    d = compare_draft(by_chip[0][0], by_chip[1][0], figures[0], speedup, cell, "table-compare",
                      found.lexicon)
    return [] if d is None else [d]


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
        if len(run) >= 2 and len({c.entity for c in run}) >= 2 \
                and not SERIES_AFTER.match(text, max(run[-1].end, run[-1].variant_end)):
            headers.append(run)  # (not "the B200/B300 series": a product line, no header)
    out = []
    for n, run in enumerate(headers):
        stop = headers[n + 1][0].start if n + 1 < len(headers) else len(text)
        drafts, _ = _run_rows(found, run, stop, taken)
        for d in drafts:  # prose between the rows stays prose
            out.append(([d], Span(d.quantity.start, d.quantity.end)))
    return out


def _run_rows(found: Found, header: list[Mention], stop_at: int,
              taken: Sequence[Span] = ()) -> tuple[list[Draft], int]:
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
        if kw.attribute in THROUGHPUT_ATTRS and any(
                q is not None and q.dimension != "bare" and not fits(q, kw) for _, _, q in cells):
            continue  # "FP16 性能 1 TB/s 2 TB/s": a precision's row holding no throughput
        if any(not RUN_GAP.match(found.masked[a[1]:b[0]]) for a, b in zip(cells, cells[1:])):
            continue
        if any(LONG_DECIMALS.match(found.masked, s0) for s0, _, q in slots if q is not None):
            continue  # "1321.2/2642.4568/1136": two cells run together, no clear split
        label = Span(kw.start, cells[0][0])
        lead = max(end, text.rfind("\n", 0, kw.start) + 1)  # (after the header or the last row)
        if label_names_no_claim(found, Span(lead, label.end), kw):
            end = cells[-1][1]
            continue  # "ICI bandwidth 1100 GB/s 850 GB/s": words before the keyword say whose
        # more cells than chips, each with its own unit ("80GB HBM2e80GB94GB96GB" under two
        # names): columns the run does not name, so which cell is whose is a guess
        line_end = text.find("\n", cells[0][0])  # (the row's own line: later lines are prose)
        line_end = len(text) if line_end < 0 else line_end
        figures = [(s0, e0) for s0, e0, q in slots if q is not None and s0 < line_end]
        link = "wrapped-header" if more_columns(found, figures, len(header)) else "run-table"
        unit = row_unit(found, [Span(s0, e0) for s0, e0, q in cells if q is not None])
        for chip, (s0, e0, q) in zip(header, cells):
            if q is not None:
                drafts.extend(cell_drafts(found, chip, label, Span(s0, e0), labels, link, unit))
        end = cells[-1][1]
    return drafts, end
