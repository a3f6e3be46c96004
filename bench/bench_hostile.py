"""Time per MB of pathological documents beside ordinary articles (not a timed test).

Each case is one file run through the batch runner's per-document function
(``batch.process_task``: read, hash, decode, extract in blocks), in a fresh process so
that its peak memory is its own. The ordinary rate is that of the articles in corpus/
(warm, best of ``--repeat`` passes). The contract (README, "Bad input"): each 5 MB line
of digits, units, model names or Chinese numerals costs at most 5x the ordinary time
per MB. Cases marked "extra" are reported beside it, for information; so are the
generated documents of distinct spec sentences (``spec-800k``, ``spec-7.9m``: thousands of
claims per chip and attribute, most disagreeing), timed with their check against the
bundled reference (self-contradictions included) and no time limit.

    python bench/bench_hostile.py [--mb 5] [--repeat 5] [--only NAME ...]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 5.0
# name -> (unit repeated to the size, file suffix, in the 5x contract?)
CASES = {
    "ones": ("1", ".txt", True),
    "a100": ("A100", ".txt", True),
    "tflops": ("19.5TFLOPS", ".txt", True),
    "zh-numerals": ("一二三四五六七八九十百千万亿两零", ".txt", True),
    "zh-ten": ("十", ".txt", True),
    "gb-units": ("8GB ", ".txt", False),
    "spaced-digits": ("1 2 3 4 ", ".txt", False),
    "pipe-row": ("A100 80GB HBM2e 2TB/s 400W | ", ".txt", False),
    "html-open-attr": ('<a b="', ".html", False),
    "html-nested": ("<div><b>A100 80GB</b>", ".html", False),
    "spec-800k": (None, ".txt", False),     # generated: hostile_inputs.spec_sentences
    "spec-7.9m": (None, ".txt", False),
}
GENERATED_BYTES = {"spec-800k": 800_000, "spec-7.9m": 7_900_000}


def run_case(name: str, mb: float) -> dict:
    """Write the case to a file and time process_task on it (in this process)."""
    from specextract.batch.run import process_task, reference_spec
    from specextract.batch.tasks import DocumentTask
    from specextract.check.reference import load_reference
    process_task(DocumentTask(str(_warm_file())))
    unit, suffix, _ = CASES[name]
    task = {}
    if unit is None:
        from hostile_inputs import spec_sentences
        text = spec_sentences(GENERATED_BYTES[name])
        task = {"reference": reference_spec(load_reference()), "timeout": 3600}
    else:
        text = unit * max(1, int(mb * 1e6) // len(unit.encode()))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}{suffix}"
        path.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        result = process_task(DocumentTask(str(path), **task))
        seconds = time.perf_counter() - start
    return {"name": name, "mb": len(text.encode()) / 1e6, "seconds": seconds,
            "status": result["status"], "reason": result.get("reason") or "",
            "claims": len(result.get("claims", [])), "maxrss_mb": _maxrss_mb()}


def run_ordinary(repeat: int) -> dict:
    """Best time per MB over the corpus articles (each read and processed as in a run)."""
    from specextract.batch.run import process_task
    from specextract.batch.tasks import DocumentTask
    paths = sorted(p for p in (ROOT / "corpus").iterdir() if p.is_file())
    process_task(DocumentTask(str(_warm_file())))
    size = sum(p.stat().st_size for p in paths) / 1e6
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for p in paths:
            process_task(DocumentTask(str(p)))
        best = min(best, time.perf_counter() - start)
    return {"name": "ordinary (corpus/)", "mb": size, "seconds": best, "status": "ok",
            "reason": "", "claims": 0, "maxrss_mb": _maxrss_mb(), "files": len(paths)}


def _warm_file() -> Path:
    path = Path(tempfile.gettempdir()) / "specextract-bench-warm.txt"
    path.write_text("NVIDIA A100 的单精度算力为 19.5 TFLOPS，显存 80GB。\n", encoding="utf-8")
    return path


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def in_subprocess(args: list[str]) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=sorted(CASES))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        result = run_ordinary(args.repeat) if args.one == "ordinary" else run_case(args.one, args.mb)
        print(json.dumps(result))
        return 0
    base = in_subprocess(["--one", "ordinary", "--repeat", str(args.repeat)])
    per_mb = base["seconds"] / base["mb"]
    print(f"{'case':22} {'MB':>6} {'s':>7} {'s/MB':>7} {'x ordinary':>10} {'peak MB':>8}  result")
    print(f"{base['name']:22} {base['mb']:6.3f} {base['seconds']:7.3f} {per_mb:7.2f} "
          f"{1:10.1f} {base['maxrss_mb']:8.0f}  {base['files']} files")
    failed = []
    for name in args.only or CASES:
        r = in_subprocess(["--one", name, "--mb", str(args.mb)])
        ratio = r["seconds"] / r["mb"] / per_mb
        contract = CASES[name][2]
        verdict = ("within 5x" if ratio <= LIMIT else "OVER 5x") if contract else "extra"
        if contract and ratio > LIMIT:
            failed.append(name)
        outcome = r["status"] + (f" ({r['reason']})" if r["reason"] else "")
        print(f"{name:22} {r['mb']:6.2f} {r['seconds']:7.2f} {r['seconds'] / r['mb']:7.2f} "
              f"{ratio:10.1f} {r['maxrss_mb']:8.0f}  {verdict}; {outcome}, {r['claims']} claims")
    print(f"contract: {len([n for n in args.only or CASES if CASES[n][2]]) - len(failed)} "
          f"within {LIMIT:g}x" + (f"; over: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
