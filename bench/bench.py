"""``make bench``: end-to-end throughput, memory, stage profile and baselines (not a test).

    .venv/bin/python bench/bench.py           # full: 1,000 and 10,000 articles
    BENCH_QUICK=1 .venv/bin/python bench/bench.py   # quick: 200 and 1,000 articles

Writes bench/RESULTS.md (for people) and bench/results.json (everything measured).
Generated corpora, run folders and profiles go to bench/scaled/ (gitignored).

What it does, in order:

1. describes the machine (nproc, CPU model, memory, versions, load average, git commit);
2. builds the scaled corpora (bench/scale_corpus.py, fixed seed);
3. runs ``make eval`` and ``make eval-dev`` (the dev set at DEVSET, ../shared/devset by
   default, when it is there) and compares each with its saved output,
   bench/eval_baseline.txt and bench/eval_dev_baseline.txt;
4. times ``specextract run`` end to end, a fresh --out each time, with 1 process,
   ``--workers 2`` and ``--dask local``, round-robin so that load changes hit all three
   alike: BENCH_RUNS rounds (default 3) on the small corpus; on the large corpus the runs
   (at most BENCH_RUNS of each) whose estimated time fits BENCH_LARGE_BUDGET seconds, the
   first 1-process run always (it gives the memory at scale). Peak RSS
   comes from wait4() of the run (the largest single process) and from sampling the
   process tree every 0.2 s (the sum over processes);
5. profiles a 1-process run of the small corpus with cProfile and attributes cumulative time
   to the stages (ingest, normalize, extract, check, store, outputs);
6. records a sampling profile of another 1-process run of the small corpus with py-spy
   (installed into this environment when missing; ``py-spy record -r 200 -F -f raw
   --native``, so that compiled functions are named; without --native if that fails), kept
   in bench/scaled/profiles/run.pyspy.txt and summarized (bench/sampling.py: top frames by
   self and inclusive samples, and what runs in the C samples) into RESULTS.md and
   results.json, beside the previous
   results.json's summary when it has one (bench/profile_diff.py compares any two); when
   py-spy cannot record, the cProfile of step 5 is summarized instead, and RESULTS.md says so;
7. times and profiles each stage in one process (bench/stages.py), with OpenCC's t2s alone
   on the same decoded text; times the stages again on corpus/ and on the dev set's real
   web articles (DEVSET/corpus, when there), with the verdicts of their claims (a claim that
   is not supported is also diagnosed, so the mix decides what checking costs);
8. runs Microsoft Recognizers-Text (Chinese number, dimension and currency models) over the
   same articles in its own environment bench/.venv-recognizers, created here if missing
   (BENCH_RECOGNIZERS_BUDGET seconds per model).

The Targets table is issue 16's: end to end in 1 process on the large corpus, extraction
alone and end to end over OpenCC t2s time on the small corpus, ``--workers 2`` over 1
process, peak RSS of the large corpus over the small one, both evaluations unchanged.

Environment: BENCH_QUICK=1, BENCH_RUNS (3), BENCH_LARGE_BUDGET (seconds, 600; quick 240),
BENCH_RECOGNIZERS_BUDGET (seconds per model, 20; quick 10), BENCH_SEED, BENCH_CODE_NOTE
(a line printed beside the code's digest, e.g. which commit a snapshot holds); DEVSET (the
dev set's folder, as for ``make eval-dev``); BENCH_PROFILE_BEFORE (a results.json or a
sampling summary, e.g. bench/profiles/c08bad4.json, to set beside this run's profile instead
of the previous results.json's).
"""
from __future__ import annotations

import json
import os
import platform
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
import sampling  # noqa: E402
import scale_corpus  # noqa: E402
from profile_diff import diff_tables  # noqa: E402

SCALED = BENCH / "scaled"
RECOG_VENV = BENCH / ".venv-recognizers"
RECOG_PACKAGES = ["recognizers-text-number", "recognizers-text-number-with-unit", "emoji<2"]
BIN = Path(sys.executable).parent
SPECEXTRACT = BIN / "specextract"

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
SIZES = (200, 1000) if QUICK else (1000, 10000)
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
LARGE_BUDGET = float(os.environ.get("BENCH_LARGE_BUDGET", "240" if QUICK else "600"))
RECOG_BUDGET = float(os.environ.get("BENCH_RECOGNIZERS_BUDGET", "10" if QUICK else "20"))
SEED = int(os.environ.get("BENCH_SEED", str(scale_corpus.DEFAULT_SEED)))
EXECUTORS = {"1 process": [], "--workers 2": ["--workers", "2"], "--dask local": ["--dask", "local"]}
CORES = {"1 process": 1, "--workers 2": 2, "--dask local": 2}

# issue 16's targets
TARGET_E2E_MB_S, AIM_E2E_MB_S = 1.0, 2.0   # end to end, 1 process, large scaled corpus
TARGET_EXTRACT_MB_S = 1.5          # extraction alone (extract_normalized), small scaled corpus
TARGET_VS_OPENCC = 20.0            # end-to-end time per byte / OpenCC t2s time per byte
TARGET_WORKERS_SPEEDUP = 1.8       # --workers 2 over 1 process
TARGET_RSS_GROWTH = 1.2            # peak RSS, large corpus over small, 1 process
TARGET_DASK_VS_WORKERS = 0.8       # an earlier target: Dask within 20% of --workers
SAMPLE_RATE = 200                  # py-spy samples per second

STAGE_FUNCS = {  # stage -> (module file suffix, function name) whose cumulative time it gets
    "ingest (read + decode)": [("specextract/ingest/read.py", "read_bytes"),
                               ("specextract/ingest/read.py", "document_from_bytes")],
    "normalize": [("specextract/normalize/text.py", "normalize")],
    "extract": [("specextract/extract/claims.py", "extract_normalized")],
    "check (rows -> claims -> check -> rows)": [("specextract/batch/run.py", "checked_rows")],
    "store writes": [("specextract/store/db.py", "put_document"),
                     ("specextract/store/db.py", "put_verdicts"),
                     ("specextract/store/db.py", "known"),
                     ("specextract/store/db.py", "start_run"),
                     ("specextract/store/db.py", "finish_run")],
    "claims.csv": [("specextract/output/export.py", "write_csv")],
    "HTML report pages (drawn per document)": [("specextract/batch/run.py", "_stage_page")],
    "HTML report": [("specextract/output/report.py", "write_report")],
}


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def load1() -> float:
    return round(os.getloadavg()[0], 2)


# --- the machine --------------------------------------------------------------------------
def machine_info() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_kb = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    except OSError:
        pass
    versions = {}
    for dist in ("specextract", "opencc", "regex", "spacy", "pandas", "pyarrow", "dask",
                 "distributed", "charset-normalizer", "click", "psutil"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    top = _read(["ps", "-eo", "pcpu,pid,comm", "--sort=-pcpu"]).splitlines()[:6]
    return {
        "nproc": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0)),
        "cpu_model": cpu, "mem_total_gib": round(mem_kb / 2**20, 1),
        "python": platform.python_version(), "platform": platform.platform(),
        "packages": versions, "loadavg_start": [round(x, 2) for x in os.getloadavg()],
        "top_processes_start": top,
        "git_commit": _read(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]).strip(),
        "src_modified": [l[3:] for l in _read(["git", "-C", str(ROOT), "status", "--porcelain",
                                                "--", "src"]).splitlines()],
    }


