"""Runs that start processes: kill -9 and resume, --workers, Dask (LocalCluster and an
existing scheduler on loopback). Each must leave the same store as a plain local run."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from batchkit import dump_store, make_corpus, run_cli, store_count
from specextract.batch.tasks import DocumentTask
from specextract.errors import WorkerDied

pytestmark = pytest.mark.slow
N_ARTICLES = 60


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("parallel") / "corpus", N_ARTICLES, paragraphs=8)


@pytest.fixture(scope="module")
def local_store(corpus) -> Path:
    """The reference result: an uninterrupted run in this process."""
    out = corpus.parent / "local"
    result = run_cli("run", corpus, "--out", out)
    assert result.exit_code == 0, result.output
    return out / "specextract.db"


def test_killed_run_resumes_to_the_same_store(corpus, local_store, tmp_path):
    out = tmp_path / "killed"
    db = out / "specextract.db"
    command = [sys.executable, "-m", "specextract", "run", str(corpus), "--out", str(out),
               "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stored, deadline = 0, time.monotonic() + 60
    try:
        while stored < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
            stored = store_count(db) if db.exists() else 0
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        with proc.stderr:
            stderr = proc.stderr.read().decode()
    assert proc.returncode == -signal.SIGKILL, stderr
    at_kill = store_count(db)
    assert 3 <= at_kill < N_ARTICLES, "the run was not killed part-way"
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{N_ARTICLES - at_kill} processed, {at_kill} unchanged" in resumed.stdout
    assert dump_store(db) == dump_store(local_store)
    conn_runs = __import__("sqlite3").connect(db).execute(
        "SELECT status FROM runs ORDER BY run_id").fetchall()
    assert conn_runs == [("interrupted",), ("finished",)]


def same_csv(out: Path, local_store: Path) -> bool:
    """claims.csv and the report's consensus.html (written by workers beside the report)
    are the local run's, byte for byte."""
    mine = (out / "claims.csv").read_bytes()
    consensus = Path("report", "consensus.html")
    return (len(mine.splitlines()) > 1 and mine == (local_store.parent / "claims.csv").read_bytes()
            and (out / consensus).read_bytes() == (local_store.parent / consensus).read_bytes())


def test_two_worker_processes_give_the_same_store(corpus, local_store, tmp_path):
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert dump_store(tmp_path / "out" / "specextract.db") == dump_store(local_store)
    assert same_csv(tmp_path / "out", local_store)


def test_dask_local_cluster_gives_the_same_store(corpus, local_store, tmp_path):
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--dask", "local")
    assert result.exit_code == 0, result.output
    assert f"{N_ARTICLES} processed" in result.output
    assert dump_store(tmp_path / "out" / "specextract.db") == dump_store(local_store)
    assert same_csv(tmp_path / "out", local_store)


def test_dask_existing_scheduler_with_bytes_gives_the_same_store(corpus, local_store, tmp_path):
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        result = run_cli("run", corpus, "--out", tmp_path / "out", "--dask", address,
                         "--send-bytes")
    assert result.exit_code == 0, result.output
    assert dump_store(tmp_path / "out" / "specextract.db") == dump_store(local_store)


def test_side_jobs_run_in_a_worker_and_raise_their_errors():
    import operator

    from specextract.batch.executors import LocalExecutor, PoolExecutor
    with PoolExecutor(2) as pool:
        assert pool.side_job(os.getpid).get() != os.getpid()
        with pytest.raises(ZeroDivisionError):
            pool.side_job(operator.truediv, 1, 0).get()
    with LocalExecutor() as here:
        assert here.side_job(os.getpid).get() == os.getpid()


def _worker_settings() -> tuple:
    import dask
    return tuple(dask.config.get(key) for key in _QUIET_KEYS)


_QUIET_KEYS = ("distributed.worker.profile.enabled", "distributed.admin.tick.interval",
               "distributed.worker.memory.monitor-interval")


def test_local_cluster_workers_and_scheduler_run_quietly():
    """The settings that cut the cluster's own polling reach the spawned workers, and the
    scheduler here runs without work stealing; none of it leaks into this process."""
    import dask

    from specextract.batch.executors import QUIET_LOCAL_CLUSTER, DaskExecutor
    wanted = tuple(QUIET_LOCAL_CLUSTER[key] for key in _QUIET_KEYS)
    assert wanted == (False, "1s", "1s")
    with DaskExecutor("local") as dask_executor:
        seen = dask_executor.client.run(_worker_settings)
        assert len(seen) == 2 and set(seen.values()) == {wanted}
        assert "stealing" not in dask_executor.cluster.scheduler.extensions
        assert dask_executor.side_job(os.getpid).get() != os.getpid()
    assert dask.config.get("distributed.admin.tick.interval") != "1s"


