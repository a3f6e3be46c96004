"""The HTML report of a store: ``write_report(store, "out/report", reference)``.

``index.html`` and the full lists beside it (see index.py) are drawn from the store's
queries (store/queries.py); ``docs/<safe-name>.html`` shows each document (see pages.py).
Self-contained: inline CSS, no scripts (a Content-Security-Policy forbids them), no
network.

Nothing here holds the store's claims in memory: the pages are written as rows stream
from the store, and a document's page is written only when it is missing or its
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
from itertools import chain, groupby, islice
from operator import itemgetter
from pathlib import Path
from typing import Protocol

from ..check.reference import Reference
from ..store import queries
from ..store.db import Store
from .index import (CLAIMS_PER_GROUP, CONSENSUS_SHOWN, GROUPS_SHOWN, Contradicted, Group,
                    consensus_page, consensus_rows, contradicted_page, documents_page,
                    group_page, group_page_name, index_parts)
from .pages import document_page, safe_name

MANIFEST = ".pages"           # in the report folder: page name, state of its document
STAGING = ".staging"          # in the report folder: pages drawn by batch workers
TMP_SUFFIX = ".tmp"


class Pending(Protocol):
    """A result another process is working out (a batch executor's side job)."""

    def get(self) -> tuple[int, list[str]]: ...


def write_report(store: Store, folder: str | Path, reference: Reference,
                 consensus: Pending | None = None) -> Path:
    """Write the report into ``folder`` (updating an old one); returns index.html's path.
    ``consensus``: consensus.html begun in another process (see write_lists)."""
    folder = Path(folder)
    for leftover in (folder.with_name(folder.name + ".new"),
                     folder.with_name(folder.name + ".old")):   # earlier versions' swaps
        shutil.rmtree(leftover, ignore_errors=True)
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    write_pages(store, folder)
    shutil.rmtree(folder / STAGING, ignore_errors=True)
    consensus, contradicted = write_lists(store, folder, reference, consensus)
    index = folder / "index.html"
    _write(index, index_parts(store, reference, consensus, contradicted))
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
    from . import citation, pages, style
    h = hashlib.sha256(__version__.encode())
    for module in (pages.__file__, style.__file__, citation.__file__, __file__):
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
        for path, doc_id, content_hash, pipeline_version, check_version in \
                queries.page_states(store.conn):
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


# --- index.html and the full lists ---------------------------------------------------------
def index_page(store: Store, reference: Reference) -> str:
    """index.html as one string (write_report streams the same parts to the file)."""
    return "".join(index_parts(store, reference))


def write_lists(store: Store, folder: Path, reference: Reference,
                consensus: Pending | None = None
                ) -> tuple[tuple[int, list[str]], Contradicted]:
    """contradicted.html, documents.html, consensus.html and one page per contradicted
    group in ``groups/`` (pages of groups that are gone removed); returns what the index
    shows of the consensus (how many lines, the first CONSENSUS_SHOWN rows) and of the
    contradicted claims (the groups, the first CLAIMS_PER_GROUP claims of the first
    GROUPS_SHOWN groups), so that each is queried once. ``consensus``: write_consensus
    running in another process meanwhile (its result is waited for last); when it fails,
    consensus.html is written here."""
    contradicted = queries.contradicted_groups(store.conn)
    _write(folder / "contradicted.html", contradicted_page(store, contradicted))
    _write(folder / "documents.html", documents_page(store))
    groups = folder / "groups"
    groups.mkdir(exist_ok=True)
    sizes = {(entity, kind): n for entity, kind, n in contradicted}
    on_index = {(entity, kind) for entity, kind, _ in contradicted[:GROUPS_SHOWN]}
    shown: dict[Group, list[dict]] = {}
    written = set()
    stream = queries.contradicted_claims(store.conn)
    for (entity, kind), claims in groupby(stream, key=itemgetter(0, 1)):
        rows = map(itemgetter(2), claims)
        if (entity, kind) in on_index:
            first = shown[entity, kind] = list(islice(rows, CLAIMS_PER_GROUP))
            rows = chain(first, rows)
        name = group_page_name(entity, kind)
        _write(groups / name, group_page(entity, kind, sizes[entity, kind], rows))
        written.add(name)
    for old in groups.iterdir():
        if old.name not in written and old.is_file():
            old.unlink(missing_ok=True)
    if consensus is not None:
        try:
            return consensus.get(), (contradicted, shown)
        except Exception:  # noqa: BLE001 - its process failed or died: write it here
            pass
    return write_consensus(store, folder, reference), (contradicted, shown)


def write_consensus(store: Store, folder: Path, reference: Reference) -> tuple[int, list[str]]:
    """consensus.html; how many lines it has, and the first CONSENSUS_SHOWN of them (the
    index shows those). Reads the store only, so another process can write it."""
    head: list[str] = []
    count = 0

    def counted(rows: Iterable[str]) -> Iterator[str]:
        nonlocal count
        for row in rows:
            if count < CONSENSUS_SHOWN:
                head.append(row)
            count += 1
            yield row
    _write(folder / "consensus.html",
           consensus_page(store, reference, counted(consensus_rows(store, reference))))
    return count, head


def _write(target: Path, parts: Iterable[str]) -> None:
    """Write a page from its parts under a temporary name, then rename it into place."""
    tmp = target.with_name(target.name + TMP_SUFFIX)
    with tmp.open("w", encoding="utf-8") as fh:
        fh.writelines(parts)
    os.replace(tmp, target)


__all__ = ["write_report", "index_page", "write_pages", "write_consensus"]
