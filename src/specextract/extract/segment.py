"""Sentences and clauses of normalized text, as spans."""
from __future__ import annotations

from typing import NamedTuple

from .patterns import (LINE_SENTENCE_END, LIST_MARK, SEGMENT_CLAUSE_BREAK as CLAUSE_BREAK,
                       SEGMENT_CLAUSE_MARK as CLAUSE_MARK, SEGMENT_WIDE_GAP as WIDE_GAP,
                       SENTENCE_END, SOFT_BREAK)


class Span(NamedTuple):
    start: int
    end: int


MAX_SENTENCE = 1200  # longer "sentences" (a page with no punctuation) are cut at clauses


def sentences(text: str) -> list[Span]:
    """Sentence spans (ends included); blank stretches are skipped. A run of text with no
    sentence end is cut into pieces of at most MAX_SENTENCE characters, so that the work
    per sentence stays bounded whatever the page looks like."""
    out, pos = [], 0
    for m in SENTENCE_END.finditer(text):
        if text[pos:m.end()].strip():
            out.extend(_bounded(text, pos, m.end()))
        pos = m.end()
    if text[pos:].strip():
        out.extend(_bounded(text, pos, len(text)))
    return out


def _bounded(text: str, start: int, end: int) -> list[Span]:
    if end - start <= MAX_SENTENCE:
        return [Span(start, end)]
    pieces = []
    while end - start > MAX_SENTENCE:
        cut = start + MAX_SENTENCE
        soft = None
        for m in SOFT_BREAK.finditer(text, start + MAX_SENTENCE // 2, cut):
            soft = m.end()
        cut = soft or cut
        pieces.append(Span(start, cut))
        start = cut
    pieces.append(Span(start, end))
    return pieces


def clause_breaks(text: str, span: Span) -> list[int]:
    """Positions inside ``span`` where a clause ends."""
    return [m.start() for m in CLAUSE_BREAK.finditer(text, span.start, span.end)]


# -- line layouts: a table or spec-list line, or prose ---------------------------------
TABLE_LINE, PROSE_LINE = "table", "prose"
SPEC_LIST_WIDTH = 60   # characters: a "label: value" line longer than this is prose


# line -> its layout. list_under reads the lines between a chip and each of its figures,
# so a document's lines are classified again and again (on the bench corpus 83% of the
# calls repeat a line of the same document); the memo is emptied when it is full.
_LAYOUTS: dict[str, str] = {}
LAYOUTS_KEPT = 4096


def line_layout(line: str) -> str:
    """TABLE_LINE for a table row (pipes, tabs, aligned columns), a cell on a line of its
    own or a short "label: value" spec-list line; PROSE_LINE for sentences."""
    layout = _LAYOUTS.get(line)
    if layout is None:
        if len(_LAYOUTS) >= LAYOUTS_KEPT:
            _LAYOUTS.clear()
        layout = _LAYOUTS[line] = _layout(line)
    return layout


def _layout(line: str) -> str:
    body = LIST_MARK.sub("", line.strip())
    if WIDE_GAP.search(body):
        return TABLE_LINE
    if len(body) <= SPEC_LIST_WIDTH and not LINE_SENTENCE_END.search(body) \
            and len(CLAUSE_MARK.findall(body)) <= 1:
        return TABLE_LINE
    return PROSE_LINE


def list_under(text: str, head: int, pos: int) -> bool:
    """Is ``pos`` on a spec-list line of an unbroken list that starts on the line after
    the one holding ``head`` (a chip named above its list: "H100 规格" then "FP64：34")?
    A blank line may separate the head from the list, not the list's lines. The lines are
    read backwards from ``pos``, so a prose line ends the test where it stands."""
    head_end = text.find("\n", head, pos)
    if head_end < 0:
        return False
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    seen_blank = False
    while end > head_end:
        start = text.rfind("\n", head_end, end) + 1  # text[head_end] is a line break
        line = text[start:end]
        if not line.strip():
            seen_blank = True
        elif seen_blank or line_layout(line) != TABLE_LINE:
            return False
        end = start - 1
    return True
