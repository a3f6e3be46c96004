"""How fast could `specextract run` be if extraction (and checking) cost nothing?

    python bench/ceiling.py CORPUS [RUNS]     # e.g. bench/scaled/n1000_s20240601 3

Runs ``specextract run CORPUS`` in this process, 1 process, into scratch folders:

1. once as is, keeping every document's claims and checked rows;
2. RUNS times with extraction replaced by a lookup of the claims kept in step 1;
3. RUNS times with extraction and checking both replaced by lookups;
4. RUNS times as is.

Everything else (reading, decoding, normalizing, the store, the staged pages, claims.csv
and the report) runs as it does for a user. The lookups return the very objects of step 1,
so every run writes the same claims.csv; the script checks that it does. It prints the best
wall time of each kind and its MB/s (input bytes / 1e6): the last two lines are the ceiling
that faster extraction and checking can reach while the rest of the run stays as it is.
Not a test; figures depend on the machine's load.
"""
from __future__ import annotations

import contextlib
import filecmp
import io
import importlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

from specextract.cli import cli

DOCUMENT = importlib.import_module("specextract.extract.document")  # (the package's
RUN = importlib.import_module("specextract.batch.run")               # name `extract` is a function)


class Replay:
    """Stand-ins for extract_normalized and checked_rows: record, then replay."""

    def __init__(self) -> None:
        self.extract, self.check = DOCUMENT.extract_normalized, RUN.checked_rows
        self.claims: dict[tuple[str, str], list] = {}
        self.rows: dict[tuple[int, ...], list] = {}

    def record_extract(self, text, norm, doc_id=""):
        out = self.claims[(text, doc_id)] = self.extract(text, norm, doc_id)
        return out

    def replay_extract(self, text, norm, doc_id=""):
        return self.claims[(text, doc_id)]

    def record_check(self, claims, ref):
        out = self.rows[tuple(map(id, claims))] = self.check(claims, ref)
        return out

    def replay_check(self, claims, ref):
        return self.rows[tuple(map(id, claims))]

    def use(self, extract, check) -> None:
        DOCUMENT.extract_normalized, RUN.checked_rows = extract, check


def run_once(corpus: Path, out: Path) -> float:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # (the run's summary)
            cli(["run", str(corpus), "--out", str(out), "--no-progress"], standalone_mode=False)
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
    return time.perf_counter() - start


def main(corpus: Path, runs: int) -> None:
    mb = sum(p.stat().st_size for p in corpus.rglob("*") if p.is_file()) / 1e6
    r = Replay()
    with tempfile.TemporaryDirectory() as scratch:
        first = Path(scratch, "first")
        r.use(r.record_extract, r.record_check)
        run_once(corpus, first)
        kinds = [("as is", r.extract, r.check),
                 ("extraction free", r.replay_extract, r.check),
                 ("extraction and check free", r.replay_extract, r.replay_check)]
        best = {}
        for name, extract, check in kinds[1:] + kinds[:1]:
            r.use(extract, check)
            times = []
            for i in range(runs):
                out = Path(scratch, f"run{i}")
                times.append(run_once(corpus, out))
                if not filecmp.cmp(first / "claims.csv", out / "claims.csv", shallow=False):
                    raise SystemExit(f"{name}: claims.csv differs from the first run's")
            best[name] = min(times)
        r.use(r.extract, r.check)
    print(f"{corpus}: {mb:.2f} MB, best of {runs} runs, 1 process")
    for name, _, _ in kinds:
        print(f"  {name:27} {best[name]:7.2f} s {mb / best[name]:7.3f} MB/s")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3)
