"""A chip named in the document's title or a heading, as the subject of a spec list below.

    常见加速卡参数 (H100)        <- title: the only chip named up to the list
    ...prose about the H100...
    FP64 30                     <- a "label value" line naming no chip: the title's chip's

The link holds when every chip named between the heading and the figure is that same chip,
or when the title names that chip alone and it is the last chip named before the figure
(another chip in between, as in "H100：80GB" over "H200：141GB", then breaks nothing); and
only for a figure on a spec-list line (:func:`segment.line_layout`), not in prose.
"""
from __future__ import annotations

from bisect import bisect_left

from .mentions import Mention
from .segment import LINE_SENTENCE_END, TABLE_LINE, line_layout

MAX_HEADING = 40  # characters: a longer line is no heading
MAX_TITLE = 80  # the document's first line
MAX_BACK = 200  # chips looked at before a figure (the walk stays bounded on long pages)


def heading_chip(text: str, chips: list[Mention], starts: list[int], entity: str,
                 pos: int) -> bool:
    """Is ``entity`` named on a heading line above ``pos`` (a spec-list line), with no
    other chip named from that heading to ``pos`` (or named alone in the title and last
    before ``pos``)? ``chips`` are sorted by start, ``starts`` their starts."""
    if line_layout(_line(text, pos)) != TABLE_LINE:
        return False
    i = bisect_left(starts, pos)
    passed = False
    for j in range(i - 1, max(-1, i - 1 - MAX_BACK), -1):
        c = chips[j]
        if c.system or c.kind:
            continue
        if c.entity != entity:  # another chip since: the list is the title's chip's only
            return passed and _title_names_only(text, chips, entity)  # if the title names it alone
        passed = True
        if is_heading(text, c.start):
            return True
    return False


def _title_names_only(text: str, chips: list[Mention], entity: str) -> bool:
    """Does the document's title (its first line with text, no sentence) name ``entity``
    and no other chip?"""
    lead = len(text) - len(text.lstrip())
    end = text.find("\n", lead)
    end = len(text) if end < 0 else end
    on_title = [c.entity for c in chips[:8] if c.start < end and not c.system]
    return bool(on_title) and set(on_title) == {entity} and is_heading(text, lead)


def is_heading(text: str, pos: int) -> bool:
    """Is the line holding ``pos`` a markdown heading, the document's first line with text
    (no sentence), or a short line with no sentence end that a blank line (or the text's
    end) follows?"""
    start = text.rfind("\n", 0, pos) + 1
    line = _line(text, pos)
    if line.lstrip().startswith("#"):
        return True
    if LINE_SENTENCE_END.search(line):
        return False  # a sentence, even on the first line, is no title
    if not text[:start].strip():
        return len(line.strip()) <= MAX_TITLE
    end = start + len(line)
    after = text[end + 1:text.find("\n", end + 1) if text.find("\n", end + 1) >= 0 else len(text)]
    return len(line.strip()) <= MAX_HEADING and not after.strip()


def grid_row(text: str, pos: int) -> bool:
    """Is ``pos`` on a row of a pipe table ("| NVLink | 160GB/s | 300GB/s |")?"""
    return _line(text, pos).count("|") >= 3


def _line(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:len(text) if end < 0 else end]