def _lost(task, why: str) -> dict:
    return {"path": task.path, "lost": why}


@pytest.mark.parametrize("killers", [(13,), (0, 1, 39)])
def test_a_worker_killed_on_a_document_loses_only_that_document(killers):
    """A worker killed by SIGKILL (no Python clean-up: what the out-of-memory killer does)
    breaks the pool. The run goes on in a fresh pool: the documents that were running
    beside it are done again, the killer alone is lost, the results stay in order."""
    from batchkit import die_on_kill_me

    from specextract.batch.executors import PoolExecutor
    tasks = [DocumentTask(f"kill-me-{i}" if i in killers else f"doc-{i}") for i in range(40)]
    with PoolExecutor(2, chunksize=4, window=8) as pool:
        results = list(pool.map(die_on_kill_me, tasks, lost=_lost))
    assert [r["path"] for r in results] == [t.path for t in tasks]
    assert [i for i, r in enumerate(results) if "lost" in r] == list(killers)
    assert all("signal 9 (SIGKILL)" in results[i]["lost"] for i in killers), [results[i] for i in killers]
    assert all(r["pid"] > 0 for r in results if "lost" not in r)


def test_a_worker_killed_without_lost_raises_worker_died():
    from batchkit import die_on_kill_me

    from specextract.batch.executors import PoolExecutor, WorkerDied
    tasks = [DocumentTask("doc-0"), DocumentTask("kill-me"), DocumentTask("doc-2")]
    with pytest.raises(WorkerDied, match="kill-me: its worker process died"):
        with PoolExecutor(2, chunksize=1) as pool:
            list(pool.map(die_on_kill_me, tasks))


def test_a_lost_document_is_stored_as_failed_and_the_run_goes_on(corpus, tmp_path):
    """What run_batch does with a document its worker died on: failed as worker-died,
    named in the run's failures, retried on the next run."""
    from specextract.batch.run import WORKER_DIED, run_batch
    from specextract.batch.executors import LocalExecutor
    from specextract.ingest.inputs import iter_input_files
    from specextract.check.reference import load_reference
    from specextract.store.db import Store

    class LosesTheThird(LocalExecutor):   # the executor's side of it is tested above
        def map(self, fn, tasks, lost=None):
            for i, task in enumerate(tasks):
                yield lost(task, "test") if i == 2 else fn(task)

    db = tmp_path / "store.db"
    with Store.open(db) as store, LosesTheThird() as executor:
        run = run_batch(iter_input_files([str(corpus)]), store, load_reference(), executor)
    assert run.counts["failed"] == 1 and run.counts["processed"] == N_ARTICLES - 1
    (path, reason, error), = run.failures
    assert reason == WORKER_DIED and error.startswith(f"{path}: worker-died (test)")
    with Store.open(db) as store, LocalExecutor() as executor:
        again = run_batch(iter_input_files([str(corpus)]), store, load_reference(), executor)
    assert again.counts["processed"] == 1 and again.counts["unchanged"] == N_ARTICLES - 1


def test_a_dask_worker_killed_on_a_document_loses_only_that_document():
    """Dask retries a task whose worker died on other workers, up to allowed-failures
    times (0 here, to keep the test short), then gives up with KilledWorker; the
    partition is then run one document at a time and only the killer is lost."""
    import dask
    from batchkit import die_on_kill_me

    from specextract.batch.executors import DaskExecutor
    tasks = [DocumentTask("kill-me" if i == 5 else f"doc-{i}") for i in range(12)]
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with DaskExecutor("local", partition_size=4) as cluster:
            results = list(cluster.map(die_on_kill_me, tasks, lost=_lost))
    assert [r["path"] for r in results] == [t.path for t in tasks]
    assert [i for i, r in enumerate(results) if "lost" in r] == [5]


