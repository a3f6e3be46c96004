"""The report's overview pages, drawn from the store's queries (store/queries.py):

- ``index.html``: verdict counts as SVG charts (per chip, per attribute, documents by
  contradicted claims), the contradicted claims grouped by chip and diagnosis (each group
  a ``<details>`` with its first claims and a link to the group's page), the documents
  worst-first and the consensus per chip, each list cut at a fixed length with a link to
  the full page, so the index stays the same size however large the store;
- ``contradicted.html`` (every group), ``groups/<name>.html`` (every claim of a group),
  ``documents.html`` (every document, worst-first), ``consensus.html`` (every line).

Each function yields the page in pieces, as rows stream from SQLite.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from operator import itemgetter

from ..check.consensus import CONSENSUS_COLUMNS, consensus_lines
from ..check.reference import Reference
from ..codebook import CONTRADICTED, VERDICTS
from ..store import queries
from ..store.db import Store
from .charts import bar_chart, histogram, stacked_bar
from ..names import printable
from .pages import PAGE_TAIL, claim_item, esc, legend, page_head, safe_name
from .patterns import SAFE_CHARS

CHIPS_CHARTED = 20        # chips in the per-chip chart (the rest summed in one line)
GROUPS_SHOWN = 40         # contradicted groups on the index
CLAIMS_PER_GROUP = 5      # claims shown in a group on the index
GROUPS_OPEN = 3           # groups shown open
DOCUMENTS_SHOWN = 50      # documents on the index, worst first
FAILED_SHOWN = 20
CONSENSUS_SHOWN = 30
HIST_BINS = (0, 1, 2, 3, 5, 10)
HIST_LABELS = ("0", "1", "2", "3–4", "5–9", "10+")
KIND_NONE = "(no diagnosis)"


def group_page_name(entity: str, kind: str) -> str:
    """The file name of a contradicted group's page (in ``groups/``)."""
    slug = SAFE_CHARS.sub("_", f"{entity}-{kind}").strip("_")[:60] or "group"
    digest = hashlib.sha256(f"{entity}\t{kind}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{slug}-{digest[:10]}.html"


def _doc_href(path: str, page_doc_id: str, up: str = "") -> str:
    return f"{up}docs/{esc(safe_name(path, page_doc_id))}"


@lru_cache(maxsize=4096)   # a document's claims come one after another in a group's list
def _doc_link(path: str, doc_id: str, page_doc_id: str, up: str = "") -> str:
    """The document's name, linked to its page when it has one (an ok document)."""
    if page_doc_id:
        return f"<a href=\"{_doc_href(path, page_doc_id, up)}\">{esc(printable(doc_id))}</a>"
    return esc(printable(doc_id))


def _standalone(title: str, parts: Iterable[str], up: str = "") -> Iterator[str]:
    """A page of the report beside index.html (``up``: "../" for one in a subfolder)."""
    yield page_head(title)
    yield f"<p class=\"nav\"><a href=\"{up}index.html\">← report</a></p>"
    yield from parts
    yield PAGE_TAIL


# --- index.html ---------------------------------------------------------------------------
Group = tuple[str, str]   # (chip, diagnosis kind) of contradicted claims
Contradicted = tuple[list[tuple[str, str, int]], dict[Group, list[dict]]]


def index_parts(store: Store, reference: Reference,
                consensus: tuple[int, list[str]] | None = None,
                contradicted: Contradicted | None = None) -> Iterator[str]:
    """index.html in pieces; ``consensus``: (lines, first rows) known from consensus.html;
    ``contradicted``: (the groups, the claims shown of the groups shown) known from the
    groups' pages."""
    conn = store.conn
    last = queries.last_run(conn)
    yield page_head("specextract report")
    yield ("<h1>specextract report</h1>"
           f"<p class=\"muted path\">store {esc(str(store.path))} · run "
           f"{esc(str(last.get('run_id', '')))} ({esc(str(last.get('status', '')))}, "
           f"{esc(str(last.get('finished_at') or ''))}) · pipeline "
           f"{esc(str(last.get('pipeline_version', '')))} · reference "
           f"{esc(reference.version[:12])}</p>\n")
    per_verdict, chips, attributes = queries.verdict_tallies(conn)
    yield "<h2>Verdicts</h2>"
    yield verdict_table(per_verdict)
    yield legend()
    yield charts(store, chips, attributes)
    yield "\n<h2>Contradicted claims</h2>"
    yield from contradicted_section(store, contradicted)
    yield "\n<h2>Documents</h2>"
    yield from documents_section(store)
    yield "\n<h2>Consensus per chip</h2>"
    yield from consensus_section(store, reference, consensus)
    yield PAGE_TAIL


def verdict_table(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    rows = "".join(f"<tr><td class=\"v-{v}\">{v}</td><td class=\"num\">{counts.get(v, 0)}</td>"
                   f"<td class=\"num\">{_share(counts.get(v, 0), total)}</td></tr>"
                   for v in VERDICTS)
    return (f"<table><tr><th>verdict</th><th>claims</th><th>share</th></tr>{rows}"
            f"<tr><th>total</th><th class=\"num\">{total}</th><th></th></tr></table>")


def _share(n: int, total: int) -> str:
    return f"{100 * n / total:.1f}%" if total else ""


def charts(store: Store, chips: list[tuple], attribute_rows: list[tuple]) -> str:
    """The bar charts of claims per chip and per attribute (``chips``, ``attribute_rows``:
    as queries.verdict_tallies gives them) and the histogram of documents."""
    shown = [(name or "(none)", counts) for name, *counts in chips[:CHIPS_CHARTED]]
    rest = chips[CHIPS_CHARTED:]
    if rest:
        shown.append((f"{len(rest)} more chips",
                      [sum(r[1 + i] for r in rest) for i in range(len(VERDICTS))]))
    attributes = [(name or "(none)", counts) for name, *counts in attribute_rows]
    docs = queries.documents_histogram(store.conn, HIST_BINS)
    figures = [("Claims per chip", bar_chart(shown, label="verdicts per chip")),
               ("Claims per attribute", bar_chart(attributes, label="verdicts per attribute")),
               ("Documents by contradicted claims",
                histogram(HIST_LABELS, docs, label="documents by contradicted claims"))]
    return "<div class=\"charts\">" + "".join(
        f"<figure><figcaption>{title}</figcaption>{svg}</figure>"
        for title, svg in figures if svg) + "</div>"


def _kind(kind: str) -> str:
    return kind or KIND_NONE


def contradicted_section(store: Store, known: Contradicted | None = None) -> Iterator[str]:
    """The largest contradicted groups with their first claims; ``known``: (groups, shown
    claims) when the groups' pages were just written from the same store."""
    groups, shown = known if known is not None else (queries.contradicted_groups(store.conn),
                                                     None)
    if not groups:
        yield "<p>None.</p>"
        return
    total = sum(n for _, _, n in groups)
    yield (f"<p>{total} contradicted claims in {len(groups)} groups (chip · diagnosis), "
           "largest first.</p>")
    if shown is None:
        shown = {(entity, kind): [] for entity, kind, _ in groups[:GROUPS_SHOWN]}
        for entity, kind, row in queries.contradicted_claims(store.conn, CLAIMS_PER_GROUP):
            if (entity, kind) in shown:
                shown[entity, kind].append(row)
    for i, (entity, kind, n) in enumerate(groups[:GROUPS_SHOWN]):
        yield from group_details(entity, kind, n, shown[entity, kind], open_=i < GROUPS_OPEN)
    if len(groups) > GROUPS_SHOWN:
        yield (f"<p><a href=\"contradicted.html\">all {len(groups)} groups →</a></p>")


def group_details(entity: str, kind: str, n: int, rows: Iterable[dict], *,
                  open_: bool = False, up: str = "") -> Iterator[str]:
    """One group on the index: its first claims (``rows``) and a link to its page."""
    yield (f"<details{' open' if open_ else ''}><summary><b>{esc(entity)}</b> · "
           f"{esc(_kind(kind))} <span class=\"badge v-{CONTRADICTED}\">{n}</span></summary>"
           "<ol class=\"claims\">")
    for row in rows:
        yield claim_item(None, row, _doc_link(row["path"], row["doc_id"],
                                              row["page_doc_id"], up) + " ")
    yield "</ol>"
    if n > CLAIMS_PER_GROUP:
        yield (f"<p><a href=\"{up}groups/{group_page_name(entity, kind)}\">all {n} claims "
               "→</a></p>")
    yield "</details>"


def documents_section(store: Store) -> Iterator[str]:
    ok, failed = queries.document_totals(store.conn)
    yield f"<p>{ok} documents, worst first (most contradicted claims, then their share)"
    if failed:
        yield f"; <span class=\"error\">{failed} documents failed</span>"
    yield ".</p>"
    yield from documents_table(queries.documents_ranked(store.conn, DOCUMENTS_SHOWN))
    if ok + failed > DOCUMENTS_SHOWN:
        yield f"<p><a href=\"documents.html\">all {ok + failed} documents →</a></p>"
    if failed:
        yield "<h3>Failed documents</h3>"
        yield from failed_table(queries.failed_documents(store.conn, FAILED_SHOWN))
        if failed > FAILED_SHOWN:
            yield f"<p><a href=\"documents.html\">all {failed} failed documents →</a></p>"


def documents_table(docs: Iterable[dict]) -> Iterator[str]:
    yield ("<div class=\"scroll\"><table><tr><th>document</th><th>verdicts</th>"
           "<th class=\"num\">claims</th><th class=\"num\">contra&shy;dicted</th>"
           "<th class=\"num\">share</th></tr>")
    for d in docs:
        counts = d["counts"]
        bad = counts[VERDICTS.index(CONTRADICTED)]
        status = ("" if d["status"] == "ok" else
                  f" <span class=\"error\">failed: {esc(d['reason'])}</span>")
        page_doc_id = d["doc_id"] if d["status"] == "ok" else ""
        yield (f"<tr><td>{_doc_link(d['path'], d['doc_id'], page_doc_id)}{status}</td>"
               f"<td>{stacked_bar(counts)}</td><td class=\"num\">{d['n_claims']}</td>"
               f"<td class=\"num\">{bad}</td>"
               f"<td class=\"num\">{_share(bad, d['n_claims'])}</td></tr>")
    yield "</table></div>"


def failed_table(rows: Iterable[tuple]) -> Iterator[str]:
    yield "<div class=\"scroll\"><table><tr><th>document</th><th>path</th><th>reason</th></tr>"
    for path, doc_id, reason, error in rows:
        yield (f"<tr><td>{esc(printable(doc_id))}</td>"
               f"<td class=\"muted\">{esc(printable(path))}</td>"
               f"<td><span class=\"error\">failed: {esc(reason)}</span><br>"
               f"<span class=\"muted\">{esc(printable(error))}</span></td></tr>")
    yield "</table></div>"


def consensus_section(store: Store, reference: Reference,
                      known: tuple[int, list[str]] | None = None) -> Iterator[str]:
    """The consensus table cut at CONSENSUS_SHOWN lines; ``known``: (how many lines, the
    first lines' rows) when consensus.html was just written from the same store."""
    n, head = known if known is not None else (queries.consensus_count(store.conn), None)
    if not n:
        yield "<p>No claims.</p>"
        return
    yield ("<p>Values claimed per chip and attribute, most documents first; the reference's "
           "values beside them.</p>")
    yield from consensus_table(store, reference, CONSENSUS_SHOWN, head)
    if n > CONSENSUS_SHOWN:
        yield f"<p><a href=\"consensus.html\">all {n} lines →</a></p>"


def consensus_table(store: Store, reference: Reference, limit: int | None = None,
                    rows: Iterable[str] | None = None) -> Iterator[str]:
    """The consensus lines (check.consensus's columns) as a table (``rows``: its rows as
    consensus_rows drew them)."""
    yield ("<div class=\"scroll\"><table><tr>"
           + "".join(f"<th>{esc(c)}</th>" for c in CONSENSUS_COLUMNS) + "</tr>")
    yield from (consensus_rows(store, reference, limit) if rows is None else rows)
    yield "</table></div>"


def consensus_rows(store: Store, reference: Reference,
                   limit: int | None = None) -> Iterator[str]:
    """One table row per consensus line, most documents first."""
    cells = itemgetter(*CONSENSUS_COLUMNS)
    for line in consensus_lines(queries.consensus(store.conn, limit), reference):
        yield "<tr><td>" + "</td><td>".join(map(esc, map(str, cells(line)))) + "</td></tr>"


# --- the full lists -----------------------------------------------------------------------
def contradicted_page(store: Store, groups: list[tuple[str, str, int]] | None = None
                      ) -> Iterator[str]:
    """contradicted.html (``groups``: queries.contradicted_groups, if read already)."""
    groups = queries.contradicted_groups(store.conn) if groups is None else groups
    parts = [f"<h1>Contradicted claims: {len(groups)} groups</h1>"]
    parts.extend(
        f"<p><a href=\"groups/{group_page_name(e, k)}\"><b>{esc(e)}</b> · {esc(_kind(k))}</a> "
        f"<span class=\"badge v-{CONTRADICTED}\">{n}</span></p>" for e, k, n in groups)
    return _standalone("contradicted claims · specextract", parts)


def group_page(entity: str, kind: str, n: int, rows: Iterable[dict]) -> Iterator[str]:
    """``groups/<name>.html``: every claim of a group (``rows``, in document and text order)."""
    def parts() -> Iterator[str]:
        yield (f"<h1>{esc(entity)} · {esc(_kind(kind))}</h1><p>{n} contradicted claims.</p>"
               "<ol class=\"claims\">")
        for row in rows:
            yield claim_item(None, row, _doc_link(row["path"], row["doc_id"],
                                                  row["page_doc_id"], "../") + " ")
        yield "</ol>"
    return _standalone(f"{entity} · {_kind(kind)} · specextract", parts(), "../")


def documents_page(store: Store) -> Iterator[str]:
    def parts() -> Iterator[str]:
        ok, failed = queries.document_totals(store.conn)
        yield f"<h1>Documents: {ok} ok, {failed} failed</h1><p>Worst first.</p>"
        yield from documents_table(queries.documents_ranked(store.conn))
        if failed:
            yield "<h2>Failed documents</h2>"
            yield from failed_table(queries.failed_documents(store.conn))
    return _standalone("documents · specextract", parts())


def consensus_page(store: Store, reference: Reference,
                   rows: Iterable[str] | None = None) -> Iterator[str]:
    """consensus.html (``rows``: the table's rows, as consensus_rows draws them)."""
    def parts() -> Iterator[str]:
        yield "<h1>Consensus per chip</h1>"
        yield from consensus_table(store, reference, rows=rows)
    return _standalone("consensus · specextract", parts())
