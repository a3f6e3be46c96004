"""Where :func:`batch.process_task` runs: here, in a local process pool, or on Dask.

Each executor's ``map(fn, tasks)`` consumes the task stream lazily, keeps a bounded
number of documents in flight, and yields results in input order, so the parent writes
the store in the same order whatever runs the documents.

    LocalExecutor()                   # this process
    PoolExecutor(4)                   # 4 local processes fed chunks of paths
    DaskExecutor("local")             # a LocalCluster: 2 worker processes on loopback
    DaskExecutor("tcp://host:8786")   # an existing scheduler
"""
from __future__ import annotations

import logging
import multiprocessing
import queue
import signal
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from multiprocessing.connection import wait as _wait
from typing import TypeVar

from ..errors import SpecExtractError, WorkerDied


Task = TypeVar("Task")   # what ``fn`` takes: a batch.tasks.DocumentTask in a run


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

    def map(self, fn: Callable[[Task], dict], tasks: Iterable[Task],
            lost: Callable[[Task, str], dict] | None = None) -> Iterator[dict]:
        return map(fn, tasks)   # a crash here ends this process: nothing to hand to lost

    def side_job(self, fn: Callable, *args) -> "Done":
        """Run ``fn(*args)`` now (no other process to run it beside this one)."""
        return Done(fn(*args))


class Done:
    """A side job's result that is already there (``.get()`` as on a pool's result)."""

    def __init__(self, value) -> None:
        self.value = value

    def get(self):
        return self.value


NO_WORKERS = "no-workers"   # the reason of documents left when a cluster has no worker


class NoWorkers(SpecExtractError):
    """A Dask cluster has had no worker for longer than the executor waits."""


DIED_WHY = ("its worker process died while running it (killed, as by the out-of-memory "
            "killer, or crashed)")
_MISSING = object()   # a result not yet back


def _init_worker() -> None:
    """Pool worker start: leave Ctrl-C to the parent; load the pipeline once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from ..extract.document import process_document
    from ..records import Document
    process_document(Document("warm-up", "warm-up.txt", "utf-8", "txt", "A100 19.5 TFLOPS"))


def _worker_main(conn) -> None:
    """A pool process: calls ``(fn, args)`` from its own pipe, in order, and sends back
    ``(True, result)`` or ``(False, error)``, until it reads None or the pipe closes.

    A thread reads the jobs as they come, so that the parent's send of a large job never
    waits for this process to finish sending a large result (each would wait for the
    other: a deadlock, with re-check jobs that carry a document's stored claims)."""
    _init_worker()
    jobs: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_read_jobs, args=(conn, jobs), daemon=True).start()
    while (job := jobs.get()) is not None:
        fn, args = job
        try:
            reply = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - the parent re-raises it
            reply = (False, exc)
        try:
            conn.send(reply)
        except Exception as exc:  # noqa: BLE001 - pickling fails before anything is sent
            conn.send((False, SpecExtractError(f"a worker could not send its result: {exc!r}")))


def _read_jobs(conn, jobs: queue.SimpleQueue) -> None:
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            job = None
        jobs.put(job)
        if job is None:
            return


def _run_chunk(fn: Callable[[Task], dict], chunk: list[Task]) -> list[dict]:
    """A worker's job (a pool chunk, a Dask partition): ``fn`` over each document."""
    return [fn(task) for task in chunk]


class _Worker:
    """One pool process with a pipe of its own, so that a worker killed half-way through
    sending breaks nothing but its pipe, and the parent knows which jobs it held."""

    def __init__(self, context) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.jobs: deque = deque()   # sent and not answered, oldest first

    def send(self, job, fn: Callable, args: tuple) -> bool:
        """Hand over a job; False if the worker is gone."""
        self.jobs.append(job)
        try:
            self.conn.send((fn, args))
        except OSError:
            return False
        return True

    def receive(self):
        """The oldest job and its reply; EOFError if the worker died before replying."""
        ok, value = self.conn.recv()
        job = self.jobs.popleft()
        if not ok:
            raise value
        return job, value


