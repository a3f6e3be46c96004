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
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()
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
    """claims.csv (written by a worker beside the report) is the local run's, byte for byte."""
    mine = (out / "claims.csv").read_bytes()
    return len(mine.splitlines()) > 1 and mine == (local_store.parent / "claims.csv").read_bytes()


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

    from specextract.executors import LocalExecutor, PoolExecutor
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

    from specextract.executors import QUIET_LOCAL_CLUSTER, DaskExecutor
    wanted = tuple(QUIET_LOCAL_CLUSTER[key] for key in _QUIET_KEYS)
    assert wanted == (False, "1s", "1s")
    with DaskExecutor("local") as dask_executor:
        seen = dask_executor.client.run(_worker_settings)
        assert len(seen) == 2 and set(seen.values()) == {wanted}
        assert "stealing" not in dask_executor.cluster.scheduler.extensions
        assert dask_executor.side_job(os.getpid).get() != os.getpid()
    assert dask.config.get("distributed.admin.tick.interval") != "1s"
