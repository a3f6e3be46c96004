"""``specextract run`` as a function: store, executor, progress, outputs, exit status.

    status = run_job(["corpus"], Path("out"), executor=LocalExecutor())

Writes ``OUT/specextract.db`` (or ``db``), then ``OUT/claims.csv`` and
``OUT/report/index.html`` from the whole store, and ends its messages with the worst wrong
figures (output/worst.py). Returns 0 when every document of this
run succeeded, 1 when some failed, 130 when interrupted (the store stays consistent and
the next run resumes). A malformed reference table, an unusable store or no input at all
raise an error with exit status 2 before the store is touched.
"""
from __future__ import annotations

import shutil
import signal
import sqlite3
import sys
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from .run import (BatchError, Executor, finish_quietly, reference_spec, run_batch, summary_text,
                  worker_reference)
from .executors import Done
from .tasks import ReferenceSpec
from ..errors import (DamagedStoreError, DataFileError, DiskFullError, SpecExtractError,
                      WorkerDied)
from ..output.export import write_csv
from ..ingest.inputs import count_input_files, iter_input_files
from ..check.reference import load_reference, tables_text
from ..output.report import STAGING, staging_folder, write_consensus, write_report
from ..output.worst import WrongFigure, worst_figures, worst_text
from ..store.db import CLAIM_STORE_COLUMNS, Store
from ..store.faults import fatal_error

DB_NAME = "specextract.db"


class NoInputError(SpecExtractError):
    """INPUTS name no file."""

    exit_code = 2


class BadReferenceError(SpecExtractError):
    """--reference names a malformed table (the message names file, row and problem)."""

    exit_code = 2


def run_job(inputs: Sequence[str], out_dir: Path, *, executor: Executor, db: Path | None = None,
            reference_path: str | None = None, progress: bool | None = None,
            echo: Callable[[str], None] = print, max_bytes: int | None = None,
            timeout: float | None = None, reference_extra: Sequence[str] = (),
            follow_symlinks: bool = False, prune: bool = False) -> int:
    try:
        ref = load_reference(reference_path, tuple(reference_extra))
    except DataFileError as exc:
        raise BadReferenceError(str(exc)) from None
    skipped: list[Path] = []
    paths = iter_input_files(inputs, follow_symlinks=follow_symlinks, skipped=skipped)
    first = next(paths, None)
    if first is None:
        raise NoInputError(f"no input files in {' '.join(inputs)}")
    paths = chain([first], paths)
    out_dir.mkdir(parents=True, exist_ok=True)
    show = sys.stderr.isatty() if progress is None else progress
    db = Path(db or out_dir / DB_NAME)
    try:
        return _run_in_store(db, inputs, paths, out_dir, ref, executor, show, echo,
                             _Extras(skipped, prune, follow_symlinks),
                             max_bytes=max_bytes, timeout=timeout)
    except (OSError, sqlite3.Error, DiskFullError, DamagedStoreError) as exc:
        fatal = fatal_error(exc, db)
        if fatal is None:
            raise
        remove_temporaries(out_dir)
        raise fatal from None


@dataclass
class _Extras:
    skipped: list[Path]          # filled as the inputs are walked
    prune: bool
    follow_symlinks: bool


def _run_in_store(db: Path, inputs: Sequence[str], paths, out_dir: Path, ref,
                  executor: Executor, show: bool, echo: Callable[[str], None],
                  extras: _Extras, **limits) -> int:
    with Store.open(db) as store:
        try:
            with _sigterm_as_interrupt(), executor:
                with _progress(inputs, show, extras.follow_symlinks) as bar:
                    run = run_batch(paths, store, ref, executor, inputs=" ".join(inputs),
                                    on_result=bar, pages=staging_folder(out_dir / "report"),
                                    **limits)
                run.skipped_links = extras.skipped
                if extras.prune:
                    run.pruned = store.prune_unseen()
                run.unseen = store.unseen()
                n, index, worst = _outputs(store, out_dir, ref, executor, run)
        except KeyboardInterrupt:
            echo(f"interrupted: the store {store.path} is consistent; run again to resume")
            return 130
        echo(summary_text(run, store))
        echo(tables_text(ref))
        echo(f"{n} claims (the whole store) -> {out_dir / 'claims.csv'}; report -> {index}")
        echo(worst_text(store, str(db), found=_result(worst)))
    return 1 if run.counts["failed"] else 0


def _outputs(store: Store, out_dir: Path, ref, executor: Executor, run
             ) -> tuple[int, Path, "_Part | None"]:
    """write_outputs; a full disk (or a store that breaks) fails the run in the store."""
    try:
        return write_outputs(store, out_dir, ref, executor)
    except Exception as exc:
        fatal = fatal_error(exc, out_dir)
        if fatal is None:
            raise
        finish_quietly(store, run, "failed")
        raise fatal from None


