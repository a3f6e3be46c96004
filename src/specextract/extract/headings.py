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

import re
from bisect import bisect_left

from .mentions import Mention
from .segment import LINE_SENTENCE_END, TABLE_LINE, line_layout
from .patterns import BLANK_LINE, LETTER_WORD, NONSPACE, SECTION_NUMBER

MAX_HEADING = 40  # characters: a longer line is no heading
MAX_SECTION = 60  # characters of a numbered section's title ("2. Specifications of the H200")
SECTION_REACH = 2000  # characters after "2. …" where its first part "2.1" must begin
MAX_TITLE = 80  # the document's first line
MAX_ROW = 300  # characters either side of a figure: a longer line is no spec-list line
MAX_BACK = 200  # chips looked at before a figure (the walk stays bounded on long pages)


def heading_chip(text: str, chips: list[Mention], starts: list[int], entity: str,
                 pos: int) -> bool:
    """Is ``entity`` named on a heading line above ``pos`` (a spec-list line), with no
    other chip named from that heading to ``pos`` (or named alone in the title and last
    before ``pos``)? ``chips`` are sorted by start, ``starts`` their starts."""
    line = _line(text, pos, MAX_ROW)
    if not line or line_layout(line) != TABLE_LINE:
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
    first = NONSPACE.search(text)
    lead = first.start() if first else len(text)
    end = text.find("\n", lead)
    end = len(text) if end < 0 else end
    on_title = [c.entity for c in chips[:8] if c.start < end and not c.system]
    return bool(on_title) and set(on_title) == {entity} and is_heading(text, lead)


def is_heading(text: str, pos: int) -> bool:
    """Is the line holding ``pos`` a markdown heading, a numbered section's title, the
    document's first line with text (no sentence), or a short line with no sentence end that
    a blank line (or the text's end) follows?"""
    start = text.rfind("\n", max(0, pos - MAX_ROW), pos) + 1
    line = _line(text, pos, MAX_ROW)
    if not line:
        return False
    if line.lstrip().startswith("#"):
        return True
    if _numbered_section(text, start + len(line), line):
        return True
    if LINE_SENTENCE_END.search(line):
        return False  # a sentence, even on the first line, is no title
    first = NONSPACE.search(text, 0, start)
    if first is None:
        return len(line.strip()) <= MAX_TITLE
    end = start + len(line)
    return len(line.strip()) <= MAX_HEADING and (end >= len(text) or bool(BLANK_LINE.match(text, end + 1)))


def _numbered_section(text: str, end: int, line: str) -> bool:
    """A numbered section's title ("2. Detailed specifications of the H200" over "2.1 …",
    "2.3 Memory", "二、H200 规格", "（一）参数"): a short title after the number, no sentence,
    and no figure (digits only inside words that start with a letter, as model names do:
    "H200", not "80GB"). A plain "2." opens a section only when its first part ("2.1")
    follows within SECTION_REACH characters of ``end`` (the line's end); else it may be an
    item of a list."""
    number = SECTION_NUMBER.match(line.lstrip(" \t\u3000"))
    if number is None:
        return False
    title = number.string[number.end():].strip()
    if len(title) > MAX_SECTION or LINE_SENTENCE_END.search(title) \
            or any(ch.isdigit() for ch in LETTER_WORD.sub("", title)):
        return False
    top = number.group("top")
    return top is None or re.search(rf"(?m)^[ \t\u3000]*+{top}\.1(?!\d)",
                                    text[end:end + SECTION_REACH]) is not None


def grid_row(text: str, pos: int) -> bool:
    """Is ``pos`` on a row of a pipe table ("| NVLink | 160GB/s | 300GB/s |")?"""
    return _line(text, pos, MAX_ROW * 10).count("|") >= 3


def _line(text: str, pos: int, reach: int = 0) -> str:
    """The line holding ``pos``; with ``reach``, "" when the line runs further than that
    either side (a long line is no list or grid row, and is not copied per figure)."""
    low = max(0, pos - reach) if reach else 0
    start = text.rfind("\n", low, pos) + 1
    if reach and start == 0 and low > 0:
        return ""
    end = text.find("\n", pos, pos + reach if reach else len(text))
    if end < 0:
        if reach and pos + reach < len(text):
            return ""
        end = len(text)
    return text[start:end]
