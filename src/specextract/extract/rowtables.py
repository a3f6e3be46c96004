"""Chip-per-row tables under a header of labels, the cells apart by single spaces:

    Model Shader Units FP64 | FP32 Vector Memory Bandwidth
    Vendor X1 9000 Up to 40.0 TF 96GB 2.4 TB/s

The header names three or more attributes and holds no figure; a row starts with a chip
and must hold exactly one figure per label group (keywords joined by "|" or "/", or of
one attribute run together, form a group; "FP64 | FP32" gives the figure to each). A row
with more or fewer figures is not read: which figure is missing cannot be told.
"""
from __future__ import annotations

from .cells import in_span, one_figure
from .drafts import PRECISE_ATTRS, Draft, Found
from .segment import Span
from .patterns import GROUP_JOIN, ROW_START

MIN_GROUPS = 3


def read_row_tables(found: Found, lines: list[Span], taken: list[Span]) -> tuple[list[Draft], list[Span]]:
    """Drafts of every label-header table outside the ``taken`` spans, and their spans."""
    drafts, spans = [], []
    for i, line in enumerate(lines):
        if any(t.start <= line.start < t.end for t in taken):
            continue
        groups = _groups(found, line)
        if groups is None:
            continue
        end, table = _rows(found, lines, i + 1, groups)
        if table:
            drafts.extend(table)
            spans.append(Span(line.start, end))
    return drafts, spans


def _groups(found: Found, line: Span) -> list[tuple[Span, list]] | None:
    """(label span, keywords) of each label group of a header line, or None."""
    if found.within("quantities", line.start, line.end) or in_span(found, "chips", line):
        return None
    groups: list[tuple[Span, list]] = []
    for k in in_span(found, "keywords", line):
        if groups:
            (span, kws) = groups[-1]
            gap = found.text[kws[-1].end:k.start]
            if GROUP_JOIN.fullmatch(gap) or (k.attribute == kws[-1].attribute and " " not in gap):
                groups[-1] = (Span(span.start, k.end), kws + [k])
                continue
            groups[-1] = (Span(span.start, k.start), kws)  # a label runs to the next one
        groups.append((Span(k.start, k.end), [k]))
    if len(groups) < MIN_GROUPS:
        return None
    span, kws = groups[-1]
    groups[-1] = (Span(span.start, line.end), kws)
    return groups


def _rows(found: Found, lines: list[Span], i: int, groups) -> tuple[int, list[Draft]]:
    """(end of the last row read, drafts) of the chip rows under a label header."""
    out: list[Draft] = []
    end = lines[i - 1].end
    while i < len(lines):
        line = lines[i]
        chips = in_span(found, "chips", line)
        if not chips or chips[0].system or not ROW_START.fullmatch(found.text, line.start, chips[0].start):
            break
        chip = chips[0]
        start = max(chip.end, chip.variant_end)
        figures = [q for q in found.within("quantities", start, line.end) if q.end <= line.end]
        if len(figures) == len(groups):
            for q, (label, kws) in zip(figures, groups):
                for kw in kws if len(kws) > 1 and _all_precisions(kws) else kws[:1]:
                    out.extend(one_figure(found, chip, q, kw, label, "table-row"))
        end = line.end
        i += 1
    return end, out


def _all_precisions(kws) -> bool:
    return all(k.attribute in PRECISE_ATTRS for k in kws)
