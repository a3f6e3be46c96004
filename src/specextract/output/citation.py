"""A reference row's source as a short citation: publisher or domain, title, date, linked.

    cite("https://developer.nvidia.com/blog/x/ (NVIDIA Tech Blog 2020-05-14, Tables 1-3)")
    -> Citation(url="https://developer.nvidia.com/blog/x/", publisher="NVIDIA Tech Blog",
                title="", date="2020-05-14", more=0)

Sources are free text (see data/reference/NOTES.md): usually a URL and a parenthesis
naming publisher, date and table, sometimes several sources joined by " | ", sometimes no
URL at all. The citation takes the first source; ``more`` counts the others.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from .patterns import NOT_A_PUBLISHER, PAREN_OPEN, QUOTED_TITLE, SOURCE_DATE, SOURCE_URL

SHORT = 48        # characters of a citation part before it is cut


@dataclass(frozen=True)
class Citation:
    url: str          # "" when the source names none
    publisher: str    # the source's publisher, or the URL's domain, or the source's start
    title: str
    date: str
    more: int         # further sources joined by " | "

    def text(self) -> str:
        """"publisher, 'title', date" (the parts there are)."""
        title = f"‘{self.title}’" if self.title else ""
        return ", ".join(x for x in (self.publisher, title, self.date) if x)


def _cut(text: str, n: int = SHORT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1].rstrip() + "…"


def _domain(url: str) -> str:
    host = urlsplit(url).hostname or ""
    return host[4:] if host.startswith("www.") else host


@lru_cache(maxsize=4096)   # a reference table has a few hundred distinct sources
def cite(source: str) -> Citation:
    parts = [p.strip() for p in source.split(" | ") if p.strip()]
    if not parts:
        return Citation("", "", "", "", 0)
    first, more = parts[0], len(parts) - 1
    m = SOURCE_URL.search(first)
    url = m.group(0).rstrip(".,;") if m else ""
    note = first[m.end():] if m else first
    paren = PAREN_OPEN.search(note)
    inner = paren.group(1) if paren else ("" if m else note)
    date_m = SOURCE_DATE.search(inner) or SOURCE_DATE.search(first)
    date = date_m.group(1) if date_m else ""
    title_m = QUOTED_TITLE.search(inner)
    title = _cut(title_m.group(1)) if title_m else ""
    publisher = ""
    if m and paren:
        head = inner.split(",")[0]
        if date_m and date_m.group(1) in head:
            head = head[:head.index(date_m.group(1))]
        head = head.strip(" ,;:")
        if head[:1].isupper() and not NOT_A_PUBLISHER.search(head) and len(head) <= SHORT:
            publisher = head
    if not publisher:
        publisher = _domain(url) if url else _cut(first if not m else first[:m.start()])
    return Citation(url, publisher, title, date, more)
