"""Small inline SVG charts of verdict counts (no scripts: shapes, text and hover titles).

    bar_chart([("A100", (12, 1, 3, 0)), ...])    # one stacked bar per line, labelled
    stacked_bar((12, 1, 3, 0))                    # one bar, for a table cell

Counts come in the order of ``codebook.VERDICTS``; the page's CSS colours ``.f-<verdict>``.
Labels are escaped.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..codebook import VERDICTS
from .pages import esc

ROW = 16          # px per line of a bar chart
LABEL = 130       # px for the labels left of the bars
BAR = 300         # px for the longest bar
NUMBER = 60       # px for the total right of the bars


def _rects(counts: Sequence[int], x0: float, y: float, scale: float, height: int) -> str:
    out, x = [], x0
    for verdict, n in zip(VERDICTS, counts):
        if not n:
            continue
        width = n * scale
        out.append(f"<rect class=\"f-{verdict}\" x=\"{x:.1f}\" y=\"{y}\" width=\"{width:.1f}\" "
                   f"height=\"{height}\"><title>{verdict}: {n}</title></rect>")
        x += width
    return "".join(out)


def bar_chart(lines: Sequence[tuple[str, Sequence[int]]], *, label: str = "") -> str:
    """One stacked bar per (label, counts) line, lengths on one scale; ``label`` names the
    chart for screen readers."""
    if not lines:
        return ""
    top = max(sum(c) for _, c in lines) or 1
    scale = BAR / top
    width, height = LABEL + BAR + NUMBER, ROW * len(lines)
    body = []
    for i, (name, counts) in enumerate(lines):
        y = i * ROW
        shown = name if len(name) <= 20 else name[:19] + "…"
        body.append(f"<text x=\"{LABEL - 6}\" y=\"{y + 12}\" text-anchor=\"end\">"
                    f"<title>{esc(name)}</title>{esc(shown)}</text>"
                    f"{_rects(counts, LABEL, y + 2, scale, ROW - 4)}"
                    f"<text x=\"{LABEL + sum(counts) * scale + 4:.1f}\" y=\"{y + 12}\">"
                    f"{sum(counts)}</text>")
    return (f"<svg class=\"chart\" role=\"img\" aria-label=\"{esc(label)}\" "
            f"viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\">"
            + "".join(body) + "</svg>")


def stacked_bar(counts: Sequence[int], width: int = 120, height: int = 10) -> str:
    """A bar of one line's verdict shares, ``width`` px long, for a table cell."""
    total = sum(counts)
    if not total:
        return ""
    return (f"<svg class=\"bar\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" "
            f"height=\"{height}\">{_rects(counts, 0, 0, width / total, height)}</svg>")


def histogram(labels: Sequence[str], counts: Sequence[int], *, label: str = "") -> str:
    """Vertical bars of ``counts`` (documents) above ``labels``."""
    if not counts:
        return ""
    top, col, tall = max(counts) or 1, 56, 80
    width, height = col * len(counts), tall + 34
    body = []
    for i, (name, n) in enumerate(zip(labels, counts)):
        h = n / top * tall
        x = i * col
        body.append(f"<rect class=\"f-hist\" x=\"{x + 8}\" y=\"{tall - h + 14:.1f}\" "
                    f"width=\"{col - 16}\" height=\"{h:.1f}\"><title>{n}</title></rect>"
                    f"<text x=\"{x + col / 2}\" y=\"{tall - h + 11:.1f}\" "
                    f"text-anchor=\"middle\">{n}</text>"
                    f"<text x=\"{x + col / 2}\" y=\"{height - 4}\" text-anchor=\"middle\">"
                    f"{esc(name)}</text>")
    return (f"<svg class=\"chart\" role=\"img\" aria-label=\"{esc(label)}\" "
            f"viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\">"
            + "".join(body) + "</svg>")
