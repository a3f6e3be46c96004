"""One document's report page: its original text with every claim highlighted by verdict.

Claims whose spans overlap are drawn as one highlight, coloured by the most serious
verdict among them; its hover text (``title``) and the side table give each claim's
attribute, value, expected value, diagnosis and source. Everything that comes from an
article, a file name or a reference table is escaped; links are only ever ``#row-N``
anchors or http(s) URLs.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from html import escape

from ..codebook import VERDICTS
from ..names import printable

SEVERITY = ("contradicted", "approximate", "unverifiable", "supported")
HTML_SPECIAL = re.compile(r"[&<>\"']")
SAFE_CHARS = re.compile(r"[^A-Za-z0-9_-]+")
HTTP_URL = re.compile(r"https?://[^\s\"'<>]+")
COLOURS = {"supported": "#b7e4c7", "approximate": "#ffe08a", "contradicted": "#ff9b9b",
           "unverifiable": "#d6d6d6"}
CSP = ("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; img-src data:\">")
CSS = """
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
td.src{overflow-wrap:anywhere;min-width:16em;max-width:30em;font-size:12px}.nw{white-space:nowrap}
th{background:#f3f3f3}.num{text-align:right}.muted{color:#666}.error{color:#a00}
.layout{display:flex;gap:1.5em;align-items:flex-start}.layout>div{flex:1 1 45%;min-width:0}
.layout>div.side{flex-basis:55%;overflow-x:auto}
pre.doc{white-space:pre-wrap;word-wrap:break-word;font:15px/1.7 inherit;background:#fafafa;border:1px solid #ddd;padding:1em}
mark{padding:1px 2px;border-radius:3px}mark sup{font-size:10px;margin-left:1px}
.legend span{display:inline-block;padding:1px 8px;margin-right:6px;border-radius:3px}
""" + "".join(f".v-{v}{{background:{c}}}" for v, c in COLOURS.items())


def esc(text: str) -> str:
    """html.escape(text) (quotes too), without its five replaces when nothing needs it."""
    return escape(text) if HTML_SPECIAL.search(text) else text


def safe_name(path: str, doc_id: str) -> str:
    """A file name for a document's page that cannot leave the docs folder."""
    slug = SAFE_CHARS.sub("_", doc_id).strip("_")[:60] or "document"
    return f"{slug}-{hashlib.sha256(path.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}.html"


def page(title: str, body: str) -> str:
    return page_head(title) + body + PAGE_TAIL


def page_head(title: str) -> str:
    """A page up to its body's content (for pages written in pieces)."""
    return (f"<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\">{CSP}"
            f"<title>{esc(title)}</title><style>{CSS}</style></head>\n"
            f"<body>\n")


PAGE_TAIL = "\n</body></html>\n"


def legend() -> str:
    return ("<p class=\"legend\">" + "".join(
        f"<span class=\"v-{v}\">{v}</span>" for v in VERDICTS) + "</p>")


@lru_cache(maxsize=8192)   # a reference table's sources: the same few strings again and again
def source_html(source: str) -> str:
    """A source cell: its http(s) URLs as links, everything else as escaped text."""
    out, last = [], 0
    for m in HTTP_URL.finditer(source):
        out.append(esc(source[last:m.start()]))
        url = esc(m.group(0))
        out.append(f"<a href=\"{url}\" rel=\"noopener noreferrer\">{esc(m.group(0))}</a>")
        last = m.end()
    out.append(esc(source[last:]))
    return "".join(out)


def claim_summary(n: int, row: dict[str, str]) -> str:
    """The hover text of one claim (plain text; escaped where it is inserted)."""
    parts = [f"#{n} {row['verdict']}: {row['entity']} {row['attribute']} "
             f"{row['operator']} {row['value']} {row['unit']}"]
    if row.get("expected"):
        parts.append(f"expected {row['expected']} {row['unit']}")
    for key in ("diagnosis", "self_contradiction", "source"):
        if row.get(key):
            parts.append(f"{key.replace('_', ' ')}: {row[key]}")
    return "\n".join(parts)


def clusters(rows: list[dict[str, str]], length: int) -> list[tuple[int, int, list[int]]]:
    """Overlapping claim spans merged: (start, end, claim numbers), in text order."""
    spans = sorted((int(r["start"]), int(r["end"]), n) for n, r in enumerate(rows, 1)
                   if 0 <= int(r["start"]) < int(r["end"]) <= length)
    merged: list[tuple[int, int, list[int]]] = []
    for start, end, n in spans:
        if merged and start < merged[-1][1]:
            s, e, ns = merged[-1]
            merged[-1] = (s, max(e, end), ns + [n])
        else:
            merged.append((start, end, [n]))
    return merged


def highlighted_text(text: str, rows: list[dict[str, str]]) -> str:
    out, pos = [], 0
    for start, end, numbers in clusters(rows, len(text)):
        verdict = min((rows[n - 1]["verdict"] for n in numbers), key=_severity)
        title = "\n\n".join(claim_summary(n, rows[n - 1]) for n in numbers)
        refs = ",".join(f"<a href=\"#row-{n}\">{n}</a>" for n in numbers)
        out.append(esc(text[pos:start]))
        out.append(f"<mark class=\"v-{esc(verdict)}\" title=\"{esc(title)}\">"
                   f"{esc(text[start:end])}<sup>{refs}</sup></mark>")
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)


def _severity(verdict: str) -> int:
    return SEVERITY.index(verdict) if verdict in SEVERITY else len(SEVERITY)


def claims_table(rows: list[dict[str, str]]) -> str:
    head = ("<tr><th>#</th><th>verdict</th><th>chip</th><th>attribute</th><th>value</th>"
            "<th>surface</th><th>expected</th><th>diagnosis</th><th>source</th></tr>")
    body = []
    for n, r in enumerate(rows, 1):
        value = " ".join(x for x in (r["operator"] if r["operator"] != "=" else "",
                                     r["value"], r["unit"]) if x)
        diagnosis = "; ".join(x for x in (r.get("diagnosis", ""), r.get("self_contradiction", ""))
                              if x)
        expected = f"{r['expected']} {r['unit']}" if r.get("expected") else ""
        body.append(
            f"<tr id=\"row-{n}\"><td class=\"num\">{n}</td>"
            f"<td class=\"v-{esc(r['verdict'])}\">{esc(r['verdict'])}</td>"
            f"<td>{esc(_with_variant(r))}</td><td>{esc(r['attribute'])}</td>"
            f"<td class=\"nw\">{esc(value)}</td><td>{esc(r['surface'])}</td>"
            f"<td class=\"nw\">{esc(expected)}</td>"
            f"<td>{esc(diagnosis)}</td><td class=\"src\">{source_html(r.get('source', ''))}</td></tr>")
    return f"<table>{head}{''.join(body)}</table>" if body else "<p>No claims found.</p>"


def _with_variant(r: dict[str, str]) -> str:
    extra = [x for x in (r.get("variant", ""), r.get("qualifier", "")) if x]
    if r.get("baseline"):
        extra.append(f"vs {r['baseline']}" + (f" {r['metric']}" if r.get("metric") else ""))
    return r["entity"] + (f" ({', '.join(extra)})" if extra else "")


def document_page(doc: dict, rows: list[dict[str, str]]) -> str:
    """The HTML of one document's page (``doc`` is a store documents row with text)."""
    info = " · ".join(esc(str(doc.get(k) or "")) for k in ("script", "encoding", "format"))
    body = (f"<p><a href=\"../index.html\">← report</a></p>"
            f"<h1>{esc(printable(doc['doc_id']))}</h1>"
            f"<p class=\"muted\">{esc(printable(doc['path']))}<br>{info} · {len(rows)} claims</p>"
            f"{legend()}<div class=\"layout\"><div><pre class=\"doc\">"
            f"{highlighted_text(doc.get('text') or '', rows)}</pre></div>"
            f"<div class=\"side\">{claims_table(rows)}</div></div>")
    return page(f"{printable(doc['doc_id'])} · specextract", body)
