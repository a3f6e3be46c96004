"""The HTML report of a store: ``write_report(store, "out/report", reference)``.

``index.html`` holds the verdict counts, the contradicted claims with expected values and
diagnoses, the per-chip consensus (the table ``check.consensus`` makes, here computed in
SQL) and the list of documents (failed ones with their reasons); ``docs/<safe-name>.html``
shows each document (see highlight.py). Self-contained: inline CSS, no scripts (a
Content-Security-Policy forbids them), no network.

Nothing here holds the store's claims in memory: index.html is written as SQL aggregates
stream from the store, and a document's page is written only when it is missing or its
document changed since it was written (processed or re-checked: the report folder's
``.pages`` file remembers the state each page shows: content hash, pipeline and checker
versions), so pages of unchanged documents stay as they are. Pages of documents the store
no longer shows as ok are removed. Every file is written under a temporary name and
renamed into place.

A batch worker that has just extracted and checked a document draws its page then
(``stage_page``, into ``.staging/`` of the report folder, named by the state it shows);
``write_report`` moves a staged page that matches the stored document into place instead
of drawing it again.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

from ..check.checker import CONSENSUS_COLUMNS
from ..names import printable
from .pages import (PAGE_TAIL, document_page, esc, legend, page_head, safe_name,
                        source_html)
from ..records import format_decimal
from ..check.reference import Reference
from ..check.rows import select_rows
from ..codebook import ATTRIBUTE_UNITS, CONTRADICTED, VERDICTS
from ..store.db import Store

MANIFEST = ".pages"           # in the report folder: page name, state of its document
STAGING = ".staging"          # in the report folder: pages drawn by batch workers
TMP_SUFFIX = ".tmp"


def write_report(store: Store, folder: str | Path, reference: Reference) -> Path:
    """Write the report into ``folder`` (updating an old one); returns index.html's path."""
    folder = Path(folder)
    for leftover in (folder.with_name(folder.name + ".new"),
                     folder.with_name(folder.name + ".old")):   # earlier versions' swaps
        shutil.rmtree(leftover, ignore_errors=True)
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    write_pages(store, folder)
    shutil.rmtree(folder / STAGING, ignore_errors=True)
    index = folder / "index.html"
    tmp = index.with_name(index.name + TMP_SUFFIX)
    with tmp.open("w", encoding="utf-8") as fh:
        fh.writelines(index_page_parts(store, reference))
    os.replace(tmp, index)
    return index


# --- document pages -----------------------------------------------------------------------
def page_state(content_hash: str | None, pipeline_version: str | None,
               check_version: str | None) -> str:
    """What an ok document's page shows is fixed by its content, the pipeline that
    extracted it and the checker (and reference table) that checked it."""
    return f"{content_hash or ''}|{pipeline_version or ''}|{check_version or ''}"


def staging_folder(folder: str | Path) -> Path:
    """An empty folder for the pages batch workers draw (``stage_page``) in this run."""
    staging = Path(folder) / STAGING
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True, exist_ok=True)
    return staging


def _staged_name(name: str, state: str) -> str:
    return f"{name}.{hashlib.sha256(state.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"


def stage_page(staging: str | Path, doc: dict, rows: list[dict[str, str]], state: str) -> bool:
    """Draw an ok document's page (``doc`` as the store's documents row with text, ``rows``
    as Store.claim_rows gives them) into the staging folder, if that folder exists here;
    whether it was written. Never raises for a file system problem (the report draws the
    page then)."""
    folder = Path(staging)
    if not folder.is_dir():
        return False
    target = folder / _staged_name(safe_name(doc["path"], doc["doc_id"]), state)
    tmp = target.with_name(f"{target.name}.{os.getpid()}{TMP_SUFFIX}")
    try:
        tmp.write_text(document_page(doc, rows), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)
        return False
    return True


