"""Visible text of an HTML page: no script, style or tags; blocks become lines.

Table cells are separated by " | " and rows end lines, so that spec tables reach the
extractor as pipe tables. Entities are decoded by the parser.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements whose content is never visible.
HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "svg", "iframe", "object"})
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


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden: list[str] = []  # stack of open hidden elements
        self.cell_in_row = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in HIDDEN and tag not in VOID:
            if len(self.hidden) < MAX_DEPTH:
                self.hidden.append(tag)
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

    def handle_startendtag(self, tag: str, attrs) -> None:
        if not self.hidden and tag in BLOCKS:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if self.hidden:
            if tag == self.hidden[-1]:
                self.hidden.pop()
            elif tag in self.hidden:  # malformed nesting: close up to the match
                while self.hidden and self.hidden.pop() != tag:
                    pass
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
    parser.close()
    lines = ("".join(parser.parts)).split("\n")
    cleaned = [" ".join(line.split()) if line.strip() else "" for line in lines]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(cleaned))
    return text.strip("\n") + "\n" if text.strip() else ""
