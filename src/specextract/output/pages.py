"""One document's report page: its original text with every claim highlighted by verdict,
beside a compact list of the claims.

Claims whose spans overlap are drawn as one highlight, coloured by the most serious
verdict among them; its hover text (``title``) and the claim list give each claim's
value, the expected value with its unit, variant and condition, the verdict, the diagnosis,
the source as a short citation and how the chip was found (link evidence). Everything that
comes from an article, a file name or a reference table is escaped; links are only ever
``#row-N`` anchors, report pages or http(s) URLs. The page's ``lang`` follows the
document's script, and the fonts fall back to CJK fonts (see style.py).
"""
from __future__ import annotations

import hashlib
from collections import Counter
from functools import lru_cache
from html import escape

from ..codebook import VERDICTS
from ..extract.drafts import LINKS
from .citation import cite
from .patterns import HTML_SPECIAL, PAGE_URL, SAFE_CHARS
from .style import CSS
from ..names import printable

SEVERITY = ("contradicted", "approximate", "unverifiable", "supported")
CSP = ("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; img-src data:\">")
LANGS = ("zh-Hans", "zh-Hant", "en")


def esc(text: str) -> str:
    """html.escape(text) (quotes too), without its five replaces when nothing needs it
    (five substring tests: cheaper than one pattern search, the more so the longer the
    text)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return escape(text)
    return text


def safe_name(path: str, doc_id: str) -> str:
    """A file name for a document's page that cannot leave the docs folder."""
    slug = SAFE_CHARS.sub("_", doc_id).strip("_")[:60] or "document"
    return f"{slug}-{hashlib.sha256(path.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}.html"


def page(title: str, body: str, lang: str = "en") -> str:
    return page_head(title, lang) + body + PAGE_TAIL


def page_head(title: str, lang: str = "en") -> str:
    """A page up to its body's content (for pages written in pieces)."""
    return (f"<!DOCTYPE html>\n<html lang=\"{esc(lang)}\"><head><meta charset=\"utf-8\">{CSP}"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head>\n"
            f"<body>\n")


PAGE_TAIL = "\n</body></html>\n"


def page_lang(script: str | None, text: str = "") -> str:
    """The ``lang`` of a document's page: its detected script (zh-Hans, zh-Hant, en); a
    mixed document is Chinese, traditional when its Han characters are."""
    if script in LANGS:
        return script
    if script == "mixed" and text:
        from ..normalize.script import is_traditional, script_counts
        return "zh-Hant" if is_traditional(script_counts(text)) else "zh-Hans"
    return "zh-Hans" if script == "mixed" else "en"


def legend() -> str:
    return ("<p class=\"legend\">" + "".join(
        f"<span class=\"v-{v}\">{v}</span>" for v in VERDICTS) + "</p>")


@lru_cache(maxsize=8192)   # a reference table's sources: the same few strings again and again
def source_html(source: str) -> str:
    """A source in full: its http(s) URLs as links, everything else as escaped text."""
    out, last = [], 0
    for m in PAGE_URL.finditer(source):
        out.append(esc(source[last:m.start()]))
        url = esc(m.group(0))
        out.append(f"<a href=\"{url}\" rel=\"noopener noreferrer\">{esc(m.group(0))}</a>")
        last = m.end()
    out.append(esc(source[last:]))
    return "".join(out)


@lru_cache(maxsize=8192)
def citation_html(source: str) -> str:
    """A source as a short citation (publisher or domain, title, date) linking to its URL;
    the full source text on hover."""
    if not source:
        return ""
    c = cite(source)
    text = esc(c.text() or source[:40])
    more = f" +{c.more}" if c.more else ""
    if c.url:
        return (f"<a class=\"cite\" href=\"{esc(c.url)}\" rel=\"noopener noreferrer\" "
                f"title=\"{esc(source)}\">{text}</a>{more}")
    return f"<span class=\"cite\" title=\"{esc(source)}\">{text}</span>{more}"


def link_text(link: str) -> str:
    """How a claim's chip was found, in words."""
    return LINKS.get(link, link) if link else ""


def claimed(r: dict[str, str]) -> str:
    op = r.get("operator", "=")
    return r["value"] if op == "=" or not op else f"{op} {r['value']}"


NOTE_PART = 40    # characters of a variant or condition shown in a claim's line


