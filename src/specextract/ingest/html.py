"""Visible text of an HTML page: no script, style or tags; blocks become lines.

Table cells are separated by " | " and rows end lines, so that spec tables reach the
extractor as pipe tables. Character references are decoded.

The tokenizer is our own, one regular-expression step per construct, so its time is
linear in the page whatever the markup: Python's ``html.parser`` (3.11.7) takes
quadratic time on malformed tags (``<a b="`` repeated: 80,000 characters, 16 s).
Malformed markup is read as browsers read it: a tag, comment or declaration left open
runs to the end of the page, and ``<`` not followed by a letter, ``/``, ``!`` or ``?``
is text.
"""
from __future__ import annotations

import re
from collections import Counter
from html import unescape

from .patterns import BLANK_LINES, MARKUP, raw_text_end

# Elements whose content is never visible.
HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "svg", "iframe", "object"})
# Elements whose content is raw text up to their end tag (never parsed as markup).
RAW_TEXT = frozenset({"script", "style"})
# Elements that start and end a line.
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "thead", "tbody",
    "tfoot", "tr", "ul", "caption", "title", "body", "html",
})
CELLS = frozenset({"td", "th"})
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr"})
MAX_DEPTH = 10_000

RAW_TEXT_END = {name: raw_text_end(name) for name in RAW_TEXT}


class _VisibleText:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.hidden: list[str] = []  # stack of open hidden elements
        self.open_hidden: Counter = Counter()  # the same, for membership in O(1)
        self.cell_in_row = 0

    def feed(self, markup: str) -> None:
        """Walk ``markup`` once: text between constructs, each construct by MARKUP."""
        pos, n = 0, len(markup)
        while pos < n:
            lt = markup.find("<", pos)
            if lt < 0:
                self.handle_data(unescape(markup[pos:]))
                return
            m = MARKUP.match(markup, lt)
            if m is None:  # "<" that opens nothing is text
                lt += 1
            if lt > pos:
                self.handle_data(unescape(markup[pos:lt]))
            if m is None:
                pos = lt
                continue
            pos = self._construct(m, markup)

    def _construct(self, m: re.Match, markup: str) -> int:
        """Handle one tag (comments and declarations are dropped); where to go on."""
        if m.group("end") is not None:
            self.handle_endtag(m.group("end_name").lower())
            return m.end()
        if m.group("start") is None:
            return m.end()
        tag = m.group("name").lower()
        if m.group().endswith("/>"):
            self.handle_startendtag(tag)
            return m.end()
        self.handle_starttag(tag)
        if tag in RAW_TEXT:  # skip to the end tag (or the end of the page)
            close = RAW_TEXT_END[tag].search(markup, m.end())
            self.handle_endtag(tag)
            return close.end() if close else len(markup)
        return m.end()

    def handle_starttag(self, tag: str) -> None:
        if tag in HIDDEN and tag not in VOID:
            if len(self.hidden) < MAX_DEPTH:
                self.hidden.append(tag)
                self.open_hidden[tag] += 1
            return
        if self.hidden:
            return
        if tag == "tr":
            self.cell_in_row = 0
        if tag in CELLS:
            if self.cell_in_row:
                self.parts.append(" | ")
            self.cell_in_row += 1
        elif tag in BLOCKS:
            self._newline()

    def handle_startendtag(self, tag: str) -> None:
        if not self.hidden and tag in BLOCKS:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if self.hidden:
            if self.open_hidden[tag]:  # close up to the match (malformed nesting too)
                while self.hidden:
                    top = self.hidden.pop()
                    self.open_hidden[top] -= 1
                    if top == tag:
                        break
            return
        if tag in BLOCKS:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not data.strip():  # layout whitespace between tags: at most one space
            if self.parts and not self.parts[-1].endswith(("\n", " ")):
                self.parts.append(" ")
            return
        self.parts.append(data)

    def _newline(self) -> None:
        if self.parts and not self.parts[-1].endswith("\n"):
            self.parts.append("\n")


def html_to_text(markup: str) -> str:
    """Return the visible text of ``markup`` (never raises on malformed HTML)."""
    parser = _VisibleText()
    parser.feed(markup)
    lines = ("".join(parser.parts)).split("\n")
    cleaned = [" ".join(line.split()) if line.strip() else "" for line in lines]
    text = BLANK_LINES.sub("\n\n", "\n".join(cleaned))
    return text.strip("\n") + "\n" if text.strip() else ""