def _read(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


# --- end-to-end runs -------------------------------------------------------------------------
class TreeSampler(threading.Thread):
    """Peak sum of RSS over a process and its descendants, sampled."""

    def __init__(self, pid: int, interval: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak_kb = self.max_procs = 0
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            import psutil
            root = psutil.Process(self.pid)
        except Exception:  # noqa: BLE001 - no psutil, or the run already ended
            return
        while not self.stop.is_set():
            try:
                procs = [root] + root.children(recursive=True)
            except Exception:  # noqa: BLE001
                return
            total = 0
            for p in procs:
                try:
                    total += p.memory_info().rss
                except Exception:  # noqa: BLE001 - ended between listing and reading
                    pass
            self.peak_kb = max(self.peak_kb, total // 1024)
            self.max_procs = max(self.max_procs, len(procs))
            self.stop.wait(self.interval)


SUMMARY = re.compile(r"(\d+) documents: (\d+) processed.*?(\d+) failed; (\d+) claims")


def timed_run(folder: Path, extra: list[str], prefix: list[str] | None = None,
              keep: bool = False, env_extra: dict[str, str] | None = None) -> dict:
    """One ``specextract run`` in a fresh folder. By default through bench/run_phases.py
    (the console script's code plus phase marks: batch, claims.csv, report); ``env_extra``:
    variables set for that run."""
    runs = SCALED / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=runs))
    out = work / "out"
    phases_file = work / "phases.json"
    cmd = (prefix or [sys.executable, str(BENCH / "run_phases.py")]) + [
        "run", str(folder), "--out", str(out), "--no-progress", *extra]
    before = load1()
    env = {**os.environ, "BENCH_PHASES_FILE": str(phases_file), **(env_extra or {})}
    # modules compiled once and cached, as in an installed package (an environment that
    # forbids writing bytecode makes every process compile the whole package again)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with open(work / "stdout", "w") as so, open(work / "stderr", "w") as se:
        env["BENCH_T0"] = repr(time.time())
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=so, stderr=se, stdin=subprocess.DEVNULL, cwd=ROOT,
                                env=env)
        sampler = TreeSampler(proc.pid)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        sampler.stop.set()
        sampler.join()
    stdout = (work / "stdout").read_text(errors="replace")
    stderr = (work / "stderr").read_text(errors="replace")
    m = SUMMARY.search(stdout)
    result = {"wall_s": round(wall, 3), "exit": proc.returncode,
              "maxrss_kb": usage.ru_maxrss, "tree_peak_rss_kb": sampler.peak_kb,
              "max_procs": sampler.max_procs, "load1_before": before,
              "user_s": round(usage.ru_utime, 2), "sys_s": round(usage.ru_stime, 2),
              "documents": int(m.group(1)) if m else None,
              "failed": int(m.group(3)) if m else None,
              "claims": int(m.group(4)) if m else None}
    if phases_file.exists():
        result["phases"] = phases(json.loads(phases_file.read_text()), wall)
    if proc.returncode != 0:
        result["stderr_tail"] = stderr[-2000:]
        result["stdout_tail"] = stdout[-2000:]
    if keep:
        result["out"] = str(out)
        result["work"] = str(work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return result


def phases(marks: list[dict], wall: float) -> dict:
    """Seconds and memory per phase from run_phases.py's marks."""
    at = {m["event"]: m for m in marks}
    out: dict = {}
    if "run_batch:start" in at:
        out["startup_s"] = at["run_batch:start"]["t"]
        out["rss_mb_before_batch"] = at["run_batch:start"]["rss_mb"]
    for name, key in (("run_batch", "batch_s"), ("write_csv", "csv_s"),
                      ("write_report", "report_s")):
        if f"{name}:start" in at and f"{name}:end" in at:
            out[key] = round(at[f"{name}:end"]["t"] - at[f"{name}:start"]["t"], 3)
    if "run_batch:end" in at:
        out["rss_mb_after_batch"] = at["run_batch:end"]["rss_mb"]
        out["peak_mb_after_batch"] = at["run_batch:end"]["peak_mb"]
    if "write_report:end" in at:
        out["peak_mb_after_report"] = at["write_report:end"]["peak_mb"]
    if "exit" in at:
        out["exit_mark_s"] = at["exit"]["t"]
        out["teardown_s"] = round(wall - at["exit"]["t"], 3)
    return out


def throughput(folder: Path, manifest: dict, rounds: int, budget: float | None = None,
               estimates: dict[str, float] | None = None) -> dict:
    """Round-robin runs of every executor; per executor the runs and their medians.

    With a budget (seconds), the first 1-process run always happens and every other run only
    if its estimated time (``estimates``, then the median of its own runs) still fits."""
    samples: dict[str, list[dict]] = {name: [] for name in EXECUTORS}
    est = dict(estimates or {})
    skipped: set[str] = set()
    t0 = time.perf_counter()
    for r in range(rounds):
        for name, extra in EXECUTORS.items():
            if budget is not None and not (r == 0 and name == "1 process"):
                left = budget - (time.perf_counter() - t0)
                if est.get(name, 0.0) > left:
                    if name not in skipped:
                        log(f"  {name}: skipped from round {r + 1} on (estimated "
                            f"{est.get(name, 0):.0f}s, {max(0.0, left):.0f}s of the budget left)")
                    skipped.add(name)
                    continue
            res = timed_run(folder, extra)
            samples[name].append(res)
            est[name] = statistics.median(s["wall_s"] for s in samples[name])
            log(f"  {folder.name} {name:13s} round {r + 1}: {res['wall_s']:7.2f}s "
                f"exit {res['exit']} claims {res['claims']} rss {res['maxrss_kb'] // 1024} MB "
                f"(tree {res['tree_peak_rss_kb'] // 1024} MB) cpu {res['user_s'] + res['sys_s']:.1f}s "
                f"load {res['load1_before']}")
    out = {}
    for name, runs in samples.items():
        for s in runs:
            s["ok"] = (s["exit"] == 0 and s["failed"] == 0
                       and s["documents"] == manifest["articles"])
        good = [s for s in runs if s["ok"]]
        if not runs:
            out[name] = {"runs": [], "n": 0, "valid": False, "skipped": True,
                         "error": "not run: over the time budget"}
            continue
        if not good:
            out[name] = {"runs": runs, "n": 0, "valid": False, "error": run_error(runs[0])}
            log(f"  {name}: no valid run ({out[name]['error']})")
            continue
        walls = [s["wall_s"] for s in good]
        med = statistics.median(walls)
        mb = manifest["bytes"] / 1e6
        out[name] = {
            "runs": runs, "n": len(good), "failed_runs": len(runs) - len(good), "valid": True,
            "median_wall_s": round(med, 3), "min_wall_s": min(walls), "max_wall_s": max(walls),
            "mb_s": round(mb / med, 4), "articles_s": round(manifest["articles"] / med, 2),
            "mb_s_per_core": round(mb / med / CORES[name], 4),
            "median_cpu_s": round(statistics.median(s["user_s"] + s["sys_s"] for s in good), 2),
            "median_maxrss_mb": round(statistics.median(s["maxrss_kb"] for s in good) / 1024, 1),
            "median_tree_peak_rss_mb": round(
                statistics.median(s["tree_peak_rss_kb"] for s in good) / 1024, 1),
            "claims": sorted({s["claims"] for s in good}),
            "median_phases": median_phases(good),
        }
    return out


def run_error(run: dict) -> str:
    """The first line that says why a run failed."""
    text = run.get("stdout_tail", "") + "\n" + run.get("stderr_tail", "")
    for line in text.splitlines():
        if line.startswith("failed:") or "Error" in line or "error:" in line:
            return line.strip()[:300]
    return f"exit {run['exit']}, {run.get('failed')} failed documents"


def median_phases(runs: list[dict]) -> dict:
    keys = sorted({k for s in runs for k in s.get("phases", {})})
    return {k: round(statistics.median(s["phases"][k] for s in runs
                                       if k in s.get("phases", {})), 3) for k in keys}


STARTUP_RUNS = 5


def startup_cost() -> dict:
    """A run over one small corpus file: the fixed cost of every invocation, with the
    compiled patterns kept from earlier runs (the bench's own cache folder, warm by now) and
    without (SPECEXTRACT_CACHE=off), alternating."""
    one = sorted(p for p in (ROOT / "corpus").iterdir() if p.is_file())[0]
    walls: list[float] = []
    cold: list[float] = []
    for _ in range(STARTUP_RUNS):
        walls.append(timed_run(one, [])["wall_s"])
        cold.append(timed_run(one, [], env_extra={"SPECEXTRACT_CACHE": "off"})["wall_s"])
    return {"file": one.name, "median_wall_s": statistics.median(walls), "walls": walls,
            "cold_median_wall_s": statistics.median(cold), "cold_walls": cold}


# --- profiles ---------------------------------------------------------------------------------
def short(key: tuple) -> str:
    file, line, func = key
    if file == "~" or file.startswith("<"):
        return func if file == "~" else f"{file}:{line}({func})"
    p = file.replace("\\", "/")
    for marker in ("/site-packages/", "/src/", "/lib/python3"):
        if marker in p:
            p = p.split(marker, 1)[1]
            if marker == "/lib/python3":
                p = "stdlib/" + p.split("/", 1)[1]
            break
    return f"{p}:{line}({func})"


def find_keys(stats: dict, suffix: str, func: str) -> list[tuple]:
    """pstats keys of ``func`` in the module file ending in ``suffix``: a Python function,
    or the same function compiled, which cProfile records as a built-in
    (``<built-in method specextract.extract.claims.extract_normalized>``)."""
    module = suffix.removesuffix(".py").replace("/", ".")
    compiled = f"<built-in method {module}.{func}>"
    return [k for k in stats if (k[2] == func and k[0].replace("\\", "/").endswith(suffix))
            or (k[0] == "~" and k[2] == compiled)]


def run_profile(folder: Path, prof_dir: Path) -> dict:
    """cProfile of a 1-process run; cumulative seconds per stage."""
    prof = prof_dir / "run.prof"
    res = timed_run(folder, [], prefix=[sys.executable, "-m", "cProfile", "-o", str(prof),
                                        "-m", "specextract"], keep=True)
    db = Path(res["out"]) / "specextract.db"
    report_ok = subprocess.run([sys.executable, str(BENCH / "stages.py"), "report", str(db),
                                str(prof_dir)], cwd=ROOT).returncode == 0
    shutil.rmtree(res["work"], ignore_errors=True)
    st = pstats.Stats(str(prof))
    stats = st.stats
    # the outermost frame's cumulative time; cProfile's total_tt (sum of self times) can be
    # a little smaller than the cumulative time of the top-level call
    total = max([st.total_tt] + [v[3] for v in stats.values()])
    stages, covered = {}, 0.0
    for stage, funcs in STAGE_FUNCS.items():
        secs = sum(stats[k][3] for s, f in funcs for k in find_keys(stats, s, f))
        stages[stage] = secs
        covered += secs
    run_job = sum(stats[k][3] for k in find_keys(stats, "specextract/batch/job.py", "run_job"))
    task = sum(stats[k][3] for k in find_keys(stats, "specextract/batch/run.py", "process_task"))
    # what process_task does besides the stages: checking and page drawing also run inside
    # it (in the worker that extracted the document), so they are not glue
    inside = sum(stats[k][3] for f in ("_checked_here", "_unchanged", "_stage_page")
                 for k in find_keys(stats, "specextract/batch/run.py", f))
    inner = (stages["ingest (read + decode)"] + stages["normalize"] + stages["extract"] + inside)
    glue = "per-document glue (hash, task and result dicts)"
    stages[glue] = max(0.0, task - inner)
    covered += stages[glue]
    stages["startup (imports, CLI, reference)"] = max(0.0, total - run_job)
    covered += stages["startup (imports, CLI, reference)"]
    stages["other"] = max(0.0, total - covered)
    with open(prof_dir / "run.txt", "w") as fh:
        pstats.Stats(str(prof), stream=fh).sort_stats("cumulative").print_stats(80)
        pstats.Stats(str(prof), stream=fh).sort_stats("tottime").print_stats(40)
    return {"wall_s": res["wall_s"], "exit": res["exit"], "profiled_total_s": round(total, 3),
            "report_profile": report_ok,
            "stages_s": {k: round(v, 3) for k, v in stages.items()},
            "top_tottime": top_functions(stats, "tottime", 15),
            "prof": str(prof.relative_to(ROOT))}


def ensure_py_spy() -> dict:
    """py-spy in this environment, installed with pip when missing."""
    exe = BIN / "py-spy"
    if not exe.exists():
        log(f"  {sys.executable} -m pip install py-spy")
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                            "--disable-pip-version-check", "py-spy"], capture_output=True,
                           text=True)
        if p.returncode != 0 or not exe.exists():
            return {"ok": False, "error": f"pip install py-spy exited {p.returncode}: "
                                          + (p.stderr or p.stdout)[-500:]}
    version = _read([str(exe), "--version"]).strip()
    return {"ok": True, "exe": str(exe), "version": version}


