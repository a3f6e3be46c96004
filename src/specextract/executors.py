"""Where :func:`batch.process_task` runs: here, in a local process pool, or on Dask.

Each executor's ``map(fn, tasks)`` consumes the task stream lazily, keeps a bounded
number of documents in flight, and yields results in input order, so the parent writes
the store in the same order whatever runs the documents.

    LocalExecutor()                   # this process
    PoolExecutor(4)                   # 4 local processes, chunked imap over windows of paths
    DaskExecutor("local")             # a LocalCluster: 2 worker processes on loopback
    DaskExecutor("tcp://host:8786")   # an existing scheduler
"""
from __future__ import annotations

import logging
import multiprocessing
import signal
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import islice

from .errors import SpecExtractError


def batched(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


class LocalExecutor:
    name, send_bytes = "local", False

    def __enter__(self) -> "LocalExecutor":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, fn: Callable[[dict], dict], tasks: Iterable[dict]) -> Iterator[dict]:
        return map(fn, tasks)

    def side_job(self, fn: Callable, *args) -> "Done":
        """Run ``fn(*args)`` now (no other process to run it beside this one)."""
        return Done(fn(*args))


class Done:
    """A side job's result that is already there (``.get()`` as on a pool's result)."""

    def __init__(self, value) -> None:
        self.value = value

    def get(self):
        return self.value


def _init_worker() -> None:
    """Pool worker start: leave Ctrl-C to the parent; load the pipeline once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .pipeline import process_document
    from .records import Document
    process_document(Document("warm-up", "warm-up.txt", "utf-8", "txt", "A100 19.5 TFLOPS"))


class PoolExecutor:
    """N local processes; paths go out in windows, each an ordered, chunked imap. The
    next window is handed out before the current one is drained, so the workers never
    wait for the parent to prepare tasks (at most two windows are in flight)."""

    send_bytes = False

    def __init__(self, workers: int, chunksize: int = 4, window: int | None = None) -> None:
        self.workers, self.chunksize = workers, chunksize
        self.window = window or workers * chunksize * 8
        self.name = f"workers={workers}"
        self.pool = None

    def __enter__(self) -> "PoolExecutor":
        ctx = multiprocessing.get_context("spawn")
        self.pool = ctx.Pool(self.workers, initializer=_init_worker)
        return self

    def __exit__(self, exc_type, *exc: object) -> None:
        if exc_type is None:
            self.pool.close()
        else:
            self.pool.terminate()
        self.pool.join()

    def map(self, fn: Callable[[dict], dict], tasks: Iterable[dict]) -> Iterator[dict]:
        pending: deque = deque()
        for window in batched(tasks, self.window):
            pending.append(self.pool.imap(fn, window, self.chunksize))
            if len(pending) > 1:
                yield from pending.popleft()
        while pending:
            yield from pending.popleft()

    def side_job(self, fn: Callable, *args):
        """Start ``fn(*args)`` in a worker (e.g. the CSV export while this process draws
        the report); ``.get()`` waits for its result and re-raises its error."""
        return self.pool.apply_async(fn, args)


@contextmanager
def _ctrl_c_ignored():
    """SIGINT ignored while the cluster starts (and the scheduler's fallback to another
    port when 8787 is taken, another cluster's, is not worth a warning)."""
    warnings.filterwarnings("ignore", message="Port .* is already in use")
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _FutureResult:
    """A Dask future read like a pool's result: ``.get()``."""

    def __init__(self, future) -> None:
        self.future = future

    def get(self):
        return self.future.result()


# A local cluster's settings. The workers inherit them; the scheduler, the nannies and the
# client here read them at start. No statistical profiler (a thread sampling every 10 ms,
# for a dashboard this cluster lacks: about a fifth of the workers' CPU); the event-loop
# "tick" check, system monitor and memory monitor polled every second or two instead of
# 20-500 ms; no work stealing among two equal workers fed from one queue. Idle, this cuts
# the cluster's own CPU use about fivefold (about 13 instead of 70 ms per second in this
# process, 5 instead of 27 in each worker), time the documents get instead.
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.disk": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
}


class DaskExecutor:
    """Partitions of documents as Dask tasks; the client gathers them in order. Partitions
    of 32 keep the scheduler's per-task work small beside the documents' (with 2 workers,
    128 documents in flight, as PoolExecutor's two windows)."""

    def __init__(self, address: str, *, send_bytes: bool = False, partition_size: int = 32,
                 in_flight: int | None = None) -> None:
        self.address, self.send_bytes = address, send_bytes
        self.partition_size, self.in_flight = partition_size, in_flight
        self.name = f"dask={address}"
        self.cluster = self.client = None

    def __enter__(self) -> "DaskExecutor":
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - a declared dependency
            raise SpecExtractError(f"--dask needs dask[distributed]: {exc}") from None
        if self.address == "local":
            import dask
            # the workers inherit both: Ctrl-C is the client's to handle, and the quiet settings
            with _ctrl_c_ignored(), dask.config.set(QUIET_LOCAL_CLUSTER):
                self.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=None,
                                            silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(self.address, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise SpecExtractError(f"cannot reach the Dask scheduler {self.address}: "
                                       f"{exc}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def side_job(self, fn: Callable, *args):
        """Start ``fn(*args)`` on a worker of the local cluster (it sees this machine's
        files); with a remote scheduler, run it here. ``.get()`` waits for the result."""
        if self.cluster is None:
            return Done(fn(*args))
        return _FutureResult(self.client.submit(fn, *args, pure=False))

    def map(self, fn: Callable[[dict], dict], tasks: Iterable[dict]) -> Iterator[dict]:
        from .batch import process_partition
        workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        limit = self.in_flight or 2 * workers
        pending: deque = deque()
        submit = partial(self.client.submit, process_partition, fn, pure=False)
        for part in batched(tasks, self.partition_size):
            pending.append(submit(part))
            while len(pending) >= limit:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
