"""``specextract run ...`` exactly as the console script runs it, plus phase marks.

    BENCH_PHASES_FILE=phases.json BENCH_T0=<time.time() at launch> \
        python bench/run_phases.py run CORPUS --out DIR --no-progress [...]

Wraps ``run_batch``, ``write_csv`` and ``write_report`` as ``batch/job.py`` names them (looked
up at call time by run_job) to record when each starts and ends and the process's RSS and
peak RSS there; everything else is the console script's click group. The cost is a few calls per
run. If the names are gone (the module was reorganised), it runs without marks.
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time

T0 = float(os.environ.get("BENCH_T0", time.time()))
PAGE = os.sysconf("SC_PAGE_SIZE")
marks: list[dict] = []


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * PAGE / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def mark(event: str) -> None:
    marks.append({"event": event, "t": round(time.time() - T0, 4), "rss_mb": round(rss_mb(), 1),
                  "peak_mb": round(peak_mb(), 1)})


def wrap(module, name: str) -> None:
    fn = getattr(module, name, None)
    if fn is None:
        return

    def wrapped(*args, **kwargs):
        mark(f"{name}:start")
        try:
            return fn(*args, **kwargs)
        finally:
            mark(f"{name}:end")
    setattr(module, name, wrapped)


def main() -> None:
    mark("python:start")
    from specextract.batch import job
    from specextract.cli import cli
    mark("imported")
    for name in ("run_batch", "write_csv", "write_report"):
        wrap(job, name)
    try:
        cli.main(args=sys.argv[1:], prog_name="specextract")
    finally:
        mark("exit")
        out = os.environ.get("BENCH_PHASES_FILE")
        if out:
            with open(out, "w") as fh:
                json.dump(marks, fh)


if __name__ == "__main__":
    main()
