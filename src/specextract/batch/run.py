"""The streaming batch runner behind ``specextract run``.

    with Store.open(db) as store, LocalExecutor() as executor:
        result = run_batch(iter_input_files(inputs), store, load_reference(), executor)

One per-document function, :func:`process_task`, runs wherever the executor puts it (this
process, a local worker pool, a Dask worker) on a :class:`~.tasks.DocumentTask` (built by
:func:`~.tasks.make_task`, frozen and picklable): it reads the file (or takes its bytes),
hashes it, and unless the store already holds that content for this pipeline version,
normalizes, extracts and checks it against the run's reference table (loaded once per
worker). It returns a plain dict (picklable, no records). The parent only writes: each
document in one transaction, in input order, so every executor yields the same store.
(A worker that cannot check, e.g. a Dask worker without the reference file, returns the
claims unchecked and the parent checks them.)

Per document the store decides: same content and pipeline → skip (or, if only the
reference or checker changed, re-check the stored claims without extracting); otherwise
extract and replace the document's claims. Failed documents are always retried.

Bounded per document: files above ``max_bytes`` fail as "too-large" before they are
read; long documents are extracted in blocks (:mod:`specextract.extract.blocks`); a document
still running after ``timeout`` seconds fails as "timeout" (where the worker runs tasks
in its main thread: this process and ``--workers``); a document whose worker process
dies on it (out of memory, a crash in an extension) fails as "worker-died" where the
executor has other processes (``--workers``, ``--dask``). Whatever one document does, the
run goes on: every failure becomes that document's reason in the store.
"""
from __future__ import annotations

import hashlib
import signal
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..extract.blocks import extract_blocks
from ..check.checker import check
from ..errors import DocumentError, SpecExtractError
from ..ingest.read import MAX_BYTES, decode_document, read_bytes
from ..normalize.numerals import number_notes
from ..names import printable
from ..programcache import save_changed
from ..records import Claim
from ..rows import claim_from_row
from ..check.reference import Reference, load_reference
from ..store.db import Store
from ..store.faults import fatal_error
from .tasks import ERROR, OK, UNCHANGED, DocumentTask, ReferenceSpec, make_task, safe_text
from .versions import check_version, pipeline_version

TIMEOUT = 300.0          # seconds per document (README: Bad input)
REPAIRED = "repaired"    # the reason an ok document carries when decoding mended bytes
WORKER_DIED = "worker-died"   # the reason of a document whose worker process died on it


class BatchError(SpecExtractError):
    """The run cannot go on (e.g. a worker runs a different specextract)."""


class Executor(Protocol):
    name: str
    send_bytes: bool

    def map(self, fn: Callable[[DocumentTask], dict], tasks: Iterable[DocumentTask],
            lost: Callable[[DocumentTask, str], dict] | None = None) -> Iterator[dict]:
        """Results of ``fn`` over ``tasks``, in input order, consuming tasks lazily;
        ``lost(task, why)`` stands for the result of a task whose worker process died."""

    # optional: side_job(fn, *args) -> an object whose .get() returns fn(*args), run beside
    # this process where the executor has local workers (job.write_outputs)


@dataclass
class RunResult:
    run_id: int
    counts: Counter = field(default_factory=Counter)
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # path, reason, error
    repairs: list[tuple[str, str]] = field(default_factory=list)  # path, what was mended
    interrupted: bool = False
    skipped_links: list[Path] = field(default_factory=list)  # symlinks leaving the inputs
    unseen: tuple[int, list[str]] = (0, [])   # stored documents the inputs no longer name
    pruned: int = 0


class DocumentTimeout(BaseException):
    """Raised in a document's task when it runs past its time limit (a BaseException, so
    that no ``except Exception`` on the way swallows it)."""


@contextmanager
def time_limit(seconds: float | None):
    """Raise DocumentTimeout after ``seconds`` (only in a main thread, with SIGALRM)."""
    if not seconds or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise DocumentTimeout
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the per-document function (runs in workers) ---------------------------------------
def process_task(task: DocumentTask) -> dict:
    """Read, hash and (unless unchanged) extract one document; a plain dict back."""
    key = task.store_key
    out = {"path": key, "doc_id": doc_id_of(key), "pipeline_version": pipeline_version()}
    limit = task.max_bytes or MAX_BYTES
    seconds = TIMEOUT if task.timeout is None else task.timeout
    try:
        with time_limit(seconds):
            data = task.data if task.data is not None else read_bytes(Path(task.path), limit)
            digest = hashlib.sha256(data).hexdigest()
            out.update(content_hash=digest, size=len(data))
            if task.known_hash == digest:
                return _unchanged({**out, "status": UNCHANGED}, task)
            doc, repairs = decode_document(key, data, limit)
            repairs = [*repairs, *number_notes(doc.text)]
            claims, script = extract_blocks(doc)
            result = {**out, "status": OK, "encoding": doc.encoding, "format": doc.format,
                      "script": script, "text": doc.text, **_checked_here(task, claims)}
            if repairs:
                result.update(reason=REPAIRED, error=safe_text(f"{key}: " + "; ".join(repairs)))
            _stage_page(task, result)
    except DocumentError as exc:
        return {**out, "status": ERROR, "reason": exc.reason, "error": safe_text(str(exc))}
    except DocumentTimeout:
        return timed_out(out, seconds)
    except RecursionError:
        return {**out, "status": ERROR, "reason": "internal-error",
                "error": safe_text(f"{key}: internal-error (RecursionError)")}
    except Exception as exc:  # noqa: BLE001 - an extractor bug on one file must not stop a batch
        return {**out, "status": ERROR, "reason": "internal-error",
                "error": safe_text(f"{key}: internal-error ({type(exc).__name__}: {exc})")}
    save_changed()   # the patterns this process compiled, for the next run (a no-op after)
    return result


