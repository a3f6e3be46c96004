"""Large documents in blocks of lines, so that no document costs more than a block's
time and memory at a time.

    claims, script = extract_blocks(doc)     # same records as one pass, offsets into doc.text

Documents of at most ``BLOCK_CHARS`` characters whose lines are all at most
``LINE_CHARS`` long (every real article: their longest lines are under 1,000 characters)
go through the pipeline in one pass. Others are cut at line ends into blocks of at most
``BLOCK_CHARS``, and a line longer than ``LINE_CHARS`` into pieces of its own, each cut
after the last space or sentence end in its second half (or at the limit when it has
none). Each block is normalized and extracted on its own, its claims are shifted to the
document's offsets and deduplicated as one document's. What crosses a cut (a chip named
in the block before) is not linked: the price of bounded cost on text no article holds.
"""
from __future__ import annotations

from dataclasses import replace

from . import document as pipeline
from .claims import dedupe
from ..records import Claim, Document
from ..normalize.script import detect_script
from .patterns import BREAK

BLOCK_CHARS = 1_000_000
LINE_CHARS = 100_000


def split_blocks(text: str, size: int = BLOCK_CHARS,
                 line_size: int = LINE_CHARS) -> list[tuple[int, int]]:
    """(start, end) of consecutive blocks covering ``text``: whole lines up to ``size``
    characters, or one piece of at most ``line_size`` of a longer line."""
    spans, start, n = [], 0, len(text)
    while start < n:
        line_end = text.find("\n", start)
        line_end = n if line_end < 0 else line_end + 1
        if line_end - start > line_size:
            end = _cut(text, start, start + line_size)
        else:
            end = _whole_lines(text, start, min(n, start + size), line_size)
        spans.append((start, end))
        start = end
    return spans or [(0, 0)]


def _whole_lines(text: str, start: int, limit: int, line_size: int) -> int:
    """The end of the last line that ends by ``limit``, stopping before a line longer
    than ``line_size`` (at least the first line)."""
    end = start
    while end < limit:
        nxt = text.find("\n", end)
        nxt = len(text) if nxt < 0 else nxt + 1
        if nxt > limit and end > start or nxt - end > line_size and end > start:
            break
        end = nxt
    return end


def _cut(text: str, start: int, limit: int) -> int:
    """Where to cut a long line: after the last break in the piece's second half, else
    at the limit."""
    cut = limit
    for m in BREAK.finditer(text, start + (limit - start) // 2, limit):
        cut = m.end()
    return cut


def needs_blocks(text: str, size: int = BLOCK_CHARS, line_size: int = LINE_CHARS) -> bool:
    if len(text) > size:
        return True
    pos = 0
    while pos < len(text):
        nxt = text.find("\n", pos)
        nxt = len(text) if nxt < 0 else nxt + 1
        if nxt - pos > line_size:
            return True
        pos = nxt
    return False


def extract_blocks(doc: Document, size: int = BLOCK_CHARS,
                   line_size: int = LINE_CHARS) -> tuple[list[Claim], str]:
    """(claims, script) of ``doc``, extracted block by block when it is long."""
    if not needs_blocks(doc.text, size, line_size):
        result = pipeline.process_document(doc)
        return result.claims, result.normalized.script
    claims: list[Claim] = []
    for start, end in split_blocks(doc.text, size, line_size):
        part = replace(doc, text=doc.text[start:end])
        for claim in pipeline.process_document(part).claims:
            claims.append(replace(claim, start=claim.start + start, end=claim.end + start))
    return dedupe(claims), detect_script(doc.text)
