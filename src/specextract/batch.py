"""The streaming batch runner behind ``specextract run``.

    with Store.open(db) as store, LocalExecutor() as executor:
        result = run_batch(iter_input_files(inputs), store, load_reference(), executor)

One per-document function, :func:`process_task`, runs wherever the executor puts it (this
process, a local worker pool, a Dask worker): it reads the file (or takes its bytes),
hashes it, and unless the store already holds that content for this pipeline version,
normalizes and extracts it. It returns a plain dict (picklable, no records). The parent
checks the claims against the reference and writes each document in one transaction,
in input order, so every executor yields the same store.

Per document the store decides: same content and pipeline → skip (or, if only the
reference or checker changed, re-check the stored claims without extracting); otherwise
extract and replace the document's claims. Failed documents are always retried.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from decimal import Decimal
from pathlib import Path
from typing import Protocol

from . import pipeline
from .check import check
from .errors import DocumentError, SpecExtractError
from .ingest import document_from_bytes, read_bytes
from .records import Claim
from .reference import Reference
from .store import Store
from .versions import check_version, pipeline_version

OK, ERROR, UNCHANGED = "ok", "error", "unchanged"
INT_FIELDS = frozenset({"start", "end", "precision_exp"})


class BatchError(SpecExtractError):
    """The run cannot go on (e.g. a worker runs a different specextract)."""


class Executor(Protocol):
    name: str
    send_bytes: bool

    def map(self, fn: Callable[[dict], dict], tasks: Iterable[dict]) -> Iterator[dict]:
        """Results of ``fn`` over ``tasks``, in input order, consuming tasks lazily."""


@dataclass
class RunResult:
    run_id: int
    counts: Counter = field(default_factory=Counter)
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # path, reason, error
    interrupted: bool = False


# --- the per-document function (runs in workers) ---------------------------------------
def process_task(task: dict) -> dict:
    """Read, hash and (unless unchanged) extract one document; a plain dict back."""
    path, key = task["path"], task.get("key", task["path"])
    out = {"path": key, "doc_id": doc_id_of(key), "pipeline_version": pipeline_version()}
    try:
        data = task["data"] if task.get("data") is not None else read_bytes(Path(path))
        digest = hashlib.sha256(data).hexdigest()
        out.update(content_hash=digest, size=len(data))
        if task.get("known_hash") == digest:
            return {**out, "status": UNCHANGED}
        doc = document_from_bytes(key, data)
        result = pipeline.process_document(doc)
    except DocumentError as exc:
        return {**out, "status": ERROR, "reason": exc.reason, "error": safe_text(str(exc))}
    except Exception as exc:  # noqa: BLE001 - an extractor bug on one file must not stop a batch
        return {**out, "status": ERROR, "reason": "internal-error",
                "error": safe_text(f"{path}: internal-error ({type(exc).__name__}: {exc})")}
    return {**out, "status": OK, "encoding": doc.encoding, "format": doc.format,
            "script": result.normalized.script, "text": doc.text,
            "claims": [c.as_row() for c in result.claims]}


def process_partition(fn: Callable[[dict], dict], tasks: list[dict]) -> list[dict]:
    """A Dask task: one partition of documents."""
    return [fn(task) for task in tasks]


def safe_text(text: str) -> str:
    """Text SQLite can store: undecodable bytes of a file name (lone surrogates) spelled
    out as backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def doc_id_of(path: str) -> str:
    p = Path(path)
    return p.stem if p.suffix else p.name


def claim_from_row(row: dict[str, str]) -> Claim:
    """The Claim a stored (or worker) row describes; the inverse of Claim.as_row()."""
    kwargs = {}
    for f in fields(Claim):
        value = row.get(f.name, "")
        if f.name == "value":
            value = Decimal(value)
        elif f.name in INT_FIELDS:
            value = int(value or 0)
        kwargs[f.name] = value
    return Claim(**kwargs)