def timed_out(result: dict, seconds: float) -> dict:
    """``result`` (path, doc_id, ...) failed as timeout."""
    return {**result, "status": ERROR, "reason": "timeout",
            "error": safe_text(f"{result['path']}: timeout (still running after {seconds:g} s)")}


# Checking runs where the document was extracted. A task names the run's reference table
# (path, version, ratios version, checker version); a worker process loads it once (a run in
# one process checks with the table it has loaded) and returns the checked rows with the
# checker version that made them. A worker that cannot (another table or checker there, no
# such file, a checker error) returns the rows unchecked, and the parent checks them as it
# always could.
_worker_references: dict[ReferenceSpec, Reference | None] = {}


def reference_spec(ref: Reference) -> ReferenceSpec:
    """What a task carries so that a worker can check against ``ref``."""
    return ReferenceSpec.of(ref)


def worker_reference(spec: ReferenceSpec | None) -> Reference | None:
    if spec is None:
        return None
    if spec not in _worker_references:
        try:
            ref = load_reference(spec.path, spec.extras)
            if (ref.version, ref.ratios_version, check_version(ref)) != spec.versions:
                ref = None
        except Exception:  # noqa: BLE001 - the parent checks instead
            ref = None
        _worker_references[spec] = ref
    return _worker_references[spec]


def _checked_here(task: DocumentTask, claims: list[Claim]) -> dict:
    """{"claims": rows} for a result: checked (and "checked": checker version) if this
    process can check against the run's reference, else unchecked."""
    ref = worker_reference(task.reference)
    if ref is not None:
        try:
            return {"claims": checked_rows(claims, ref), "checked": task.reference.check_version}
        except Exception:  # noqa: BLE001 - the parent checks again and records the failure
            pass
    return {"claims": [c.as_row() for c in claims]}


def _stage_page(task: DocumentTask, result: dict) -> None:
    """Draw the report page of a document checked here, for the parent to move into place
    (the task names the report's staging folder; see report.stage_page)."""
    if not task.pages or result.get("checked") is None:
        return
    try:
        from ..output.report import page_state, stage_page
        stage_page(task.pages, result, result["claims"],
                   page_state(result["content_hash"], result["pipeline_version"],
                              result["checked"]))
    except Exception:  # noqa: BLE001 - the report draws the page itself then
        pass


def _unchanged(result: dict, task: DocumentTask) -> dict:
    """An unchanged document; its stored claims re-checked when the task carries them
    (only the reference table or the checker changed)."""
    stored = task.stored
    ref = worker_reference(task.reference) if stored is not None else None
    if ref is not None:
        try:
            result.update(claims=checked_rows(stored, ref), checked=task.reference.check_version)
        except (Exception, DocumentTimeout):  # noqa: BLE001 - the parent re-checks
            result.pop("claims", None)
    return result


def doc_id_of(path: str) -> str:
    """The codebook's doc_id: the file name without its suffix, control and bidi
    characters spelled out (names.printable)."""
    p = Path(path)
    return printable(p.stem if p.suffix else p.name)


def checked_rows(rows: Sequence[dict[str, str]] | Sequence[Claim],
                 ref: Reference) -> list[dict[str, str]]:
    """Check one document's claims (rows, or the Claims themselves); the store's rows, in
    the same order."""
    claims = [r if isinstance(r, Claim) else claim_from_row(r) for r in rows]
    return [c.as_row() for c in check(claims, ref)]


# --- the parent: decide, check, write --------------------------------------------------
def run_batch(paths: Iterable[Path], store: Store, ref: Reference, executor: Executor, *,
              inputs: str = "", on_result: Callable[[str, Counter], None] | None = None,
              max_bytes: int | None = None, timeout: float | None = None,
              pages: str | Path | None = None) -> RunResult:
    """Process every path; the store holds the outcome even if this is interrupted.
    ``pages``: a folder where workers draw the report pages of the documents they
    process (report.staging_folder)."""
    version, checker = pipeline_version(), check_version(ref)
    run = RunResult(store.start_run(inputs=inputs, executor=executor.name,
                                    pipeline_version=version, reference_version=ref.version,
                                    reference_path=ref.path))
    spec = reference_spec(ref)
    _worker_references[spec] = ref   # documents checked in this process use it
    tasks = (make_task(p, store, version, executor.send_bytes, max_bytes=max_bytes,
                       timeout=timeout, reference=spec,
                       pages=None if pages is None else str(pages)) for p in paths)
    try:
        for result in executor.map(process_task, tasks, lost=lost_document):
            outcome = apply_result(result, store, ref, version, checker, run,
                                   TIMEOUT if timeout is None else timeout)
            if on_result:
                on_result(outcome, run.counts)
    except BaseException as exc:
        run.interrupted = True
        fatal = fatal_error(exc, store.path)
        finish_quietly(store, run, "failed" if fatal else "interrupted")
        if fatal is not None and fatal is not exc:
            raise fatal from None
        raise
    store.finish_run(run.run_id, "finished", run.counts)
    return run