def _short(text: str, n: int = NOTE_PART) -> str:
    return text if len(text) <= n else text[:n - 1].rstrip() + "…"


def expected_note(r: dict[str, str], cut: bool = False) -> str:
    """"claimed → expected (unit, variant, condition)" of one claim (plain text); with
    ``cut``, a long variant or condition is cut short."""
    get = r.get
    variant, condition = get("expected_variant", ""), get("expected_condition", "")
    if cut:
        variant, condition = _short(variant), _short(condition)
    unit = get("unit", "")
    extra = ", ".join([x for x in (unit, variant, condition) if x]) \
        if variant or condition else unit
    expected = get("expected")
    note = f"{claimed(r)} → {expected}" if expected else claimed(r)
    return f"{note} ({extra})" if extra else note


def _notes(r: dict[str, str]) -> tuple[str, str]:
    """(expected_note(r), expected_note(r, cut=True)), the second drawn only when a
    variant or condition is long enough to be cut."""
    note = expected_note(r)
    if len(r.get("expected_variant", "")) > NOTE_PART or \
            len(r.get("expected_condition", "")) > NOTE_PART:
        return note, expected_note(r, cut=True)
    return note, note


def with_variant(r: dict[str, str]) -> str:
    """The chip, with the claim's variant, qualifiers and baseline."""
    get = r.get
    variant, qualifier, baseline = get("variant"), get("qualifier"), get("baseline")
    if not (variant or qualifier or baseline):
        return r["entity"]
    extra = [x for x in (variant, qualifier) if x]
    if baseline:
        extra.append(f"vs {baseline} {r['metric']}" if get("metric") else f"vs {baseline}")
    return f"{r['entity']} ({', '.join(extra)})"


@lru_cache(maxsize=8192)
def source_text(source: str) -> str:
    """A source as a short citation in plain text (cite(source).text())."""
    return cite(source).text()


Described = tuple[str, tuple[str, str]]   # (with_variant(row), _notes(row)) of one claim


def described(row: dict[str, str]) -> Described:
    """What a document's page says of a claim twice (hover text and list): drawn once."""
    return with_variant(row), _notes(row)


def claim_summary(n: int, row: dict[str, str], told: Described | None = None) -> str:
    """The hover text of one claim (plain text; escaped where it is inserted); ``told``:
    described(row), if drawn already."""
    get = row.get
    chip, (note, _) = told or (with_variant(row), (expected_note(row), ""))
    summary = f"#{n} {row['verdict']}: {chip} {row['attribute']} {note}"
    if get("expected"):
        summary += f"\nexpected {row['expected']} {row['unit']}"
    if get("diagnosis"):
        summary += f"\ndiagnosis: {row['diagnosis']}"
    if get("self_contradiction"):
        summary += f"\nself contradiction: {row['self_contradiction']}"
    if get("link"):
        summary += f"\nchip found by: {link_text(row['link'])}"
    if get("source"):
        summary += f"\nsource: {source_text(row['source'])}"
    return summary


def clusters(rows: list[dict[str, str]], length: int) -> list[tuple[int, int, list[int]]]:
    """Overlapping claim spans merged: (start, end, claim numbers), in text order."""
    spans = []
    for n, r in enumerate(rows, 1):
        start, end = int(r["start"]), int(r["end"])
        if 0 <= start < end <= length:
            spans.append((start, end, n))
    spans.sort()
    merged: list[tuple[int, int, list[int]]] = []
    for start, end, n in spans:
        if merged and start < merged[-1][1]:
            s, e, ns = merged[-1]
            merged[-1] = (s, max(e, end), ns + [n])
        else:
            merged.append((start, end, [n]))
    return merged


def highlighted_text(text: str, rows: list[dict[str, str]],
                     told: list[Described] | None = None) -> str:
    """The text, escaped, its claims' spans marked (``told``: described() of each row)."""
    told = told or [described(r) for r in rows]
    out, pos = [], 0
    for start, end, numbers in clusters(rows, len(text)):
        if len(numbers) == 1:
            (n,) = numbers
            verdict, title = rows[n - 1]["verdict"], claim_summary(n, rows[n - 1], told[n - 1])
            refs = f"<a href=\"#row-{n}\">{n}</a>"
        else:
            verdict = min((rows[n - 1]["verdict"] for n in numbers), key=_severity)
            title = "\n\n".join(claim_summary(n, rows[n - 1], told[n - 1]) for n in numbers)
            refs = ",".join(f"<a href=\"#row-{n}\">{n}</a>" for n in numbers)
        out.append(esc(text[pos:start]))
        out.append(f"<mark class=\"v-{esc(verdict)}\" title=\"{esc(title)}\">"
                   f"{esc(text[start:end])}<sup>{refs}</sup></mark>")
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)