def _spawned_children(pid: int) -> list[int]:
    """The worker processes (multiprocessing spawn) of process ``pid``."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_worker_killed_mid_run_leaves_the_same_store(corpus, local_store, tmp_path):
    """kill -9 of a worker part-way through `run --workers 2` (as the out-of-memory killer
    would): the run ends normally, every document processed, the same store and CSV."""
    out = tmp_path / "out"
    db = out / "specextract.db"
    command = [sys.executable, "-m", "specextract", "run", str(corpus), "--out", str(out),
               "--no-progress", "--workers", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed, deadline = None, time.monotonic() + 60
    try:
        while killed is None and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
            workers = _spawned_children(proc.pid) if db.exists() else []
            if workers and store_count(db) >= 2:
                os.kill(workers[0], signal.SIGKILL)
                killed = store_count(db)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert killed is not None and killed < N_ARTICLES, "no worker was killed part-way"
    assert proc.returncode == 0, stderr
    assert f"{N_ARTICLES} processed" in stdout and "0 failed" in stdout
    assert dump_store(db) == dump_store(local_store)
    assert same_csv(out, local_store)


def test_a_side_job_whose_worker_dies_raises_worker_died():
    from batchkit import die_on_kill_me

    from specextract.batch.executors import PoolExecutor, WorkerDied
    with PoolExecutor(2) as pool:
        with pytest.raises(WorkerDied, match=r"signal 9 \(SIGKILL\)"):
            pool.side_job(die_on_kill_me, DocumentTask("kill-me")).get()
        assert pool.side_job(os.getpid).get() != os.getpid()   # the pool goes on
        results = list(pool.map(die_on_kill_me, [DocumentTask(f"doc-{i}") for i in range(9)]))
        assert len({r["pid"] for r in results}) == 2


def test_claims_csv_is_written_here_when_its_worker_dies(local_store, tmp_path):
    """The CSV export runs in a worker beside the report; if that worker is killed, the
    parent writes claims.csv itself."""
    from batchkit import die_on_kill_me

    from specextract.batch.executors import PoolExecutor
    from specextract.check.reference import load_reference
    from specextract.batch.job import write_outputs
    from specextract.store.db import Store

    class KillsTheExport(PoolExecutor):
        def side_job(self, fn, *args):
            return super().side_job(die_on_kill_me, DocumentTask("kill-me"))

    with Store.open(local_store, write=False) as store, KillsTheExport(2) as executor:
        n, _, worst = write_outputs(store, tmp_path, load_reference(), executor)
    assert n > 0
    assert (tmp_path / "claims.csv").read_bytes() == (local_store.parent / "claims.csv").read_bytes()
    with pytest.raises(WorkerDied):   # the worst figures' side job died too: run works them out
        worst.get()


def test_the_worst_figures_come_from_the_consensus_side_job(local_store, tmp_path):
    """With workers, the worst wrong figures are worked out beside consensus.html, in a
    worker, and are those the store gives here."""
    from specextract.batch.executors import PoolExecutor
    from specextract.check.reference import load_reference
    from specextract.batch.job import write_outputs
    from specextract.output.worst import worst_figures
    from specextract.store.db import Store

    with Store.open(local_store, write=False) as store, PoolExecutor(2) as executor:
        _, _, worst = write_outputs(store, tmp_path, load_reference(), executor)
        assert worst is not None
        figures, total = worst.get()
        assert total > 0 and figures
        assert (figures, total) == worst_figures(store)
        assert worst.get() == (figures, total)   # asked again: the same result
    assert (tmp_path / "report" / "consensus.html").read_bytes() == \
        (local_store.parent / "report" / "consensus.html").read_bytes()


def test_a_local_run_writes_the_claims_csv_an_export_writes(local_store, tmp_path):
    """In one process claims.csv comes from the run's open store: byte for byte what the
    export from a store opened afresh (export_claims, as a worker runs it) writes."""
    from specextract.batch.job import export_claims

    assert export_claims(str(local_store), str(tmp_path / "exported.csv")) > 0
    assert (tmp_path / "exported.csv").read_bytes() == \
        (local_store.parent / "claims.csv").read_bytes()


def test_large_jobs_and_large_results_do_not_deadlock():
    """Chunks and results far larger than a pipe's buffer (as re-check jobs carrying a
    document's stored claims): the parent's send of the next chunk and the worker's send
    of a result must not wait on each other."""
    import threading

    from batchkit import echo

    from specextract.batch.executors import PoolExecutor
    tasks = [DocumentTask(f"doc-{i}", data=f"{i}".encode() * 300_000) for i in range(24)]
    results: list = []
    with PoolExecutor(2, chunksize=4) as pool:
        mapper = threading.Thread(target=lambda: results.extend(pool.map(echo, tasks)),
                                  daemon=True)
        mapper.start()
        mapper.join(60)
        finished = not mapper.is_alive()
        if not finished:
            for worker in pool.pool:
                worker.process.kill()
    assert finished, "the pool deadlocked"
    assert [r["task"] for r in results] == tasks