def checked_rows(rows: list[dict[str, str]], ref: Reference) -> list[dict[str, str]]:
    """Check one document's claims; the store's rows, in the same order."""
    return [c.as_row() for c in check([claim_from_row(r) for r in rows], ref)]


# --- the parent: decide, check, write --------------------------------------------------
def make_task(path: Path, store: Store, version: str, send_bytes: bool = False) -> dict:
    real = str(Path(path).absolute())
    key = safe_text(real)          # the store's key; differs only for undecodable names
    known = store.known(key)
    task = {"path": real} if key == real else {"path": real, "key": key}
    if known and known.status == OK and known.pipeline_version == version:
        task["known_hash"] = known.content_hash
    if send_bytes:
        try:
            task["data"] = read_bytes(Path(real))
        except DocumentError:
            pass  # the worker reads it again and reports the reason
    return task


def run_batch(paths: Iterable[Path], store: Store, ref: Reference, executor: Executor, *,
              inputs: str = "", on_result: Callable[[str, Counter], None] | None = None,
              ) -> RunResult:
    """Process every path; the store holds the outcome even if this is interrupted."""
    version, checker = pipeline_version(), check_version(ref)
    run = RunResult(store.start_run(inputs=inputs, executor=executor.name,
                                    pipeline_version=version, reference_version=ref.version,
                                    reference_path=ref.path))
    tasks = (make_task(p, store, version, executor.send_bytes) for p in paths)
    try:
        for result in executor.map(process_task, tasks):
            outcome = apply_result(result, store, ref, version, checker, run)
            if on_result:
                on_result(outcome, run.counts)
    except BaseException:
        run.interrupted = True
        store.finish_run(run.run_id, "interrupted", run.counts)
        raise
    store.finish_run(run.run_id, "finished", run.counts)
    return run


def apply_result(result: dict, store: Store, ref: Reference, version: str, checker: str,
                 run: RunResult) -> str:
    """Write one worker result; returns what happened (processed, unchanged, ...)."""
    if result["pipeline_version"] != version:
        raise BatchError(f"a worker runs another specextract pipeline "
                         f"({result['pipeline_version']}, this one is {version}); "
                         "install the same version on every worker")
    outcome, claims = _write(result, store, ref, version, checker)
    run.counts.update({"documents": 1, outcome: 1, "claims": claims})
    if outcome == "failed":
        run.failures.append((result["path"], result["reason"], result["error"]))
    return outcome


def _write(result: dict, store: Store, ref: Reference, version: str,
           checker: str) -> tuple[str, int]:
    """Store one result in one transaction; (outcome, number of claims)."""
    path = result["path"]
    if result["status"] == UNCHANGED:
        known = store.known(path)
        if known.check_version == checker:
            return "unchanged", known.n_claims
        rows = checked_rows(list(store.claim_rows(path=path)), ref)
        store.put_verdicts(path, rows, ref.version, checker)
        return "rechecked", len(rows)
    record = {k: result.get(k) for k in ("path", "doc_id", "content_hash", "size", "encoding",
                                         "format", "script", "text", "reason", "error")}
    record.update(status=result["status"], pipeline_version=version)
    if result["status"] == ERROR:
        store.put_document(record, [])
        return "failed", 0
    rows = checked_rows(result["claims"], ref)
    record.update(reference_version=ref.version, check_version=checker)
    store.put_document(record, rows)
    return "processed", len(rows)


def summary_text(run: RunResult, store: Store) -> str:
    """The end-of-run summary: counts, store-wide verdicts, every failed file and why."""
    c = run.counts
    lines = [f"{c['documents']} documents: {c['processed']} processed, {c['unchanged']} "
             f"unchanged, {c['rechecked']} re-checked, {c['failed']} failed; "
             f"{c['claims']} claims"]
    verdicts = store.verdict_counts()
    if verdicts:
        lines.append("store: " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))
    lines.extend(f"failed: {error}" for _, _, error in run.failures)
    return "\n".join(lines)
