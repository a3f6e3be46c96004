"""``make bench-check``: this checkout's throughput against the figures bench/results.json
records, within a tolerance (10%). Not a test: the figures depend on the machine's load.

    .venv/bin/python bench/bench_check.py                  # every recorded corpus (1k, 10k)
    BENCH_QUICK=1 .venv/bin/python bench/bench_check.py    # the small one only: a few minutes

For each corpus it rebuilds the recorded scaled corpus from the recorded commit's generator
and sources (same seed; its sha256 must be the recorded one, else the comparison means
nothing and the check stops with status 2), times
``specextract run`` with each executor as ``make bench`` does (round-robin, BENCH_RUNS
rounds on the small corpus, one on the large), and times each stage in one process on the
small corpus (bench/stages.py). It prints, per executor and per stage, this run's
throughput over the recorded one (1.00: the same; 0.90: 10% slower), and exits 1 when the
end-to-end throughput of one process (the least disturbed by other load) is more than
BENCH_TOLERANCE (0.10) below the recorded one on any checked corpus.

The recorded figures were measured on another day, under another load: on a shared machine
seconds move by half and more. So the check also runs the recorded commit's own code
(``git archive`` of its ``src/`` and ``bench/stages.py``) in the same rounds, one process
end to end and the stages, and prints this checkout over that code measured now: the
recorded commit timed under today's load. When it is measured (BENCH_BASELINE=1, the
default), the exit status follows that same-run ratio; with BENCH_BASELINE=0 it follows
the recorded figures alone.

Each run is appended to bench/check_runs.jsonl, and bench/CHECK.md shows every run (for
the noise between runs) and the latest one in full. CPU-time ratios (user + system time
of the run) are printed beside the wall-time ones: they move less with other load.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import bench  # noqa: E402 - timed runs, corpora and stage rates as `make bench` makes them

RECORDED = BENCH / "results.json"
HISTORY = BENCH / "check_runs.jsonl"
REPORT = BENCH / "CHECK.md"
QUICK = bench.QUICK
TOLERANCE = float(os.environ.get("BENCH_TOLERANCE", "0.10"))
GATED = "1 process"   # the executor whose end-to-end throughput decides the exit status
BASELINE = os.environ.get("BENCH_BASELINE", "1") not in ("", "0")


def corpus(label: str, rec: dict) -> tuple[Path, dict]:
    """The recorded corpus ``label``, built from the recorded commit's generator inputs
    (bench/scale_corpus.py, corpus/, chips.tsv, which have changed since); SystemExit(2)
    when that commit is not in the repository or the corpus is not the recorded one."""
    want, git = rec["corpora"][label], rec["machine"]["git_commit"]
    root = bench.SCALED / f"recorded-{git}"
    folder = root / f"n{want['articles']}_s{rec['seed']}"
    if not _same(folder, want):
        tree = root / "inputs"
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(bench.ROOT), "archive", git, "corpus",
                                  "bench/scale_corpus.py", "src/specextract/data/chips.tsv"],
                                 capture_output=True)
        if archive.returncode != 0:
            raise SystemExit(f"bench-check: cannot read the recorded commit {git}: "
                             f"{archive.stderr.decode(errors='replace').strip()}")
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        subprocess.run([sys.executable, str(tree / "bench" / "scale_corpus.py"), "--articles",
                        str(want["articles"]), "--seed", str(rec["seed"]), "--out", str(root)],
                       check=True, cwd=tree)
    if not _same(folder, want):
        raise SystemExit(f"bench-check: the {label} corpus built from {git} is not the "
                         "recorded one (sha256 differs); run `make bench` to record new figures")
    return folder, bench.scale_corpus.manifest_of(folder)


def _same(folder: Path, want: dict) -> bool:
    try:
        return bench.scale_corpus.manifest_of(folder)["sha256"] == want["sha256"]
    except (OSError, ValueError, KeyError):
        return False


def stage_timing(folder: Path, code: Path | None = None) -> dict:
    """Seconds per stage in one process (bench/stages.py), as bench.stage_rates gives them;
    ``code``: another checkout's tree (its src/ and bench/stages.py) instead of this one."""
    out = bench.SCALED / ("check_stages_baseline.json" if code else "check_stages.json")
    script = (code or bench.ROOT) / "bench" / "stages.py"
    env = {**os.environ, "PYTHONPATH": str(code / "src")} if code else None
    subprocess.run([sys.executable, str(script), "time", str(folder), str(out)],
                   check=True, cwd=bench.ROOT, env=env)
    return bench.stage_rates(json.loads(out.read_text()))