def sampling_profile(folder: Path, prof_dir: Path, manifest: dict, label: str) -> dict:
    """py-spy's sampling profile of a 1-process run of ``folder``, summarized; the cProfile
    of run_profile (prof_dir/run.prof) summarized instead when py-spy cannot record."""
    raw = prof_dir / "run.pyspy.txt"
    spy = ensure_py_spy()
    base = {"corpus": label, "bytes": manifest["bytes"], "articles": manifest["articles"],
            "git": _read(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]).strip()}
    why = spy.get("error", "")
    compiled = compiled_module_names()
    for native in (["--native"], []):  # C frames too (compiled functions by name), else Python's
        if not spy["ok"]:
            break
        prefix = [spy["exe"], "record", "-r", str(SAMPLE_RATE), "-F", "-f", "raw", *native,
                  "-o", str(raw), "--", sys.executable, "-m", "specextract"]
        res = timed_run(folder, [], prefix=prefix)
        text = raw.read_text(errors="replace") if raw.exists() else ""
        summary = sampling.summarize_folded(text, compiled=compiled)
        if res["exit"] == 0 and summary["total"]:
            return {**base, "tool": spy["version"] or "py-spy", "rate": SAMPLE_RATE,
                    "native": bool(native), "wall_s": res["wall_s"],
                    "raw": str(raw.relative_to(ROOT)), **summary}
        why = (f"py-spy record {' '.join(native)} exited {res['exit']} with "
               f"{summary['total']} samples: "
               + run_error(res))
    log(f"  no sampling profile ({why}); summarizing the cProfile instead")
    prof = prof_dir / "run.prof"
    if not prof.exists():
        return {"error": f"no sampling profile ({why}) and no cProfile to fall back on"}
    return {**base, "tool": "cProfile", "fallback_reason": why,
            "raw": str(prof.relative_to(ROOT)),
            **sampling.summarize_pstats(pstats.Stats(str(prof)).stats)}


def compiled_module_names() -> list[str]:
    """The names of the modules specextract.compiled builds (whether or not they are
    built), for naming their functions in a native profile."""
    out = _read([sys.executable, "-c", "from specextract.compiled import compiled_sources, "
                 "module_name\nfor p in compiled_sources(): print(module_name(p))"])
    return out.split()


def top_functions(stats: dict, key: str, n: int, root: tuple | None = None,
                  skip_root: bool = True) -> list[dict]:
    idx = 3 if key == "cumulative" else 2
    rows = []
    for k, (cc, nc, tt, ct, _callers) in stats.items():
        if "_lsprof.Profiler" in k[2] or (skip_root and root is not None and k == root):
            continue
        rows.append({"function": short(k), "calls": nc, "tottime_s": round(tt, 4),
                     "cumtime_s": round(ct, 4)})
    rows.sort(key=lambda r: r["cumtime_s" if idx == 3 else "tottime_s"], reverse=True)
    return rows[:n]


def stage_profiles(folder: Path, prof_dir: Path) -> dict:
    """bench/stages.py: unprofiled per-stage timing, then one profile per stage."""
    timing_file = prof_dir / "stages_time.json"
    subprocess.run([sys.executable, str(BENCH / "stages.py"), "time", str(folder),
                    str(timing_file)], check=True, cwd=ROOT)
    timing = json.loads(timing_file.read_text())
    subprocess.run([sys.executable, str(BENCH / "stages.py"), "profile", str(folder),
                    str(prof_dir)], check=True, cwd=ROOT)
    roots = {"extract": ("specextract/extract/claims.py", "extract_normalized"),
             "check": ("specextract/batch/run.py", "checked_rows"),
             "report": ("specextract/output/report.py", "write_report"),
             "normalize": ("specextract/normalize/text.py", "normalize")}
    tops = {}
    for stage, (suffix, func) in roots.items():
        if not (prof_dir / f"{stage}.prof").exists():
            continue
        st = pstats.Stats(str(prof_dir / f"{stage}.prof"))
        keys = find_keys(st.stats, suffix, func)
        root = keys[0] if keys else None
        with open(prof_dir / f"{stage}.txt", "w") as fh:
            pstats.Stats(str(prof_dir / f"{stage}.prof"), stream=fh).sort_stats(
                "cumulative").print_stats(60)
            pstats.Stats(str(prof_dir / f"{stage}.prof"), stream=fh).sort_stats(
                "tottime").print_stats(40)
        tops[stage] = {"root_cumtime_s": round(st.stats[root][3], 4) if root else None,
                       "profiled_total_s": round(st.total_tt, 4),
                       "by_cumulative": top_functions(st.stats, "cumulative", 10, root),
                       "by_tottime": top_functions(st.stats, "tottime", 10, root)}
    return {**stage_rates(timing), "top": tops, "per_article": timing["per_article"]}


