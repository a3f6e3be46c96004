"""Per-stage timing and profiles of the pipeline in one process (used by bench/bench.py).

    python bench/stages.py time    FOLDER OUT.json [N]    # wall time per stage and per article
    python bench/stages.py profile FOLDER PROFILE_DIR     # one cProfile per stage
    python bench/stages.py report  DB PROFILE_DIR         # cProfile of write_report alone

Runs each article of FOLDER (sorted by name) the way ``batch.process_task`` and the parent
do, without the store: read the bytes and decode (ingest), normalize, extract, turn the
claims into rows, check them. ``time`` also converts the same decoded text with OpenCC's
``t2s`` alone, so the normalizer and OpenCC are timed on the same text in the same run.
``time`` with N repeats the whole loop N times and keeps each stage's fastest total (the
reference table's memoized selections stay warm from one pass to the next, as they do from
one document to the next in a run); it also counts the verdicts of the claims. ``profile`` enables one profiler per stage around that stage's call only and writes
``PROFILE_DIR/<stage>.prof``. Each mode runs in a fresh process so neither warms the
other's caches. ``report`` profiles ``report.write_report`` over an existing store (the one
a benchmark run left), into a scratch folder.
"""
from __future__ import annotations

import cProfile
import json
import sys
import time
from collections import Counter
from pathlib import Path

import opencc

from specextract.batch.run import checked_rows
from specextract.extract.claims import extract_normalized
from specextract.ingest.read import document_from_bytes, read_bytes
from specextract.normalize.text import normalize
from specextract.check.reference import load_reference

STAGES = ("ingest", "normalize", "extract", "rows", "check")


def articles(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def warm(ref) -> None:
    """Load lexicons, tables and compiled patterns before anything is timed."""
    doc = document_from_bytes(Path("warm.txt"), "A100的FP32为19.5 TFLOPS，显存80GB。".encode())
    norm = normalize(doc.text)
    checked_rows([c.as_row() for c in extract_normalized(doc.text, norm, "warm")], ref)


def run_time(folder: Path, out: Path, repeat: int = 1) -> None:
    ref = load_reference()
    warm(ref)
    t2s = opencc.OpenCC("t2s")
    t2s.convert("預熱")
    best: dict[str, float] = {}
    for _ in range(max(1, repeat)):
        totals, per_article, nbytes, nclaims, verdicts = time_once(folder, ref, t2s)
        best = {k: min(v, best.get(k, v)) for k, v in totals.items()}
    out.write_text(json.dumps({"articles": len(per_article), "bytes": nbytes, "claims": nclaims,
                               "repeats": max(1, repeat), "seconds": best,
                               "verdicts": dict(sorted(verdicts.items())),
                               "per_article": per_article}) + "\n")


def time_once(folder: Path, ref, t2s) -> tuple[dict, list, int, int, Counter]:
    """One pass over ``folder``: seconds per stage, per article, bytes, claims and the
    claims' verdicts (counted after the clock: the mix decides how much checking does)."""
    per_article = []
    totals = dict.fromkeys(STAGES + ("opencc_t2s",), 0.0)
    nbytes = nclaims = 0
    verdicts: Counter = Counter()
    clock = time.perf_counter
    for p in articles(folder):
        t0 = clock()
        data = read_bytes(p)
        doc = document_from_bytes(p, data)
        t1 = clock()
        norm = normalize(doc.text)
        t2 = clock()
        claims = extract_normalized(doc.text, norm, doc.doc_id)
        t3 = clock()
        rows = [c.as_row() for c in claims]
        t4 = clock()
        checked = checked_rows(rows, ref)
        t5 = clock()
        t2s.convert(doc.text)
        t6 = clock()
        verdicts.update(r["verdict"] for r in checked)
        times = {"ingest": t1 - t0, "normalize": t2 - t1, "extract": t3 - t2, "rows": t4 - t3,
                 "check": t5 - t4, "opencc_t2s": t6 - t5}
        for k, v in times.items():
            totals[k] += v
        nbytes += len(data)
        nclaims += len(claims)
        per_article.append({"name": p.name, "bytes": len(data), "claims": len(claims),
                            **{k: round(v, 6) for k, v in times.items()}})
    return totals, per_article, nbytes, nclaims, verdicts


def run_profile(folder: Path, prof_dir: Path) -> None:
    ref = load_reference()
    warm(ref)
    profs = {s: cProfile.Profile() for s in STAGES}
    for p in articles(folder):
        pr = profs["ingest"]
        pr.enable()
        doc = document_from_bytes(p, read_bytes(p))
        pr.disable()
        pr = profs["normalize"]
        pr.enable()
        norm = normalize(doc.text)
        pr.disable()
        pr = profs["extract"]
        pr.enable()
        claims = extract_normalized(doc.text, norm, doc.doc_id)
        pr.disable()
        pr = profs["rows"]
        pr.enable()
        rows = [c.as_row() for c in claims]
        pr.disable()
        pr = profs["check"]
        pr.enable()
        checked_rows(rows, ref)
        pr.disable()
    prof_dir.mkdir(parents=True, exist_ok=True)
    for stage, pr in profs.items():
        pr.dump_stats(str(prof_dir / f"{stage}.prof"))


def run_report(db: Path, prof_dir: Path) -> None:
    import tempfile

    from specextract.output.report import write_report
    from specextract.store.db import Store
    ref = load_reference()
    with tempfile.TemporaryDirectory(dir=prof_dir) as tmp, Store.open(db, write=False) as store:
        pr = cProfile.Profile()
        pr.enable()
        write_report(store, Path(tmp) / "report", ref)
        pr.disable()
    pr.dump_stats(str(prof_dir / "report.prof"))


def main(argv: list[str]) -> int:
    mode, folder, out = argv[0], Path(argv[1]), Path(argv[2])
    if mode == "time":
        run_time(folder, out, int(argv[3]) if len(argv) > 3 else 1)
    elif mode == "profile":
        run_profile(folder, out)
    elif mode == "report":
        run_report(folder, out)
    else:
        raise SystemExit(f"unknown mode {mode}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
