"""The HTML report of a store: ``write_report(store, "out/report", reference)``.

``index.html`` holds the verdict counts, the contradicted claims with expected values and
diagnoses, the per-chip consensus (check.consensus) and the list of documents (failed ones
with their reasons); ``docs/<safe-name>.html`` shows each document (see highlight.py).
Self-contained: inline CSS, no scripts (a Content-Security-Policy forbids them), no
network. The report is built in a new folder and swapped in when complete.
"""
from __future__ import annotations

import shutil
from collections import Counter
from decimal import Decimal
from html import escape
from pathlib import Path

from .batch import claim_from_row
from .check import CONSENSUS_COLUMNS, consensus
from .highlight import document_page, legend, page, safe_name, source_html
from .records import CheckedClaim
from .reference import Reference
from .schema import CONTRADICTED, VERDICTS
from .store import Store


def write_report(store: Store, folder: str | Path, reference: Reference) -> Path:
    """Write the report into ``folder`` (replacing an old one); returns index.html's path."""
    folder = Path(folder)
    tmp = folder.with_name(folder.name + ".new")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "docs").mkdir(parents=True)
    pages = {}
    for doc in store.documents(with_text=True):
        if doc["status"] == "ok":
            name = safe_name(doc["path"], doc["doc_id"])
            rows = list(store.claim_rows(path=doc["path"]))
            (tmp / "docs" / name).write_text(document_page(doc, rows), encoding="utf-8")
            pages[doc["path"]] = name
    (tmp / "index.html").write_text(index_page(store, pages, reference), encoding="utf-8")
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    tmp.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    return folder / "index.html"


def index_page(store: Store, pages: dict[str, str], reference: Reference) -> str:
    runs = store.runs()
    last = runs[-1] if runs else {}
    sections = [
        "<h1>specextract report</h1>",
        f"<p class=\"muted\">store {escape(str(store.path))} · run {escape(str(last.get('run_id', '')))}"
        f" ({escape(str(last.get('status', '')))}, {escape(str(last.get('finished_at') or ''))})"
        f" · pipeline {escape(str(last.get('pipeline_version', '')))}"
        f" · reference {escape(reference.version[:12])}</p>",
        "<h2>Verdicts</h2>", verdict_table(store.verdict_counts()), legend(),
        "<h2>Contradicted claims</h2>", contradicted_table(store, pages),
        "<h2>Consensus per chip</h2>", consensus_table(store, reference),
        "<h2>Documents</h2>", documents_table(store, pages),
    ]
    return page("specextract report", "\n".join(sections))


def verdict_table(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    rows = "".join(f"<tr><td class=\"v-{v}\">{v}</td><td class=\"num\">{counts.get(v, 0)}</td></tr>"
                   for v in VERDICTS)
    return f"<table><tr><th>verdict</th><th>claims</th></tr>{rows}" \
           f"<tr><th>total</th><th class=\"num\">{total}</th></tr></table>"


def _doc_link(path: str, doc_id: str, pages: dict[str, str]) -> str:
    if path in pages:
        return f"<a href=\"docs/{escape(pages[path], quote=True)}\">{escape(doc_id)}</a>"
    return escape(doc_id)


def contradicted_table(store: Store, pages: dict[str, str]) -> str:
    head = ("<tr><th>document</th><th>chip</th><th>attribute</th><th>claimed</th>"
            "<th>surface</th><th>expected</th><th>diagnosis</th><th>source</th></tr>")
    body = []
    for r in store.claim_rows(verdicts=[CONTRADICTED], with_path=True):
        op = "" if r["operator"] == "=" else r["operator"] + " "
        claimed = f"{op}{r['value']} {r['unit']}"
        body.append(
            f"<tr><td>{_doc_link(r['path'], r['doc_id'], pages)}</td><td>{escape(r['entity'])}</td>"
            f"<td>{escape(r['attribute'])}</td><td>{escape(claimed)}</td>"
            f"<td>{escape(r['surface'])}</td><td>{escape(r['expected'])}</td>"
            f"<td>{escape(r['diagnosis'])}</td><td class=\"src\">{source_html(r['source'])}</td></tr>")
    return f"<table>{head}{''.join(body)}</table>" if body else "<p>None.</p>"


def consensus_table(store: Store, reference: Reference) -> str:
    items = []
    for r in store.claim_rows(with_path=True):
        claim = claim_from_row({**r, "doc_id": r["path"]})  # count documents by path
        items.append(CheckedClaim(claim, r["verdict"],
                                  expected=Decimal(r["expected"]) if r["expected"] else None))
    if not items:
        return "<p>No claims.</p>"
    frame = consensus(items, reference)
    head = "".join(f"<th>{escape(c)}</th>" for c in CONSENSUS_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(line[c]))}</td>" for c in CONSENSUS_COLUMNS)
                   + "</tr>" for line in frame.to_dict("records"))
    return f"<table><tr>{head}</tr>{body}</table>"


def documents_table(store: Store, pages: dict[str, str]) -> str:
    per_doc: dict[str, Counter] = {}
    for path, verdict, n in store.conn.execute(
            "SELECT path, verdict, count(*) FROM claims GROUP BY path, verdict"):
        per_doc.setdefault(path, Counter())[verdict] = n
    head = ("<tr><th>document</th><th>path</th><th>status</th><th>script</th>"
            "<th>claims</th>" + "".join(f"<th class=\"v-{v}\">{v}</th>" for v in VERDICTS)
            + "</tr>")
    body = []
    for doc in store.documents():
        counts = per_doc.get(doc["path"], Counter())
        if doc["status"] == "ok":
            status = "ok"
        else:
            status = (f"<span class=\"error\">failed: {escape(doc['reason'] or '')}</span>"
                      f"<br><span class=\"muted\">{escape(doc['error'] or '')}</span>")
        body.append(
            f"<tr><td>{_doc_link(doc['path'], doc['doc_id'], pages)}</td>"
            f"<td class=\"muted\">{escape(doc['path'])}</td><td>{status}</td>"
            f"<td>{escape(doc['script'] or '')}</td><td class=\"num\">{doc['n_claims']}</td>"
            + "".join(f"<td class=\"num\">{counts.get(v, 0)}</td>" for v in VERDICTS) + "</tr>")
    (failed,) = store.conn.execute(
        "SELECT count(*) FROM documents WHERE status != 'ok'").fetchone()
    note = f"<p class=\"error\">{failed} documents failed.</p>" if failed else ""
    return note + (f"<table>{head}{''.join(body)}</table>" if body else "<p>No documents.</p>")


__all__ = ["write_report", "index_page"]