def stage_table(st: dict) -> str:
    return fmt_table(["stage", "seconds", "MB/s", "share of pipeline"],
                     [[k, f"{v['seconds']:.3f}", f"{v['mb_s']:.2f}" if v["mb_s"] else "-",
                       f"{100 * v['share_of_pipeline']:.1f}%"
                       if v["share_of_pipeline"] is not None else "-"]
                      for k, v in st["stages"].items()])


def stage_rates(timing: dict) -> dict:
    """Seconds, MB/s and share of the pipeline per stage, from a stages.py timing."""
    mb = timing["bytes"] / 1e6
    secs = timing["seconds"]
    pipeline = sum(secs[s] for s in ("ingest", "normalize", "extract", "rows", "check"))
    rates = {s: {"seconds": round(v, 3), "mb_s": round(mb / v, 3) if v else None,
                 "share_of_pipeline": round(v / pipeline, 4) if s != "opencc_t2s" else None}
             for s, v in secs.items()}
    return {"articles": timing["articles"], "bytes": timing["bytes"], "claims": timing["claims"],
            "repeats": timing.get("repeats", 1), "stages": rates,
            "verdicts": timing.get("verdicts", {}),
            "pipeline_s": round(pipeline, 3), "pipeline_mb_s": round(mb / pipeline, 4),
            "normalize_vs_opencc": round(secs["normalize"] / secs["opencc_t2s"], 2)}


CORPUS_REPEATS = 5


def corpus_stages(prof_dir: Path) -> dict:
    """Stage timing on corpus/ itself (the gold corpus), fastest of CORPUS_REPEATS passes:
    the extraction throughput the claim-extraction target is stated on."""
    return folder_stages(ROOT / "corpus", prof_dir / "stages_corpus.json", CORPUS_REPEATS)


def folder_stages(folder: Path, timing_file: Path, repeats: int) -> dict:
    """bench/stages.py's fastest of ``repeats`` passes over ``folder``, as stage rates."""
    subprocess.run([sys.executable, str(BENCH / "stages.py"), "time", str(folder),
                    str(timing_file), str(repeats)], check=True, cwd=ROOT)
    return stage_rates(json.loads(timing_file.read_text()))


VERDICTS_SHOWN = ("supported", "approximate", "contradicted", "unverifiable")
DEVSET_REPEATS = 10   # the dev set is small (about 0.07 MB): the fastest of 10 passes


def devset_stages(prof_dir: Path) -> dict:
    """Stage timing on the dev set's real web articles (DEVSET/corpus, as ``make eval-dev``
    reads them), fastest of DEVSET_REPEATS passes; {"absent": ...} without a dev set."""
    folder = ROOT / os.environ.get("DEVSET", "../shared/devset") / "corpus"
    if not folder.is_dir():
        return {"absent": f"no dev set at {folder} (DEVSET=...)"}
    return folder_stages(folder, prof_dir / "stages_devset.json", DEVSET_REPEATS)


# --- Recognizers-Text --------------------------------------------------------------------------
def ensure_recognizers() -> dict:
    py = RECOG_VENV / "bin" / "python"
    stamp = RECOG_VENV / ".installed"
    if stamp.exists() and py.exists():
        return {"ok": True, "venv": str(RECOG_VENV.relative_to(ROOT))}
    base = getattr(sys, "_base_executable", None) or shutil.which("python3") or "python3"
    steps = [[base, "-m", "venv", str(RECOG_VENV)],
             [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              *RECOG_PACKAGES]]
    for cmd in steps:
        log("  " + " ".join(cmd))
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return {"ok": False, "failed_command": " ".join(cmd), "exit": p.returncode,
                    "error": (p.stderr or p.stdout)[-3000:]}
    stamp.write_text(" ".join(RECOG_PACKAGES) + "\n")
    return {"ok": True, "venv": str(RECOG_VENV.relative_to(ROOT)), "installed_now": True}


def run_recognizers(folder: Path, install: dict) -> dict:
    if not install.get("ok"):
        return {"ok": False, **install}
    listing = SCALED / "recognizers_articles.txt"
    listing.write_text("\n".join(str(p) for p in scale_articles(folder)) + "\n")
    p = subprocess.run([str(RECOG_VENV / "bin" / "python"), str(BENCH / "recognizers_bench.py"),
                        str(listing), str(RECOG_BUDGET)], capture_output=True, text=True)
    if p.returncode != 0:
        return {"ok": False, "failed_command": "recognizers_bench.py", "exit": p.returncode,
                "error": p.stderr[-3000:]}
    return {"ok": True, **json.loads(p.stdout)}


