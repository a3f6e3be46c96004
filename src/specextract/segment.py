"""Sentences and clauses of normalized text, as spans."""
from __future__ import annotations

import re
from typing import NamedTuple

# Each pattern starts with a look-ahead on the characters a match can start with, so
# that most positions fail one set test instead of trying every alternative.
# A "?" run into a digit or a Latin letter is a hole left by a lost character ("约?1.8 倍",
# "RTX?3090?Ti"), not a question mark.
SENTENCE_END = re.compile(r"(?=[。！？!?；;\n.])"
                          r"(?:(?:[。！？!；;\n]|\?(?![A-Za-z0-9]))++|(?<=[a-z0-9%)\]])\.(?=\s+[A-Z\"“(]|\s*$))")
CLAUSE_BREAK = re.compile(r"(?=[，；;,\s而但])"
                          r"(?:[，；;]|,(?!\d{3}(?!\d))|(?<=[a-z\s]),(?=\s)|\s(?:while|whereas|but|and the)\s|而|但)")


class Span(NamedTuple):
    start: int
    end: int


MAX_SENTENCE = 1200  # longer "sentences" (a page with no punctuation) are cut at clauses
SOFT_BREAK = re.compile(r"[，,、：:\s]")


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