class PoolExecutor:
    """N local processes, each fed chunks of documents through its own pipe (two jobs
    queued per worker, at most two windows of documents in flight); results in input
    order.

    A worker that dies (the out-of-memory killer, a crash in an extension) takes only its
    document down: it is replaced, the chunk it was running is run again one document at
    a time and the chunk queued behind it as it was; a document that kills its worker
    when it runs alone is handed to ``lost(task, why)`` (or, without ``lost``, raises
    :class:`WorkerDied`)."""

    send_bytes = False
    QUEUED = 2   # jobs per worker: the next is there when one ends

    def __init__(self, workers: int, chunksize: int = 4, window: int | None = None) -> None:
        self.workers, self.chunksize = workers, chunksize
        self.window = window or workers * chunksize * 8
        self.name = f"workers={workers}"
        self.context = multiprocessing.get_context("spawn")
        self.pool: list[_Worker] = []

    def __enter__(self) -> "PoolExecutor":
        self.pool = [_Worker(self.context) for _ in range(self.workers)]
        return self

    def __exit__(self, exc_type, *exc: object) -> None:
        for worker in self.pool:
            if exc_type is None and not worker.jobs:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
            else:
                worker.process.terminate()
        for worker in self.pool:
            worker.process.join()
            worker.conn.close()

    def map(self, fn: Callable[[Task], dict], tasks: Iterable[Task],
            lost: Callable[[Task, str], dict] | None = None) -> Iterator[dict]:
        run = _MapRun(self, fn, tasks, lost)
        while True:
            run.feed()
            results = run.take_oldest()
            if results is None:
                if run.finished():
                    return
                run.collect(timeout=None)
                continue
            for result in results:
                yield result
                run.collect(timeout=0)   # between documents, keep the workers fed
                run.feed()

    def replace(self, worker: _Worker) -> int | None:
        """A dead worker's place taken by a new one; its exit code."""
        worker.process.join()
        worker.conn.close()
        self.pool[self.pool.index(worker)] = _Worker(self.context)
        return worker.process.exitcode

    def side_job(self, fn: Callable, *args):
        """Start ``fn(*args)`` in an idle worker (e.g. the CSV export while this process
        draws the report); ``.get()`` waits for its result and re-raises its error."""
        idle = next((worker for worker in self.pool if not worker.jobs), None)
        if idle is not None and idle.send("side job", fn, args):
            return _SideJob(self, idle)
        if idle is not None:   # it had died since its last job
            self.replace(idle)
        return Done(fn(*args))


class _SideJob:
    def __init__(self, pool: PoolExecutor, worker: _Worker) -> None:
        self.pool, self.worker = pool, worker

    def get(self):
        try:
            return self.worker.receive()[1]
        except (EOFError, OSError):
            code = self.pool.replace(self.worker)
        raise WorkerDied("a side job's worker process died" + _signals([code]))