def scale_articles(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


# --- make eval ---------------------------------------------------------------------------------
def run_eval(target: str = "eval", baseline: str = "eval_baseline.txt") -> dict:
    """``make -s TARGET`` compared line by line with bench/BASELINE (its ``#`` lines and
    echoed commands left out)."""
    p = subprocess.run(["make", "-s", target], capture_output=True, text=True, cwd=ROOT)
    out = p.stdout
    overall = next((l.strip() for l in out.splitlines() if l.strip().startswith("overall")), "")
    head = next((l.strip() for l in out.splitlines() if l.startswith("gold ")), "")
    base_file = BENCH / baseline
    base = base_file.read_text() if base_file.exists() else ""
    base_lines = [l for l in base.splitlines() if not l.startswith((".venv/bin/", "#"))]
    out_lines = [l for l in out.splitlines() if not l.startswith(".venv/bin/")]
    base_overall = next((l.strip() for l in base_lines if l.strip().startswith("overall")), "")
    base_head = next((l.strip() for l in base_lines if l.startswith("gold ")), "")
    changed = [l for l in out_lines if l not in set(base_lines)]
    return {"target": target, "baseline_file": f"bench/{baseline}", "exit": p.returncode,
            "absent": out.startswith(f"{target}: no "), "first_line": out.strip()[:300],
            "gold_line": head, "overall_line": overall,
            "baseline_gold_line": base_head, "baseline_overall_line": base_overall,
            "unchanged": bool(base) and out_lines == base_lines,
            "lines_changed": len(changed), "changed_sample": changed[:10],
            "stderr_tail": p.stderr[-1000:] if p.returncode else ""}


# --- the report ---------------------------------------------------------------------------------
def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def evaluate_targets(r: dict) -> list[dict]:
    """Issue 16's targets. Throughput on the large corpus where it has valid runs of every
    executor a target compares, else on the small one (named in the measurement); ratios
    to OpenCC and extraction alone on the small corpus, the text bench/stages.py times."""
    small, large = r["labels"]

    def cells(*names: str) -> tuple[str, list[dict]]:
        for label in (large, small):
            got = [r["throughput"][label][n] for n in names]
            if all(c.get("valid") for c in got):
                return label, got
        return small, [r["throughput"][small][n] for n in names]

    def target(name: str, names: tuple[str, ...], measure) -> dict:
        label, got = cells(*names)
        if not all(c.get("valid") for c in got):
            return {"target": name, "measured": "no valid run (see Warnings)", "ok": None}
        text, ok = measure(*got)
        runs = "/".join(str(c["n"]) for c in got)
        return {"target": name, "measured": f"{text} ({label}, runs {runs})", "ok": ok}

    def e2e(one: dict) -> tuple[str, bool]:
        aim = "aim reached" if one["mb_s"] >= AIM_E2E_MB_S else "aim not reached"
        return f"{one['mb_s']:.3f} MB/s, {aim}", one["mb_s"] >= TARGET_E2E_MB_S

    one_small, one_large = r["throughput"][small]["1 process"], r["throughput"][large]["1 process"]
    rss = {"target": f"peak RSS, 1 process, {large} documents <= {TARGET_RSS_GROWTH}x "
                     f"{small} documents",
           "measured": "no valid run (see Warnings)", "ok": None}
    if one_small.get("valid") and one_large.get("valid"):
        a, b = one_small["median_maxrss_mb"], one_large["median_maxrss_mb"]
        rss.update(measured=f"{b:.0f} MB vs {a:.0f} MB = {b / a:.2f}x",
                   ok=b <= TARGET_RSS_GROWTH * a)
    return [
        target(f"end to end, 1 process, on the scaled corpus >= {TARGET_E2E_MB_S:g} MB/s "
               f"(aim {AIM_E2E_MB_S:g})", ("1 process",), e2e),
        extraction_target(r, small),
        opencc_target(r, small),
        target(f"`--workers 2` >= {TARGET_WORKERS_SPEEDUP}x 1 process",
               ("1 process", "--workers 2"),
               lambda one, two: (f"{two['mb_s'] / one['mb_s']:.2f}x",
                                 two["mb_s"] / one["mb_s"] >= TARGET_WORKERS_SPEEDUP)),
        rss,
        target("`--dask local` within 20% of `--workers 2` (an earlier target)",
               ("--workers 2", "--dask local"),
               lambda two, dask: (f"{dask['mb_s'] / two['mb_s']:.2f}x of --workers 2",
                                  dask["mb_s"] >= TARGET_DASK_VS_WORKERS * two["mb_s"])),
        eval_target(r["eval"]),
        eval_target(r["eval_dev"]),
    ]


def extraction_target(r: dict, small: str) -> dict:
    name = (f"extraction alone (`extract_normalized`) on the same text >= "
            f"{TARGET_EXTRACT_MB_S:g} MB/s")
    st = r.get("stages") or {}
    rates = st.get("stages") or {}
    rate = rates.get("extract", {}).get("mb_s")
    if not rate:
        return {"target": name, "measured": "not measured (see Stages)", "ok": None}
    both = st["bytes"] / 1e6 / (rates["normalize"]["seconds"] + rates["extract"]["seconds"])
    return {"target": name, "measured": f"{rate:.2f} MB/s ({small}, bench/stages.py; with "
                                        f"normalize {both:.2f} MB/s)",
            "ok": rate >= TARGET_EXTRACT_MB_S}


def opencc_ratios(r: dict, small: str) -> dict:
    """Time per input byte over OpenCC t2s time per byte on the same decoded text (the small
    corpus): of the in-process pipeline (ingest to check, bench/stages.py) and of the wall
    time of a 1-process ``specextract run`` (median)."""
    st = r.get("stages") or {}
    if st.get("error") or not st.get("stages"):
        return {}
    opencc_s_per_byte = st["stages"]["opencc_t2s"]["seconds"] / st["bytes"]
    if not opencc_s_per_byte:
        return {}
    out = {"pipeline": st["pipeline_s"] / st["bytes"] / opencc_s_per_byte}
    one = r["throughput"][small]["1 process"]
    if one.get("valid"):
        out["run"] = one["median_wall_s"] / r["corpora"][small]["bytes"] / opencc_s_per_byte
    return out


def opencc_target(r: dict, small: str) -> dict:
    name = (f"end to end <= {TARGET_VS_OPENCC:g}x OpenCC t2s time on the same text "
            "(`specextract run` wall time, 1 process, per input byte / t2s time per byte)")
    ratios = opencc_ratios(r, small)
    if "run" not in ratios:
        return {"target": name, "measured": "not measured (see Warnings)", "ok": None}
    return {"target": name,
            "measured": f"{ratios['run']:.1f}x ({small}); pipeline ingest to check in one "
                        f"process (bench/stages.py): {ratios['pipeline']:.1f}x",
            "ok": ratios["run"] <= TARGET_VS_OPENCC}


def eval_target(ev: dict) -> dict:
    name = f"`make {ev['target']}` unchanged (vs {ev['baseline_file']})"
    if ev.get("absent"):
        return {"target": name, "measured": ev["first_line"], "ok": None}
    return {"target": name, "measured": ev["overall_line"] or "(no overall line)",
            "ok": ev["unchanged"] if ev["baseline_overall_line"] else None}


def warnings_of(r: dict) -> list[str]:
    out = []
    if r["code_digest_start"] != r["code_digest_end"]:
        out.append("the specextract source changed while the benchmark ran "
                   f"({r['code_digest_start']} -> {r['code_digest_end']}): figures mix versions")
    for label, cells in r["throughput"].items():
        for name, t in cells.items():
            bad = [s for s in t["runs"] if not s.get("ok")]
            if bad:
                out.append(f"{label} {name}: {len(bad)} of {len(t['runs'])} runs failed or lost "
                           f"documents (left out of the medians): {run_error(bad[0])}")
            if t.get("valid") and len(t["claims"]) > 1:
                out.append(f"{label} {name}: runs disagree on the number of claims {t['claims']}")
        counts = {tuple(t["claims"]) for t in cells.values() if t.get("valid")}
        if len(counts) > 1:
            out.append(f"{label}: executors disagree on the number of claims: "
                       + ", ".join(f"{n} {t['claims']}" for n, t in cells.items()
                                   if t.get("valid")))
    for key in ("profile", "sampling_profile", "stages", "recognizers"):
        if isinstance(r.get(key), dict) and r[key].get("error"):
            out.append(f"{key}: {r[key]['error']}")
    if (r.get("sampling_profile") or {}).get("fallback_reason"):
        out.append("no sampling profile (" + r["sampling_profile"]["fallback_reason"][:300]
                   + "): the cProfile is summarized in its place")
    for ev in (r["eval"], r["eval_dev"]):
        if ev["exit"] != 0:
            out.append(f"make {ev['target']} exited {ev['exit']}: {ev['stderr_tail'][-300:]}")
    return out


def fmt_table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_markdown(r: dict, previous: dict | None = None) -> str:
    m = r["machine"]
    small, large = r["labels"]
    L = [f"# specextract benchmark results{' (QUICK mode)' if r['quick'] else ''}", "",
         f"Generated by `make bench`{' with BENCH_QUICK=1' if r['quick'] else ''} on "
         f"{r['started']} in {r['duration_s'] / 60:.1f} min. Not a test: figures depend on the "
         "machine and its load. Raw data: `bench/results.json`; profiles: "
         "`bench/scaled/profiles/` (`python -m pstats FILE`).", ""]
    L += ["## Machine", "",
          f"- nproc {m['nproc']} (usable {m['usable_cpus']}), CPU: {m['cpu_model']}",
          f"- memory {m['mem_total_gib']} GiB; {m['platform']}",
          f"- Python {m['python']}; " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()
                                                 if v),
          f"- load average at start: {' / '.join(map(str, m['loadavg_start']))} (1/5/15 min); "
          f"at end: {' / '.join(map(str, r['loadavg_end']))}; highest 1-min load seen before "
          f"a timed run: {r['max_load_before_run']}",
          f"- code: specextract imported from `{r['code_path']}`, digest {r['code_digest_start']}"
          + (f"; git {m['git_commit']}" if m["git_commit"] else "")
          + (f", with uncommitted changes in {', '.join(m['src_modified'])}"
             if m["src_modified"] else (", src/ clean" if m["git_commit"] else ""))
          + (f" ({r['code_note']})" if r.get("code_note") else ""),
          f"- modules: {r.get('compiled') or 'n/a'} (specextract.compiled)", ""]
    L += ["## Corpora", "",
          "Generated by `bench/scale_corpus.py` (seed "
          f"{r['seed']}) from corpus/: articles mixed from paragraphs of same-script articles, "
          "sentences shuffled, every figure varied, chip names swapped among aliases. The "
          f"{small.split()[0]}-article corpus is the first {small.split()[0]} articles of the "
          "larger one.", ""]
    rows = []
    for label in r["labels"]:
        c = r["corpora"][label]
        ab = c["article_bytes"]
        rows.append([label, c["articles"], f"{c['mb']:.2f}", f"{ab['median']} / {ab['p95']} / "
                     f"{ab['max']}", ", ".join(f"{k} {v}" for k, v in c["by_script"].items()),
                     ", ".join(f"{k} {v}" for k, v in c["by_format"].items()),
                     c["sha256"][:12]])
    L += [fmt_table(["corpus", "articles", "MB", "bytes/article median / p95 / max", "scripts",
                     "formats", "sha256"], rows), ""]
    L += ["## Targets", "",
          f"Issue 16's targets, all from this run. End to end: the median wall time of "
          f"`specextract run` (start-up, batch, claims.csv, report) on the {large} corpus, "
          f"else the {small} one. Extraction alone and the ratios to OpenCC: on the {small} "
          f"corpus, whose decoded text bench/stages.py converts with OpenCC t2s in the same "
          "loop; the target applies to the `specextract run` ratio (the 1-process runs of "
          f"the {small} corpus), the in-process pipeline's (ingest, normalize, extract, rows, "
          "check; no store, no outputs) is beside it. n/a: not measured.", "",
          fmt_table(["target", "measured", "result"],
                    [[t["target"], t["measured"], verdict(t["ok"])] for t in r["targets"]]), ""]
    warns = warnings_of(r)
    if warns:
        L += ["## Warnings", ""] + [f"- {w}" for w in warns] + [""]
    L += tools_section(r)
    L += ["## End-to-end throughput", "",
          "`specextract run CORPUS --out FRESH --no-progress [...]`, wall time of the whole "
          "command (start-up, batch, claims.csv and the HTML report). MB = input bytes / 1e6. "
          f"Fixed cost of one invocation (one {r['startup']['file']}, median of "
          f"{len(r['startup']['walls'])}): {r['startup']['median_wall_s']:.2f} s with the "
          "compiled patterns kept from earlier runs"
          + (f", {r['startup']['cold_median_wall_s']:.2f} s without (SPECEXTRACT_CACHE=off)"
             if "cold_median_wall_s" in r["startup"] else "")
          + ". Runs go round-robin over the executors; on "
          f"the {large} corpus a run is skipped when its estimated time no longer fits "
          f"BENCH_LARGE_BUDGET ({LARGE_BUDGET:.0f} s; the first 1-process run always happens). "
          "CPU s: user + system time of the run and the processes it waited for (wait4), "
          "less sensitive to other load on the machine than the wall time.", ""]
    rows = []
    for label in r["labels"]:
        for name, t in r["throughput"][label].items():
            if not t.get("valid"):
                rows.append([label, name, 0] + ["-"] * 8
                            + ["skipped (time budget)" if t.get("skipped") else "no valid run"])
                continue
            rows.append([label, name, t["n"], f"{t['median_wall_s']:.2f} ({t['min_wall_s']:.2f}"
                         f"-{t['max_wall_s']:.2f})", f"{t['mb_s']:.3f}", f"{t['mb_s_per_core']:.3f}",
                         f"{t['articles_s']:.1f}", f"{t['median_cpu_s']:.1f}",
                         f"{t['median_maxrss_mb']:.0f}",
                         f"{t['median_tree_peak_rss_mb']:.0f}",
                         "/".join(str(c) for c in t["claims"]),
                         "yes" if not t["failed_runs"] else f"{t['failed_runs']} failed"])
    L += [fmt_table(["corpus", "executor", "runs", "wall s median (min-max)", "MB/s",
                     "MB/s per core", "articles/s", "CPU s (user+sys)",
                     "peak RSS MB (largest process)",
                     "peak RSS MB (process tree, sampled)", "claims", "all runs ok"], rows), ""]
    rows = []
    for label in r["labels"]:
        for name, t in r["throughput"][label].items():
            ph = t.get("median_phases", {})
            g = lambda k, f="{:.2f}": f.format(ph[k]) if k in ph else "-"  # noqa: E731
            rows.append([label, name, g("startup_s"), g("batch_s"), g("csv_s"), g("report_s"),
                         g("teardown_s"), g("rss_mb_after_batch", "{:.0f}"),
                         g("peak_mb_after_batch", "{:.0f}"), g("peak_mb_after_report", "{:.0f}")])
    L += ["Phases of the same runs (medians; marks set by bench/run_phases.py around "
          "`run_batch`, `write_csv` and `write_report`; RSS of the parent process):", "",
          fmt_table(["corpus", "executor", "start-up s", "batch s", "claims.csv s",
                     "report s", "after exit s", "RSS MB after batch", "peak MB after batch",
                     "peak MB after report"], rows), ""]
    one_s = r["throughput"][small]["1 process"]
    one_l = r["throughput"][large]["1 process"]
    ratio = r["corpora"][large]["articles"] / r["corpora"][small]["articles"]
    ps, pl = one_s.get("median_phases", {}), one_l.get("median_phases", {})
    L += ["## Memory", ""]
    if one_s.get("valid") and one_l.get("valid"):
        L += [f"1 process: peak RSS {one_s['median_maxrss_mb']:.0f} MB at {small}, "
              f"{one_l['median_maxrss_mb']:.0f} MB at {large} "
              f"({one_l['median_maxrss_mb'] / one_s['median_maxrss_mb']:.2f}x for {ratio:.0f}x the "
          "articles)."]
    if "peak_mb_after_batch" in ps and "peak_mb_after_batch" in pl:
        L += [f"Peak by the end of the batch (documents processed and stored): "
              f"{ps['peak_mb_after_batch']:.0f} MB at {small}, {pl['peak_mb_after_batch']:.0f} MB "
              f"at {large} ({pl['peak_mb_after_batch'] / ps['peak_mb_after_batch']:.2f}x); the "
              f"rest of the peak comes from claims.csv and the report, which read the whole "
              f"store."]
    L += [""]
    L += sampling_section(r, previous or {})
    L += profile_sections(r)
    for ev in (r["eval"], r["eval_dev"]):
        L += [f"## make {ev['target']}", ""]
        if ev.get("absent"):
            L += [f"Not run: `{ev['first_line']}`.", ""]
            continue
        L += ["```", ev["gold_line"], ev["overall_line"], "```", "",
              f"Baseline ({ev['baseline_file']}): `{ev['baseline_overall_line']}`; whole output "
              + ("identical." if ev["unchanged"] else f"differs in {ev['lines_changed']} lines:")]
        if not ev["unchanged"] and ev["changed_sample"]:
            L += ["", "```"] + ev["changed_sample"] + ["```"]
        L += [""]
    L += ["## Reproduce", "", "```sh", "make bench                 # full", 
          "BENCH_QUICK=1 make bench   # 200 / 1,000 articles, a few minutes",
          "python bench/scale_corpus.py --articles 1000 10000   # the corpora alone", "```", ""]
    return "\n".join(L)