def renderer_version() -> str:
    """Changes with the code that draws pages (a new one redraws every page)."""
    from .. import __version__
    from . import pages as highlight
    h = hashlib.sha256(__version__.encode())
    for module in (highlight.__file__, __file__):
        h.update(Path(module).read_bytes())
    return h.hexdigest()[:16]


def write_pages(store: Store, folder: Path) -> int:
    """Write the pages that are missing or stale; remove pages of no ok document; returns
    how many were written."""
    docs, staging = folder / "docs", folder / STAGING
    manifest_path = folder / MANIFEST
    renderer = renderer_version()
    old = _read_manifest(manifest_path, renderer)
    present = {p.name for p in docs.iterdir()}
    current: dict[str, str] = {}
    written = 0
    try:
        for path, doc_id, content_hash, pipeline_version, check_version in store.conn.execute(
                "SELECT path, doc_id, content_hash, pipeline_version, check_version "
                "FROM documents WHERE status = 'ok'"):
            name = safe_name(path, doc_id)
            state = page_state(content_hash, pipeline_version, check_version)
            if old.get(name) != state or name not in present:
                try:
                    os.replace(staging / _staged_name(name, state), docs / name)
                except OSError:
                    doc = store.document(path)
                    rows = list(store.claim_rows(path=path))
                    tmp = docs / (name + TMP_SUFFIX)
                    tmp.write_text(document_page(doc, rows), encoding="utf-8")
                    os.replace(tmp, docs / name)
                written += 1
            current[name] = state
    except BaseException:  # what was written stays known, even if this run stops here
        if written:
            _write_manifest(manifest_path, renderer, {**old, **current})
        raise
    for name in present - current.keys():
        target = docs / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
        else:
            target.unlink(missing_ok=True)
    _write_manifest(manifest_path, renderer, current)
    return written