def baseline_code(git: str) -> Path:
    """The recorded commit's src/ and bench/stages.py, unpacked once."""
    tree = bench.SCALED / f"recorded-{git}" / "code"
    if not (tree / "src" / "specextract" / "__init__.py").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(bench.ROOT), "archive", git, "src",
                                  "bench/stages.py"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def baseline_run(folder: Path, code: Path) -> dict:
    """One ``specextract run`` of the recorded commit's code (one process)."""
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(code / "src")
    try:
        return bench.timed_run(folder, [], prefix=[sys.executable, "-m", "specextract"])
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def end_to_end_rows(label: str, now: dict, rec: dict) -> list[dict]:
    """Per executor: recorded and measured MB/s, their ratio, the CPU-time ratio."""
    rows = []
    for name, was in rec["throughput"][label].items():
        got = now.get(name, {})
        if not (was.get("valid") and got.get("valid")):
            rows.append({"corpus": label, "executor": name, "ratio": None,
                         "error": got.get("error", "no recorded figure")})
            continue
        rows.append({"corpus": label, "executor": name, "runs": got["n"],
                     "recorded_mb_s": was["mb_s"], "mb_s": got["mb_s"],
                     "ratio": round(got["mb_s"] / was["mb_s"], 3),
                     "cpu_ratio": round(was["median_cpu_s"] / got["median_cpu_s"], 3),
                     "walls": [r["wall_s"] for r in got["runs"] if r.get("ok")],
                     "recorded_claims": was["claims"], "claims": got["claims"]})
    return rows


def stage_rows(now: dict, rec: dict, base: dict | None = None) -> list[dict]:
    """Per stage: recorded and measured seconds, throughput ratio (recorded / measured);
    with ``base`` (the recorded commit's code timed now) the same-run ratio too."""
    rows = []
    for stage, was in rec["stages"]["stages"].items():
        got = now["stages"].get(stage)
        if got and was["seconds"] and got["seconds"]:
            rows.append({"stage": stage, "recorded_s": was["seconds"], "s": got["seconds"],
                         "ratio": round(was["seconds"] / got["seconds"], 3)})
    rows.append({"stage": "pipeline (ingest to check)", "recorded_s": rec["stages"]["pipeline_s"],
                 "s": now["pipeline_s"], "ratio": round(rec["stages"]["pipeline_s"]
                                                        / now["pipeline_s"], 3)})
    if base:
        then = {**{k: v["seconds"] for k, v in base["stages"].items()},
                "pipeline (ingest to check)": base["pipeline_s"]}
        for row in rows:
            if then.get(row["stage"]):
                row["baseline_s"] = then[row["stage"]]
                row["same_run"] = round(then[row["stage"]] / row["s"], 3)
    return rows


def timed_rounds(folder: Path, manifest: dict, rounds: int,
                 code: Path | None) -> tuple[dict, list[dict]]:
    """``rounds`` rounds of every executor (bench.throughput), each round followed by a
    one-process run of the recorded commit's ``code`` when given."""
    runs: dict[str, list[dict]] = {}
    base = []
    for r in range(rounds):
        one = bench.throughput(folder, manifest, 1)
        for name, summary in one.items():
            runs.setdefault(name, []).extend(summary.get("runs", []))
        if code:
            base.append(baseline_run(folder, code))
            bench.log(f"  {folder.name} recorded commit's code, 1 process, round {r + 1}: "
                      f"{base[-1]['wall_s']:.2f}s exit {base[-1]['exit']} "
                      f"claims {base[-1]['claims']} cpu {base[-1]['user_s'] + base[-1]['sys_s']:.1f}s")
    return summarize(runs, manifest), base