def profile_sections(r: dict) -> list[str]:
    small = r["labels"][0]
    prof = r["profile"]
    L = ["## Where the time goes: profile of a 1-process run", ""]
    if prof.get("error"):
        return L + [f"The profile failed: {prof['error']}", ""]
    tot = prof["profiled_total_s"]
    L += [
          f"cProfile of `specextract run` over the {small} corpus (profiled wall "
          f"{prof['wall_s']:.1f} s, {tot:.1f} s inside the profiler; cProfile slows Python "
          "code roughly 1.5-2x, so read the shares, not the seconds). Cumulative time of "
          "`ingest.read_bytes` + `ingest.document_from_bytes`, `normalize.normalize`, "
          "`extract.extract_normalized`, `batch.checked_rows`, `Store.put_document` & co., "
          "`export.write_csv`, `report.write_report`.", ""]
    rows = sorted(prof["stages_s"].items(), key=lambda kv: -kv[1])
    L += [fmt_table(["stage", "seconds (profiled)", "share"],
                    [[k, f"{v:.2f}", f"{100 * v / tot:.1f}%"] for k, v in rows]), ""]
    L += ["Top 15 functions of the whole run by self time:", "",
          fmt_table(["function", "calls", "self s", "cumulative s"],
                    [[f"`{t['function']}`", t["calls"], f"{t['tottime_s']:.3f}",
                      f"{t['cumtime_s']:.3f}"] for t in prof["top_tottime"]]), ""]
    st = r["stages"]
    if st.get("error"):
        return L + ["## Stages in one process", "", f"Failed: {st['error']}", ""]
    L += ["## Stages in one process, without the store (bench/stages.py)", "",
          f"{st['articles']} articles of the {small} corpus, {st['bytes'] / 1e6:.2f} MB, "
          f"{st['claims']} claims; wall time per stage, unprofiled, after a warm-up. "
          f"Pipeline (ingest to check): {st['pipeline_s']:.2f} s = "
          f"{st['pipeline_mb_s']:.3f} MB/s. OpenCC t2s alone on the same decoded text, in "
          f"the same loop; normalize costs {st['normalize_vs_opencc']}x OpenCC.", ""]
    L += [stage_table(st), ""]
    sc = r.get("stages_corpus") or {}
    if sc.get("error"):
        L += [f"On corpus/: failed: {sc['error']}", ""]
    elif sc:
        L += [f"The same on corpus/ itself ({sc['articles']} articles, {sc['bytes'] / 1e6:.3f} MB, "
              f"{sc['claims']} claims), fastest of {sc['repeats']} passes: pipeline "
              f"{sc['pipeline_mb_s']:.3f} MB/s.", "",
              stage_table(sc), ""]
    dv = r.get("stages_devset") or {}
    if dv.get("error") or dv.get("absent"):
        L += [f"On the dev set's real articles: {dv.get('error') or dv.get('absent')}", ""]
    elif dv:
        L += [f"The same on the dev set's real web articles ({dv['articles']} articles, "
              f"{dv['bytes'] / 1e6:.3f} MB, {dv['claims']} claims; DEVSET/corpus), fastest of "
              f"{dv['repeats']} passes: pipeline {dv['pipeline_mb_s']:.3f} MB/s, extraction "
              f"{dv['stages']['extract']['mb_s']:.3f} MB/s.", "", stage_table(dv), ""]
    mixes = [(name, x) for name, x in ((f"{small} scaled", st), ("corpus/", sc),
                                       ("dev set (real articles)", dv))
             if x and x.get("verdicts")]
    if mixes:
        L += ["How much checking a claim takes depends on its verdict: a claim that is not "
              "supported is also diagnosed (another chip's figure, the sparse one, a slip of "
              "digits, ...). The scaled corpus varies every figure, so most of its claims "
              "are wrong, unlike real articles; its check stage weighs more than theirs:", "",
              fmt_table(["text", "claims", *VERDICTS_SHOWN, "check, share of the pipeline"],
                        [[name, x["claims"],
                          *[f"{100 * x['verdicts'].get(v, 0) / max(1, x['claims']):.0f}%"
                            for v in VERDICTS_SHOWN],
                          f"{100 * x['stages']['check']['share_of_pipeline']:.0f}%"]
                         for name, x in mixes]), ""]
    notes = {"report": f" (write_report over the store the profiled {small} run left)"}
    for stage in ("extract", "check", "report", "normalize"):
        if stage not in st["top"]:
            continue
        t = st["top"][stage]
        L += [f"### Inside {stage}{notes.get(stage, '')}: {t['root_cumtime_s']} s profiled", "",
              "Top 10 by cumulative time:", "",
              fmt_table(["function", "calls", "self s", "cumulative s", "% of stage"],
                        [[f"`{x['function']}`", x["calls"], f"{x['tottime_s']:.3f}",
                          f"{x['cumtime_s']:.3f}",
                          f"{100 * x['cumtime_s'] / t['root_cumtime_s']:.0f}%"
                          if t["root_cumtime_s"] else "-"] for x in t["by_cumulative"]]), "",
              "Top 10 by self time:", "",
              fmt_table(["function", "calls", "self s", "% of stage"],
                        [[f"`{x['function']}`", x["calls"], f"{x['tottime_s']:.3f}",
                          f"{100 * x['tottime_s'] / t['root_cumtime_s']:.0f}%"
                          if t["root_cumtime_s"] else "-"] for x in t["by_tottime"]]), ""]
    return L


