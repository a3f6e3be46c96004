"""Sentences and clauses of normalized text, as spans."""
from __future__ import annotations

import re
from typing import NamedTuple

SENTENCE_END = re.compile(r"[。！？!?；;\n]+|(?<=[a-z0-9%)\]])\.(?=\s+[A-Z\"“(]|\s*$)")
CLAUSE_BREAK = re.compile(r"[，；;]|,(?!\d{3}(?!\d))|(?<=[a-z\s]),(?=\s)|\s(?:while|whereas|but|and the)\s|而|但")


class Span(NamedTuple):
    start: int
    end: int


def sentences(text: str) -> list[Span]:
    """Sentence spans (ends included); blank stretches are skipped."""
    out, pos = [], 0
    for m in SENTENCE_END.finditer(text):
        if text[pos:m.end()].strip():
            out.append(Span(pos, m.end()))
        pos = m.end()
    if text[pos:].strip():
        out.append(Span(pos, len(text)))
    return out


def clause_breaks(text: str, span: Span) -> list[int]:
    """Positions inside ``span`` where a clause ends."""
    return [m.start() for m in CLAUSE_BREAK.finditer(text, span.start, span.end)]


def lines(text: str) -> list[Span]:
    """Line spans without the newline."""
    out, pos = [], 0
    for part in text.split("\n"):
        out.append(Span(pos, pos + len(part)))
        pos += len(part) + 1
    return out