def _read_manifest(path: Path, renderer: str) -> dict[str, str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    if not lines or lines[0] != f"renderer\t{renderer}":
        return {}
    return dict(line.split("\t", 1) for line in lines[1:] if "\t" in line)


def _write_manifest(path: Path, renderer: str, pages: dict[str, str]) -> None:
    tmp = path.with_name(path.name + TMP_SUFFIX)
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(f"renderer\t{renderer}\n")
        fh.writelines(f"{name}\t{state}\n" for name, state in pages.items())
    os.replace(tmp, path)


# --- index.html ---------------------------------------------------------------------------
def index_page(store: Store, reference: Reference) -> str:
    """index.html as one string (write_report streams the same parts to the file)."""
    return "".join(index_page_parts(store, reference))


def index_page_parts(store: Store, reference: Reference) -> Iterator[str]:
    last = _last_run(store)
    sections: list[str | Iterable[str]] = [
        "<h1>specextract report</h1>",
        f"<p class=\"muted\">store {esc(str(store.path))} · run {esc(str(last.get('run_id', '')))}"
        f" ({esc(str(last.get('status', '')))}, {esc(str(last.get('finished_at') or ''))})"
        f" · pipeline {esc(str(last.get('pipeline_version', '')))}"
        f" · reference {esc(reference.version[:12])}</p>",
        "<h2>Verdicts</h2>", verdict_table(store.verdict_counts()), legend(),
        "<h2>Contradicted claims</h2>", contradicted_table(store),
        "<h2>Consensus per chip</h2>", consensus_table(store, reference),
        "<h2>Documents</h2>", documents_table(store),
    ]
    yield page_head("specextract report")
    for i, section in enumerate(sections):
        if i:
            yield "\n"
        if isinstance(section, str):
            yield section
        else:
            yield from section
    yield PAGE_TAIL


def _last_run(store: Store) -> dict:
    cur = store.conn.execute("SELECT * FROM runs ORDER BY run_id DESC LIMIT 1")
    names = [d[0] for d in cur.description]
    row = cur.fetchone()
    return dict(zip(names, row)) if row else {}


def verdict_table(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    rows = "".join(f"<tr><td class=\"v-{v}\">{v}</td><td class=\"num\">{counts.get(v, 0)}</td></tr>"
                   for v in VERDICTS)
    return f"<table><tr><th>verdict</th><th>claims</th></tr>{rows}" \
           f"<tr><th>total</th><th class=\"num\">{total}</th></tr></table>"


def _doc_link(path: str, doc_id: str, page_doc_id: str | None) -> str:
    """The document's name, linked to its page when it has one (an ok document: then
    ``page_doc_id`` is the doc_id its page is named by)."""
    if page_doc_id is not None:
        name = safe_name(path, page_doc_id)
        return f"<a href=\"docs/{esc(name)}\">{esc(printable(doc_id))}</a>"
    return esc(printable(doc_id))


def _table(head: str, rows: Iterator[str], empty: str) -> Iterator[str]:
    """``<table>head rows</table>``, or ``empty`` when there is no row."""
    first = next(rows, None)
    if first is None:
        yield empty
        return
    yield f"<table>{head}"
    yield first
    yield from rows
    yield "</table>"


def contradicted_table(store: Store) -> Iterator[str]:
    head = ("<tr><th>document</th><th>chip</th><th>attribute</th><th>claimed</th>"
            "<th>surface</th><th>expected</th><th>diagnosis</th><th>source</th></tr>")
    cur = store.conn.execute(
        "SELECT c.path, c.doc_id, CASE WHEN d.status = 'ok' THEN d.doc_id END, c.entity, "
        "c.attribute, c.operator, c.value, c.unit, c.surface, c.expected, c.diagnosis, "
        "c.source FROM claims c LEFT JOIN documents d ON d.path = c.path "
        "WHERE c.verdict = ? ORDER BY c.doc_id, c.path, c.seq", (CONTRADICTED,))

    def rows() -> Iterator[str]:
        for (path, doc_id, page_doc_id, entity, attribute, operator, value, unit, surface,
             expected, diagnosis, source) in cur:
            path, doc_id, entity, attribute, operator, value, unit, surface, expected, \
                diagnosis, source = map(_text, (path, doc_id, entity, attribute, operator,
                                                value, unit, surface, expected, diagnosis,
                                                source))
            op = "" if operator == "=" else operator + " "
            claimed = f"{op}{value} {unit}"
            yield (f"<tr><td>{_doc_link(path, doc_id, page_doc_id)}</td><td>{esc(entity)}</td>"
                   f"<td>{esc(attribute)}</td><td>{esc(claimed)}</td>"
                   f"<td>{esc(surface)}</td><td>{esc(expected)}</td>"
                   f"<td>{esc(diagnosis)}</td><td class=\"src\">{source_html(source)}</td></tr>")
    return _table(head, rows(), "<p>None.</p>")


def _text(value: object) -> str:
    """A cell as Store.claim_rows gives it."""
    return "" if value is None else str(value)


# One line per (entity, attribute, baseline, metric, value) over all claims, as
# check.consensus makes it: documents (by path) and claims stating it, its verdicts by
# count (ties: first seen), most-stated first; groups in the order claims are listed
# (doc_id, path, seq) break the remaining ties.
_VERDICT_SUMS = ", ".join(f"sum(verdict = '{v}'), min(CASE WHEN verdict = '{v}' THEN rn END)"
                          for v in VERDICTS)
CONSENSUS_SQL = f"""
WITH c AS (
  SELECT coalesce(entity, '') AS entity, coalesce(attribute, '') AS attribute,
         coalesce(baseline, '') AS baseline, coalesce(metric, '') AS metric,
         coalesce(value, '') AS value, verdict, expected, path,
         row_number() OVER (ORDER BY doc_id, path, seq) AS rn
  FROM claims)
SELECT entity, attribute, baseline, metric, value, count(DISTINCT path) AS documents,
       count(*), {_VERDICT_SUMS},
       group_concat(DISTINCT CASE WHEN attribute = 'speedup' AND expected != ''
                                  THEN expected END),
       min(rn) AS first
FROM c GROUP BY entity, attribute, baseline, metric, value
ORDER BY documents DESC, entity, attribute, value, first
"""


def consensus_table(store: Store, reference: Reference) -> Iterator[str]:
    head = "".join(f"<th>{esc(c)}</th>" for c in CONSENSUS_COLUMNS)
    ref_values: dict[tuple[str, str], str] = {}

    def rows() -> Iterator[str]:
        for row in store.conn.execute(CONSENSUS_SQL):
            entity, attribute, baseline, metric, value, documents, claims = row[:7]
            counts = row[7:7 + 2 * len(VERDICTS)]
            seen = [(-counts[2 * i], counts[2 * i + 1], v) for i, v in enumerate(VERDICTS)
                    if counts[2 * i]]
            verdicts = "; ".join(f"{v}:{-n}" for n, _, v in sorted(seen))
            if attribute == "speedup":
                expected = row[7 + 2 * len(VERDICTS)]
                values = {Decimal(x) for x in expected.split(",")} if expected else set()
                reference_values = "; ".join(format_decimal(v) for v in sorted(values))
            else:
                key = (entity, attribute)
                if key not in ref_values:
                    ref_values[key] = "; ".join(format_decimal(v) for v in sorted(
                        {r.value for r in select_rows(reference, entity, attribute).rows
                         if r.value is not None}))
                reference_values = ref_values[key]
            line = {"entity": entity, "attribute": attribute, "baseline": baseline,
                    "metric": metric, "value": value, "unit": ATTRIBUTE_UNITS[attribute],
                    "documents": documents, "claims": claims, "verdicts": verdicts,
                    "reference_values": reference_values}
            yield ("<tr>" + "".join(f"<td>{esc(str(line[c]))}</td>" for c in CONSENSUS_COLUMNS)
                   + "</tr>")
    return _table(f"<tr>{head}</tr>", rows(), "<p>No claims.</p>")


def documents_table(store: Store) -> Iterator[str]:
    (failed,) = store.conn.execute(
        "SELECT count(*) FROM documents WHERE status != 'ok'").fetchone()
    if failed:
        yield f"<p class=\"error\">{failed} documents failed.</p>"
    head = ("<tr><th>document</th><th>path</th><th>status</th><th>script</th>"
            "<th>claims</th>" + "".join(f"<th class=\"v-{v}\">{v}</th>" for v in VERDICTS)
            + "</tr>")
    sums = ", ".join(f"sum(verdict = '{v}')" for v in VERDICTS)
    cur = store.conn.execute(
        f"SELECT d.path, d.doc_id, d.status, d.reason, d.error, d.script, d.n_claims, {sums} "
        "FROM documents d LEFT JOIN claims c ON c.path = d.path "
        "GROUP BY d.path ORDER BY d.doc_id, d.path")

    def rows() -> Iterator[str]:
        for path, doc_id, status, reason, error, script, n_claims, *counts in cur:
            if status == "ok":
                shown = "ok"
            else:
                shown = (f"<span class=\"error\">failed: {esc(reason or '')}</span>"
                         f"<br><span class=\"muted\">{esc(printable(error or ''))}</span>")
            yield (f"<tr><td>{_doc_link(path, doc_id, doc_id if status == 'ok' else None)}</td>"
                   f"<td class=\"muted\">{esc(printable(path))}</td><td>{shown}</td>"
                   f"<td>{esc(script or '')}</td><td class=\"num\">{n_claims}</td>"
                   + "".join(f"<td class=\"num\">{n or 0}</td>" for n in counts) + "</tr>")
    yield from _table(head, rows(), "<p>No documents.</p>")


__all__ = ["write_report", "index_page", "write_pages"]