def tools_section(r: dict) -> list[str]:
    """specextract's extraction and end to end beside OpenCC and Recognizers-Text, one table,
    all measured in this run."""
    small, large = r["labels"]
    st = r["stages"]
    L = ["## Beside other tools", ""]
    if st.get("error") or not st.get("stages"):
        return L + ["Not computed: the stage timing failed (see Warnings).", ""]
    opencc = st["stages"]["opencc_t2s"]["mb_s"]

    def row(tool: str, what: str, text: str, mb_s: float | None) -> list:
        return [tool, what, text, f"{mb_s:.3f}" if mb_s else "-",
                f"{opencc / mb_s:.1f}x" if mb_s else "-"]

    n_small = f"{small} corpus, {st['articles']} articles"
    rows = []
    for label in (small, large):
        one = r["throughput"][label]["1 process"]
        rows.append(row("specextract", "`specextract run`, 1 process, end to end (median)",
                        f"{label} corpus, {r['corpora'][label]['articles']} articles",
                        one["mb_s"] if one.get("valid") else None))
    rates = st["stages"]
    rows += [row("specextract", "pipeline in one process: ingest to check (bench/stages.py)",
                 n_small, st["pipeline_mb_s"]),
             row("specextract", "extraction alone (`extract_normalized`)", n_small,
                 rates["extract"]["mb_s"]),
             row("specextract", "normalize alone", n_small, rates["normalize"]["mb_s"]),
             row("OpenCC", "t2s conversion alone, on the decoded text", n_small, opencc)]
    dv = r.get("stages_devset") or {}
    if dv.get("stages"):   # real articles; the ratio to OpenCC on the same real text
        dv_text = f"dev set, {dv['articles']} real articles"
        dv_opencc = dv["stages"]["opencc_t2s"]["mb_s"]
        rows += [[tool, what, dv_text, f"{mb_s:.3f}", f"{dv_opencc / mb_s:.1f}x (its t2s)"]
                 for tool, what, mb_s in (
                     ("specextract", "pipeline in one process: ingest to check",
                      dv["pipeline_mb_s"]),
                     ("specextract", "extraction alone", dv["stages"]["extract"]["mb_s"]),
                     ("OpenCC", "t2s conversion alone", dv_opencc)) if mb_s]
    rec = r["recognizers"]
    per = st["per_article"]
    if rec.get("ok"):
        for name, mdl in rec["models"].items():
            n = mdl["articles"]
            ours_s = sum(a["ingest"] + a["normalize"] + a["extract"] + a["check"] + a["rows"]
                         for a in per[:n])
            ours = sum(a["bytes"] for a in per[:n]) / 1e6 / ours_s if ours_s else None
            text = f"first {n} articles of the {small} corpus"
            rows += [row("Recognizers-Text", f"{name} model (zh-cn)", text, mdl["mb_s"]),
                     row("specextract", "pipeline ingest to check on those articles", text,
                         ours)]
    L += [f"MB/s of input bytes, this run; the last column is time per byte over OpenCC t2s "
          f"time per byte on the {small} corpus.", "",
          fmt_table(["tool", "what", "text", "MB/s", "time / OpenCC t2s time"], rows), ""]
    if rec.get("ok"):
        L += [f"Recognizers-Text {', '.join(f'{k} {v}' for k, v in rec['versions'].items())}, "
              f"Culture.Chinese over every article (English ones included), the first articles "
              f"of the {small} corpus in order until {RECOG_BUDGET:g} s per model (after one "
              f"untimed warm-up parse); its MB/s count the UTF-8 bytes of the text it parsed. "
              "Results returned: "
              + ", ".join(f"{k} {v['results']}" for k, v in rec["models"].items())
              + f". Model set-up: {rec['setup_seconds']} s (not counted).", ""]
    else:
        L += ["Recognizers-Text could not be run: `" + rec.get("failed_command", "?") + "` "
              f"exited {rec.get('exit')}:", "", "```", rec.get("error", "").strip()[-1500:],
              "```", ""]
    return L