def summarize(runs: dict[str, list[dict]], manifest: dict) -> dict:
    """bench.throughput's per-executor summary over runs gathered round by round."""
    out = {}
    mb = manifest["bytes"] / 1e6
    for name, all_runs in runs.items():
        good = [s for s in all_runs if s.get("ok")]
        if not good:
            out[name] = {"runs": all_runs, "n": 0, "valid": False,
                         "error": bench.run_error(all_runs[0]) if all_runs else "not run"}
            continue
        med = statistics.median(s["wall_s"] for s in good)
        out[name] = {"runs": all_runs, "n": len(good), "valid": True, "mb_s": round(mb / med, 4),
                     "median_cpu_s": round(statistics.median(s["user_s"] + s["sys_s"]
                                                             for s in good), 2),
                     "claims": sorted({s["claims"] for s in good})}
    return out


def same_run_row(label: str, now: dict, runs: list[dict], manifest: dict) -> dict:
    """This checkout's one-process throughput over the recorded commit's, both timed now."""
    walls = sorted(r["wall_s"] for r in runs if r["exit"] == 0)
    cpus = sorted(r["user_s"] + r["sys_s"] for r in runs if r["exit"] == 0)
    got = now.get(GATED, {})
    if not walls or not got.get("valid"):
        return {"corpus": label, "ratio": None, "error": "baseline or this run failed"}
    mb = manifest["bytes"] / 1e6
    return {"corpus": label, "baseline_mb_s": round(mb / statistics.median(walls), 4),
            "mb_s": got["mb_s"], "walls": walls,
            "ratio": round(got["mb_s"] / (mb / statistics.median(walls)), 3),
            "cpu_ratio": round(statistics.median(cpus) / got["median_cpu_s"], 3),
            "claims": sorted({r["claims"] for r in runs})}


def failures(rows: list[dict], same_run: list[dict]) -> list[str]:
    """Why the check fails: the gated executor below 1 - TOLERANCE (over the recorded code
    timed in this run when it was, else over the recorded figures), or not measured."""
    out = []
    if same_run:
        for r in same_run:
            if r["ratio"] is None or r["ratio"] < 1 - TOLERANCE:
                out.append(f"{r['corpus']} {GATED}: {ratio(r['ratio'])}x the recorded "
                           f"commit's code timed in the same run ({r.get('error', '')})"
                           if r["ratio"] is None else
                           f"{r['corpus']} {GATED}: {r['mb_s']} MB/s is {r['ratio']:.2f}x the "
                           f"recorded commit's {r['baseline_mb_s']} MB/s in the same run")
        return out
    for r in rows:
        if r["executor"] != GATED:
            continue
        if r["ratio"] is None:
            out.append(f"{r['corpus']} {GATED}: not measured ({r['error']})")
        elif r["ratio"] < 1 - TOLERANCE:
            out.append(f"{r['corpus']} {GATED}: {r['mb_s']} MB/s is {r['ratio']:.2f}x the "
                       f"recorded {r['recorded_mb_s']} MB/s (more than {TOLERANCE:.0%} below)")
    return out


def ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def tables(result: dict) -> list[str]:
    """The run's end-to-end and stage comparisons as markdown tables."""
    e2e = bench.fmt_table(
        ["corpus", "executor", "runs", "recorded MB/s", "MB/s", "ratio", "CPU-time ratio",
         "wall s", "claims (recorded / now)"],
        [[r["corpus"], r["executor"], r.get("runs", 0), r.get("recorded_mb_s", "-"),
          r.get("mb_s", "-"), ratio(r["ratio"]), ratio(r.get("cpu_ratio")),
          " ".join(f"{w:.1f}" for w in r.get("walls", [])),
          f"{r.get('recorded_claims', ['-'])[0]} / {r.get('claims', ['-'])[0]}"]
         for r in result["end_to_end"]])
    stages = bench.fmt_table(
        ["stage (one process, small corpus)", "recorded s", "s", "ratio",
         "recorded commit's code now, s", "ratio to it"],
        [[r["stage"], f"{r['recorded_s']:.3f}", f"{r['s']:.3f}", ratio(r["ratio"]),
          f"{r['baseline_s']:.3f}" if r.get("baseline_s") else "-", ratio(r.get("same_run"))]
         for r in result["stages"]])
    out = [e2e, "", stages]
    if result.get("same_run"):
        out += ["", bench.fmt_table(
            ["corpus", f"{GATED}: recorded commit's code now, MB/s", "this checkout, MB/s",
             "ratio", "CPU-time ratio", "its wall s"],
            [[r["corpus"], r.get("baseline_mb_s", "-"), r.get("mb_s", "-"), ratio(r["ratio"]),
              ratio(r.get("cpu_ratio")), " ".join(f"{w:.1f}" for w in r.get("walls", []))]
             for r in result["same_run"]])]
    return out