def _severity(verdict: str) -> int:
    return SEVERITY.index(verdict) if verdict in SEVERITY else len(SEVERITY)


def claim_item(n: int | None, r: dict[str, str], doc_link: str = "", lang: str = "",
               told: Described | None = None) -> str:
    """One claim as a compact list item: verdict, chip and attribute, "claimed → expected
    (unit, variant, condition)"; then the diagnosis; then the source's citation and how the
    chip was found. ``doc_link`` (HTML) names the document, on pages listing many; ``lang``
    is the article's (its quoted surface); ``told``: described(r), if drawn already."""
    get = r.get
    chip, (note, short) = told or described(r)
    verdict = esc(r["verdict"])
    note_html = esc(note)
    shown = note_html if short is note else esc(short)
    link = esc(link_text(get("link", "")))
    title = f" title=\"chip found by: {link}\"" if link else ""
    head = (f"<span class=\"badge v-{verdict}\">{verdict}</span> {doc_link}"
            f"<b{title}>{esc(chip)}</b> {esc(r['attribute'])} "
            f"<span class=\"fig\" title=\"{note_html}\">{shown}</span>")
    item = (f"<li id=\"row-{n}\"><div class=\"l1\"><span class=\"n\">{n}</span> {head}</div>"
            if n is not None else f"<li><div class=\"l1\">{head}</div>")
    diagnosis = _joined(get("diagnosis", ""), get("self_contradiction", ""), "; ")
    if diagnosis:
        item += f"<div class=\"diag\">{esc(diagnosis)}</div>"
    meta = _joined(citation_html(get("source", "")), f"link: {link}" if link else "", " · ")
    surface = get("surface", "")
    if surface:
        quoted = f"<span lang=\"{esc(lang)}\">{esc(surface)}</span>" if lang else esc(surface)
        meta = _joined(meta, f"“{quoted}”", " · ")
    if meta:
        item += f"<div class=\"meta\">{meta}</div>"
    return item + "</li>"


def _joined(first: str, second: str, sep: str) -> str:
    """``sep.join`` of the two that are not empty."""
    return f"{first}{sep}{second}" if first and second else first or second


def claims_list(rows: list[dict[str, str]], lang: str = "",
                told: list[Described] | None = None) -> str:
    told = told or [described(r) for r in rows]
    items = "".join(claim_item(n, r, lang=lang, told=t)
                    for n, (r, t) in enumerate(zip(rows, told), 1))
    return f"<ol class=\"claims\">{items}</ol>" if items else "<p>No claims found.</p>"


def document_page(doc: dict, rows: list[dict[str, str]]) -> str:
    """The HTML of one document's page (``doc`` is a store documents row with text)."""
    text = doc.get("text") or ""
    lang = page_lang(doc.get("script"), text)
    info = " · ".join(esc(str(doc.get(k) or "")) for k in ("script", "encoding", "format"))
    told = [described(r) for r in rows]
    counts = Counter(r["verdict"] for r in rows)
    tally = " · ".join(f"<span class=\"badge v-{v}\">{counts[v]} {v}</span>"
                       for v in VERDICTS if counts[v])
    body = (f"<p class=\"nav\"><a href=\"../index.html\">← report</a></p>"
            f"<h1>{esc(printable(doc['doc_id']))}</h1>"
            f"<p class=\"muted path\">{esc(printable(doc['path']))}<br>{info} · {len(rows)} claims "
            f"{tally}</p>"
            f"<div class=\"layout\"><pre class=\"doc\">{highlighted_text(text, rows, told)}</pre>"
            f"<div class=\"side\" lang=\"en\">{claims_list(rows, lang, told)}</div></div>")
    return page(f"{printable(doc['doc_id'])} · specextract", body, lang)