def sampling_section(r: dict, previous: dict) -> list[str]:
    """The sampling profile's top frames, and beside the previous run's when it has one."""
    sp = r.get("sampling_profile") or {}
    L = ["## Sampling profile of a 1-process run", ""]
    if sp.get("error"):
        return L + [f"Not recorded: {sp['error']}", ""]
    if sp["tool"] == "cProfile":
        L += [f"py-spy could not record ({sp['fallback_reason'][:300]}), so this is the cProfile "
              f"of the previous section's run (`{sp['raw']}`): self = time in the function "
              "itself, inclusive = cumulative time, share of the profiled total "
              f"({sp['total']} s).", ""]
    else:
        native = " --native" if sp.get("native") else ""
        L += [f"`py-spy record -r {sp['rate']} -F -f raw{native} -- python -m specextract run "
              f"CORPUS --out FRESH --no-progress` over the {sp['corpus']} corpus "
              f"({sp['total']} samples in {sp['wall_s']:.1f} s, {sp['tool']}); raw folded "
              f"stacks in `{sp['raw']}`. Self: samples in which the frame itself was running; "
              "inclusive: samples in which it was anywhere on the stack. Files as under src/ "
              "(or site-packages), with the function's first line."
              + (" \"(compiled)\": a compiled module's function, named from its C symbol "
                 "(bench/sampling.py). Other C frames (the interpreter, the regex engine, "
                 "SQLite, the C library) count towards the code frame that called them; the "
                 "last table says what runs in the samples whose innermost frame is C."
                 if native else " Without --native (it failed), a compiled function's time "
                 "counts towards the Python frame that called it."), ""]
    L += ["Top 20 by self samples:", "",
          fmt_table(["function", "file", "share"],
                    [[f"`{x['function']}`", x["file"], f"{100 * x['share']:.1f}%"]
                     for x in sp["self"][:20]]), "",
          "Top 25 by inclusive samples:", "",
          fmt_table(["function", "file", "share"],
                    [[f"`{x['function']}`", x["file"], f"{100 * x['share']:.1f}%"]
                     for x in sp["inclusive"][:25]]), ""]
    if sp.get("native"):
        L += ["Samples whose innermost frame is C, by what runs there (by symbol and "
              "library; the Python runtime: object, reference-count, dict and string "
              "operations of the interpreter and of compiled code):", "",
              fmt_table(["what", "share of all samples"],
                        [[x["what"], f"{100 * x['share']:.1f}%"] for x in sp["native"]]), ""]
    old = previous.get("sampling_profile") or {}
    where = f"The previous bench/results.json (`make bench` of {previous.get('started', '?')})"
    if os.environ.get("BENCH_PROFILE_BEFORE"):  # a results.json or a bare summary to compare with
        path = os.environ["BENCH_PROFILE_BEFORE"]
        data = json.loads(Path(path).read_text())
        old = data.get("sampling_profile", data)
        where = f"`{path}` (git {old.get('git', '?')}, {old.get('corpus', '?')} corpus)"
    L += ["### Before and after", ""]
    if not old.get("self"):
        return L + ["The previous bench/results.json holds no sampling profile; the next run "
                    "shows this one beside its own (or: `python bench/profile_diff.py "
                    "OLD_results.json bench/results.json`).", ""]
    L += [f"{where} beside this run; `python bench/profile_diff.py OLD_results.json "
          "NEW_results.json` prints the same for any two runs.", ""]
    return L + diff_tables(old, sp, 20)


def previous_results() -> dict:
    """bench/results.json as the previous run left it ({} when absent or unreadable)."""
    try:
        return json.loads((BENCH / "results.json").read_text())
    except (OSError, ValueError):
        return {}


def guarded(fn, *args) -> dict:
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - a broken stage must not lose the other figures
        log(f"  {fn.__name__} failed: {type(exc).__name__}: {exc}")
        return {"error": f"{type(exc).__name__}: {exc}"[:1000]}


def code_digest() -> tuple[str, str]:
    """Where specextract is imported from (in a fresh process) and a digest of its files."""
    where = subprocess.run([sys.executable, "-c", "import specextract, os; "
                            "print(os.path.dirname(specextract.__file__))"],
                           capture_output=True, text=True, cwd=ROOT).stdout.strip()
    h = __import__("hashlib").sha256()
    if where:
        for p in sorted(Path(where).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(where)).encode() + b"\0" + p.read_bytes())
    return where, h.hexdigest()[:12]


# --- main --------------------------------------------------------------------------------------
def main() -> int:
    t_start = time.perf_counter()
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    log(f"{'QUICK' if QUICK else 'full'} mode; sizes {SIZES}; load {os.getloadavg()}")
    r: dict = {"quick": QUICK, "started": started, "seed": SEED, "machine": machine_info()}
    r["code_path"], r["code_digest_start"] = code_digest()
    r["code_note"] = os.environ.get("BENCH_CODE_NOTE", "")
    r["compiled"] = subprocess.run([sys.executable, "-m", "specextract.compile_modules", "status"],
                                   capture_output=True, text=True).stdout.strip()
    SCALED.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(SCALED / "runs", ignore_errors=True)
    prof_dir = SCALED / "profiles"
    shutil.rmtree(prof_dir, ignore_errors=True)
    prof_dir.mkdir(parents=True)
    # every process of this bench keeps its compiled patterns in a folder of its own, emptied
    # here: the first process compiles them, the later ones read them (as a user's runs do)
    cache = SCALED / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    os.environ["SPECEXTRACT_CACHE"] = str(cache)

    log("Recognizers-Text environment")
    install = ensure_recognizers()
    if not install["ok"]:
        log(f"  could not install: {install.get('error', '')[-300:]}")

    log("corpora")
    folders, labels = {}, []
    for n in SIZES:
        folder = scale_corpus.build(n, SEED, SCALED)
        label = f"{n // 1000}k" if n % 1000 == 0 else str(n)
        folders[label] = folder
        labels.append(label)
    r["labels"] = labels
    r["corpora"] = {lab: scale_corpus.manifest_of(f) for lab, f in folders.items()}
    small, large = labels

    log("make eval")
    r["eval"] = run_eval()
    log(f"  {r['eval']['overall_line']} (unchanged: {r['eval']['unchanged']})")
    log("make eval-dev")
    r["eval_dev"] = run_eval("eval-dev", "eval_dev_baseline.txt")
    log(f"  {r['eval_dev']['first_line'] if r['eval_dev']['absent'] else r['eval_dev']['overall_line']}"
        f" (unchanged: {r['eval_dev']['unchanged']})")

    log("start-up cost")
    r["startup"] = startup_cost()

    r["throughput"] = {}
    log(f"end-to-end on {small}: {RUNS} rounds")
    r["throughput"][small] = throughput(folders[small], r["corpora"][small], RUNS, None)
    log(f"end-to-end on {large}: up to {RUNS} rounds within a {LARGE_BUDGET:.0f}s budget")
    scale = r["corpora"][large]["bytes"] / r["corpora"][small]["bytes"]
    estimates = {name: t["median_wall_s"] * scale for name, t in r["throughput"][small].items()
                 if t.get("valid")}
    r["throughput"][large] = throughput(folders[large], r["corpora"][large], RUNS, LARGE_BUDGET,
                                        estimates)
    r["max_load_before_run"] = max(s["load1_before"] for lab in labels
                                   for t in r["throughput"][lab].values() for s in t["runs"])

    log(f"profile of a 1-process run on {small}")
    r["profile"] = guarded(run_profile, folders[small], prof_dir)
    log(f"sampling profile of a 1-process run on {small}")
    r["sampling_profile"] = guarded(sampling_profile, folders[small], prof_dir,
                                    r["corpora"][small], small)
    log(f"stages in one process on {small}")
    r["stages"] = guarded(stage_profiles, folders[small], prof_dir)
    log("stages in one process on corpus/")
    r["stages_corpus"] = guarded(corpus_stages, prof_dir)
    log("stages in one process on the dev set's real articles")
    r["stages_devset"] = guarded(devset_stages, prof_dir)
    log("Recognizers-Text")
    r["recognizers"] = run_recognizers(folders[small], install)

    r["code_digest_end"] = code_digest()[1]
    r["targets"] = evaluate_targets(r)
    r["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    r["duration_s"] = round(time.perf_counter() - t_start, 1)
    previous = previous_results()
    (BENCH / "results.json").write_text(json.dumps(r, indent=1) + "\n")
    (BENCH / "RESULTS.md").write_text(write_markdown(r, previous))
    shutil.rmtree(SCALED / "runs", ignore_errors=True)
    for t in r["targets"]:
        log(f"{verdict(t['ok']):4s} {t['target']}: {t['measured']}")
    for w in warnings_of(r):
        log(f"WARNING {w}")
    log(f"done in {r['duration_s'] / 60:.1f} min: bench/RESULTS.md, bench/results.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