def write_report(result: dict) -> None:
    """bench/CHECK.md: every run so far (one line each), then the latest in full."""
    runs = [json.loads(line) for line in HISTORY.read_text().splitlines() if line.strip()]
    history = bench.fmt_table(
        ["started", "git", "quick", "load before", f"{GATED} ratio to the recorded figures",
         "pipeline ratio", f"{GATED} ratio to the recorded code, same run", "result"],
        [[r["started"], r["git"], "yes" if r["quick"] else "no", r["load_before"],
          ", ".join(f"{e['corpus']} {ratio(e['ratio'])}" for e in r["end_to_end"]
                    if e["executor"] == GATED),
          ratio(r["stages"][-1]["ratio"]),
          ", ".join(f"{e['corpus']} {ratio(e['ratio'])}" for e in r.get("same_run", []))
          or "-", "FAIL" if r["failures"] else "pass"]
         for r in reversed(runs)])
    lines = ["# `make bench-check`: throughput against bench/results.json", "",
             f"Recorded figures: `make bench` of {result['recorded_started']} (git "
             f"{result['recorded_git']}). Ratio: this run's throughput over the recorded one "
             f"(1.00 the same, below {1 - TOLERANCE:.2f} fails for {GATED}). Generated by "
             "bench/bench_check.py; raw runs in bench/check_runs.jsonl.", "",
             "## Every run", "", history, "",
             f"## Latest run ({result['started']}, git {result['git']})", "",
             *tables(result), ""]
    if result["failures"]:
        lines += ["Fails: " + "; ".join(result["failures"]), ""]
    REPORT.write_text("\n".join(lines))


def main() -> int:
    rec = json.loads(RECORDED.read_text())
    labels = rec["labels"][:1] if QUICK else rec["labels"]
    result = {"started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "quick": QUICK,
              "git": bench.machine_info()["git_commit"],
              "load_before": [round(x, 2) for x in os.getloadavg()],
              "recorded_started": rec["started"], "recorded_git": rec["machine"]["git_commit"],
              "end_to_end": [], "stages": [], "same_run": []}
    code = baseline_code(result["recorded_git"]) if BASELINE else None
    bench.log(f"bench-check ({'quick: ' if QUICK else ''}{', '.join(labels)}) against "
              f"{rec['started']}; load {result['load_before']}")
    for i, label in enumerate(labels):
        folder, manifest = corpus(label, rec)
        rounds = bench.RUNS if i == 0 else 1
        bench.log(f"end-to-end on {label}: {rounds} round(s)")
        now, base = timed_rounds(folder, manifest, rounds, code)
        result["end_to_end"] += end_to_end_rows(label, now, rec)
        if code:
            result["same_run"].append(same_run_row(label, now, base, manifest))
        if i == 0:
            bench.log(f"stages in one process on {label}")
            result["stages"] = stage_rows(stage_timing(folder), rec,
                                          stage_timing(folder, code) if code else None)
    result["failures"] = failures(result["end_to_end"], result["same_run"])
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    with HISTORY.open("a") as fh:
        fh.write(json.dumps(result) + "\n")
    write_report(result)
    print("\n".join(tables(result)))
    recorded = [r["ratio"] for r in result["end_to_end"] if r["executor"] == GATED and r["ratio"]]
    same = [r["ratio"] for r in result["same_run"] if r["ratio"]]
    summary = (f"{GATED} end-to-end: {ratio(min(recorded)) if recorded else '-'} of the recorded "
               f"figures, {ratio(min(same)) if same else '-'} of the recorded code in this run")
    if result["failures"]:
        bench.log(f"FAIL ({summary}): " + "; ".join(result["failures"]))
        return 1
    bench.log(f"pass ({summary}, within {TOLERANCE:.0%}); bench/CHECK.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