class _MapRun:
    """The state of one PoolExecutor.map: chunks out, results back in order."""

    def __init__(self, pool: PoolExecutor, fn, tasks: Iterable, lost) -> None:
        self.pool, self.fn, self.lost = pool, fn, lost
        self.chunks = enumerate(batched(tasks, pool.chunksize))
        self.ahead = 2 * max(1, pool.window // pool.chunksize)   # chunks past the oldest
        self.slots: dict[int, list] = {}   # chunk number -> its results, _MISSING until back
        self.retry: deque = deque()        # jobs to send before new chunks
        self.oldest = self.next_number = 0
        self.more = True

    def _next_job(self):
        if self.retry:
            return self.retry.popleft()
        if not self.more or self.next_number >= self.oldest + self.ahead:
            return None
        item = next(self.chunks, None)
        if item is None:
            self.more = False
            return None
        number, chunk = item
        self.next_number = number + 1
        self.slots[number] = [_MISSING] * len(chunk)
        return (number, 0, chunk, False)   # chunk number, offset in it, tasks, alone

    def feed(self) -> None:
        for worker in list(self.pool.pool):
            while len(worker.jobs) < self.pool.QUEUED:
                job = self._next_job()
                if job is None:
                    return
                if not worker.send(job, _run_chunk, (self.fn, job[2])):
                    self._died(worker)
                    break

    def take_oldest(self) -> list | None:
        results = self.slots.get(self.oldest)
        if results is None or _MISSING in results:
            return None
        del self.slots[self.oldest]
        self.oldest += 1
        return results

    def finished(self) -> bool:
        return not self.more and not self.slots

    def collect(self, timeout: float | None) -> None:
        """Read the replies that are there (or wait for one); handle dead workers."""
        busy = [worker for worker in self.pool.pool if worker.jobs]
        if not busy:
            if timeout is None:   # nothing to wait for, yet results are missing
                raise RuntimeError("PoolExecutor: results missing and no worker busy")
            return
        waits = {worker.conn: worker for worker in busy}
        waits.update((worker.process.sentinel, worker) for worker in busy)
        for ready in _wait(list(waits), timeout):
            worker = waits[ready]
            if worker not in self.pool.pool or not worker.jobs:
                continue
            try:
                if ready is worker.process.sentinel and not worker.conn.poll():
                    raise EOFError
                (number, offset, tasks, _), results = worker.receive()
            except (EOFError, OSError):
                self._died(worker)
                continue
            self.slots[number][offset:offset + len(tasks)] = results

    def _died(self, worker: _Worker) -> None:
        """The first job a dead worker held was running: its documents go again one by
        one (or, run alone already, to ``lost``); the ones behind it go again as they were."""
        jobs = list(worker.jobs)
        code = self.pool.replace(worker)
        (number, offset, tasks, alone), behind = jobs[0], jobs[1:]
        if alone:
            why = DIED_WHY + _signals([code])
            if self.lost is None:
                raise WorkerDied(f"{getattr(tasks[0], 'path', tasks[0])}: {why}") from None
            self.slots[number][offset] = self.lost(tasks[0], why)
            again = []
        else:
            again = [(number, offset + i, [task], True) for i, task in enumerate(tasks)]
        self.retry.extendleft(reversed(again + behind))


def _signals(codes: list) -> str:
    """'; signal 9 (SIGKILL)' for the workers that a signal ended."""
    names = []
    for code in codes:
        if code is not None and code < 0:
            try:
                names.append(f"signal {-code} ({signal.Signals(-code).name})")
            except ValueError:
                names.append(f"signal {-code}")
    return f"; {', '.join(sorted(set(names)))}" if names else ""


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
        from distributed.scheduler import KilledWorker
        try:
            return self.future.result()
        except KilledWorker as exc:
            raise WorkerDied(f"a side job's worker process died ({exc})") from None


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

    POLL = 1.0   # seconds between looks at the scheduler while a partition is out

    def __init__(self, address: str, *, send_bytes: bool = False, partition_size: int = 32,
                 in_flight: int | None = None, no_workers_timeout: float = 60.0) -> None:
        self.address, self.send_bytes = address, send_bytes
        self.partition_size, self.in_flight = partition_size, in_flight
        self.no_workers_timeout = no_workers_timeout
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

    def map(self, fn: Callable[[Task], dict], tasks: Iterable[Task],
            lost: Callable[[Task, str], dict] | None = None) -> Iterator[dict]:
        """Partitions in order. A partition whose workers keep dying (Dask tries it on
        ``distributed.scheduler.allowed-failures`` + 1 workers, then gives up with
        KilledWorker) is run again one document at a time; the document that still kills
        its worker is handed to ``lost(task, why)``.
        When the cluster has had no worker for ``no_workers_timeout`` seconds, every
        document not yet done is handed to ``lost(task, why, NO_WORKERS)`` (or, without
        ``lost``, NoWorkers is raised)."""
        workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        limit = self.in_flight or 2 * workers
        pending: deque = deque()
        tasks = iter(tasks)
        try:
            for part in batched(tasks, self.partition_size):
                pending.append((part, self._submit(fn, part)))
                while len(pending) >= limit:
                    results = self._gathered(*pending[0], fn, lost)
                    pending.popleft()
                    yield from results
            while pending:
                results = self._gathered(*pending[0], fn, lost)
                pending.popleft()
                yield from results
        except NoWorkers as exc:
            if lost is None:
                raise
            why = str(exc)
            for part, future in pending:
                future.cancel()
                yield from (lost(task, why, NO_WORKERS) for task in part)
            yield from (lost(task, why, NO_WORKERS) for task in tasks)

    def _submit(self, fn, part: list):
        return self.client.submit(_run_chunk, fn, part, pure=False)

    def _result(self, future):
        """The future's result; NoWorkers once the cluster has had no worker for
        ``no_workers_timeout`` seconds while waiting for it."""
        from distributed import TimeoutError as DaskTimeout
        alone_since = None
        while True:
            try:
                return future.result(timeout=self.POLL)
            except (DaskTimeout, TimeoutError):
                pass
            if self._worker_count():
                alone_since = None
                continue
            now = time.monotonic()
            alone_since = alone_since or now
            if now - alone_since >= self.no_workers_timeout:
                raise NoWorkers(f"no Dask worker for {self.no_workers_timeout:g} s at "
                                f"{self.address}")

    def _worker_count(self) -> int:
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001 - a scheduler that does not answer has no workers
            return 0

    def _gathered(self, part: list, future, fn, lost) -> list[dict]:
        from distributed.scheduler import KilledWorker
        try:
            return self._result(future)
        except KilledWorker:
            if lost is None:
                raise
        results = []
        for task in part:
            try:
                results.extend(self._result(self._submit(fn, [task])))
            except KilledWorker:
                results.append(lost(task, DIED_WHY))
        return results