def finish_quietly(store: Store, run: RunResult, status: str) -> None:
    """Record how the run ended, if the store still can (a full disk may refuse even that)."""
    try:
        store.finish_run(run.run_id, status, run.counts)
    except (sqlite3.Error, OSError):
        pass


def lost_document(task: DocumentTask, why: str, reason: str = WORKER_DIED) -> dict:
    """The result of a document whose worker process died running it (twice: once with
    others, once alone), or that no worker was left to run (reason no-workers): failed,
    retried on the next run like any other."""
    key = task.store_key
    return {"path": key, "doc_id": doc_id_of(key), "pipeline_version": pipeline_version(),
            "status": ERROR, "reason": reason,
            "error": safe_text(f"{key}: {reason} ({why})")}


def apply_result(result: dict, store: Store, ref: Reference, version: str, checker: str,
                 run: RunResult, timeout: float | None = TIMEOUT) -> str:
    """Write one worker result; returns what happened (processed, unchanged, ...). A
    check done here counts against the document's ``timeout`` too."""
    if result["pipeline_version"] != version:
        raise BatchError(f"a worker runs another specextract pipeline "
                         f"({result['pipeline_version']}, this one is {version}); "
                         "install the same version on every worker")
    try:
        with time_limit(timeout):
            outcome, claims = _write(result, store, ref, version, checker)
    except (Exception, DocumentTimeout) as exc:  # noqa: BLE001 - a checker bug, a timeout
        fatal = fatal_error(exc, store.path)
        if fatal is not None:
            raise fatal from None
        failed = (timed_out(result, timeout) if isinstance(exc, DocumentTimeout) else
                  {**result, "reason": "internal-error",
                   "error": safe_text(f"{result['path']}: internal-error while checking "
                                      f"and storing ({type(exc).__name__}: {exc})")})
        if result["status"] == UNCHANGED:  # keep what the store holds; report only
            outcome, claims, result = "failed", 0, {**failed, "status": UNCHANGED}
        else:  # the document fails in the store; the run goes on
            result = {**failed, "status": ERROR}
            outcome, claims = _write(result, store, ref, version, checker)
    run.counts.update({"documents": 1, outcome: 1, "claims": claims})
    if outcome == "failed":
        run.failures.append((result["path"], result["reason"], result["error"]))
    elif outcome == "processed" and result.get("reason") == REPAIRED:
        run.repairs.append((result["path"], result["error"]))
    return outcome


def _write(result: dict, store: Store, ref: Reference, version: str,
           checker: str) -> tuple[str, int]:
    """Store one result in one transaction; (outcome, number of claims)."""
    path = result["path"]
    if result["status"] == UNCHANGED:
        known = store.known(path)
        if known.check_version == checker:
            return "unchanged", known.n_claims
        rows = result.get("claims") if result.get("checked") == checker else None
        if rows is None:
            rows = checked_rows(list(store.claim_rows(path=path)), ref)
        store.put_verdicts(path, rows, ref.version, checker)
        return "rechecked", len(rows)
    record = {k: result.get(k) for k in ("path", "doc_id", "content_hash", "size", "encoding",
                                         "format", "script", "text", "reason", "error")}
    record.update(status=result["status"], pipeline_version=version)
    if result["status"] == ERROR:
        store.put_document(record, [])
        return "failed", 0
    rows = (result["claims"] if result.get("checked") == checker
            else checked_rows(result["claims"], ref))
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
    lines.extend(f"failed: {printable(error)}" for _, _, error in run.failures)
    lines.extend(f"repaired: {printable(note)}" for _, note in run.repairs)
    if run.skipped_links:
        names = ", ".join(printable(str(p)) for p in run.skipped_links[:3])
        lines.append(f"skipped {len(run.skipped_links)} symbolic links that point outside "
                     f"the inputs ({names}{', ...' if len(run.skipped_links) > 3 else ''}); "
                     "--follow-symlinks reads them")
    if run.pruned:
        lines.append(f"pruned: {run.pruned} stored documents that the inputs no longer name "
                     "were removed from the store")
    count, some = run.unseen
    if count:
        names = ", ".join(printable(p) for p in some) + (", ..." if count > len(some) else "")
        lines.append(f"warning: the store holds {count} documents that this run's inputs do "
                     f"not name ({names}: deleted, or from other runs); claims.csv and the "
                     "report cover the whole store; --prune removes them")
    return "\n".join(lines)