def remove_temporaries(out_dir: Path) -> None:
    """What a stopped run leaves half-written: the report's staging folder and temporary
    files of claims.csv and the report."""
    report = out_dir / "report"
    shutil.rmtree(report / STAGING, ignore_errors=True)
    for pattern in (".claims.csv.*.tmp", "claims.csv*.tmp", "report/*.tmp", "report/docs/*.tmp"):
        for path in out_dir.glob(pattern):
            path.unlink(missing_ok=True)


def write_outputs(store: Store, out_dir: Path, ref, executor: Executor
                  ) -> tuple[int, Path, "_Part | None"]:
    """claims.csv and the HTML report from the whole store; with worker processes, the
    CSV and the report's consensus.html (with the worst wrong figures) are written in them
    while this process draws the rest of the report, else here from the open store.
    Returns the CSV's claims, index.html's path and the worst figures' side job (None when
    there was none: the caller works them out)."""
    side_job = getattr(executor, "side_job", None)
    csv_path = out_dir / "claims.csv"
    csv_job = side_job(export_claims, str(store.path), str(csv_path)) if side_job else None
    # the consensus beside it only where the CSV went elsewhere: a side job run here would
    # open (and check) the store a second time for nothing
    side = _Pair(side_job(export_consensus, str(store.path), str(out_dir / "report"),
                          reference_spec(ref))) \
        if csv_job is not None and not isinstance(csv_job, Done) else None
    index = write_report(store, out_dir / "report", ref, _Part(side, 0) if side else None)
    worst = _Part(side, 1) if side else None
    if csv_job is not None:
        try:
            return csv_job.get(), index, worst
        except WorkerDied:   # killed (out of memory?) while writing: write it here
            pass
    return claims_csv(store, csv_path), index, worst


class _Pair:
    """A side job whose result is a pair; ``.get()`` waits for it once (a worker sends a
    result once) and gives it, or raises its error, as often as asked."""

    def __init__(self, job) -> None:
        self.job = job
        self.got: tuple | None = None

    def get(self) -> tuple:
        if self.got is None:
            try:
                self.got = (self.job.get(), None)
            except Exception as exc:  # noqa: BLE001 - raised again to each asker
                self.got = (None, exc)
        value, error = self.got
        if error is not None:
            raise error
        return value


class _Part:
    """One half of a _Pair's result, as a side job of its own (``.get()``)."""

    def __init__(self, pair: _Pair, i: int) -> None:
        self.pair, self.i = pair, i

    def get(self):
        return self.pair.get()[self.i]


def _result(job: "_Part | None"):
    """``job.get()``; None when there is no job or it failed (the caller works it out)."""
    if job is None:
        return None
    try:
        return job.get()
    except Exception:  # noqa: BLE001 - its process failed or died
        return None


def export_claims(db: str, csv_path: str) -> int:
    """Every claim of the store ``db`` into ``csv_path`` (read-only; runs in any process)."""
    with Store.open(db, write=False) as store:
        return claims_csv(store, csv_path)


def export_consensus(db: str, folder: str, spec: ReferenceSpec
                     ) -> tuple[tuple[int, list[str]], tuple[list[WrongFigure], int]]:
    """The report's consensus.html of the store ``db`` (read-only; runs in any process that
    can load the run's reference table ``spec``): what write_consensus returns, and the
    worst wrong figures (worst_figures), worked out beside it."""
    ref = worker_reference(spec)
    if ref is None:
        raise BatchError("this process cannot load the run's reference table")
    Path(folder).mkdir(parents=True, exist_ok=True)
    with Store.open(db, write=False) as store:
        return write_consensus(store, Path(folder), ref), worst_figures(store)


def claims_csv(store: Store, csv_path: str | Path) -> int:
    """Every claim of an open store into ``csv_path``; how many."""
    return write_csv(store.claim_values(), csv_path, columns=list(CLAIM_STORE_COLUMNS))


@contextmanager
def _progress(inputs: Sequence[str], show: bool, follow_symlinks: bool = False):
    """A callback for run_batch that drives a tqdm bar on stderr (nothing when not shown)."""
    if not show:
        yield None
        return
    from tqdm import tqdm
    bar = tqdm(total=count_input_files(inputs, follow_symlinks=follow_symlinks), unit="doc",
               file=sys.stderr, dynamic_ncols=True)

    def update(outcome: str, counts) -> None:
        bar.update(1)
        bar.set_postfix(claims=counts["claims"], errors=counts["failed"], refresh=False)

    try:
        yield update
    finally:
        bar.close()


@contextmanager
def _sigterm_as_interrupt():
    """kill PID stops a run like Ctrl-C does (the current document is rolled back)."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (e.g. called from a worker thread)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
