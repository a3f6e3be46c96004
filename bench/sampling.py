"""Summaries of a sampling profile of ``specextract run`` (used by bench/bench.py and
bench/profile_diff.py).

A raw profile is folded stacks, one line per distinct stack, outermost frame first::

    main (specextract/cli/__init__.py:15);run_job (specextract/batch/job.py:48) 12

(``py-spy record -F -f raw``: each frame is ``function (file:first line)``, the last field the
number of samples). A summary counts, per frame, the samples it was running in itself
(self) and the samples it was anywhere on the stack (inclusive, a recursive frame counted
once per sample), and keeps the largest ``keep`` of each with their share of all samples.
A cProfile of the same command gives a summary of the same shape (self = tottime,
inclusive = cumtime, in seconds instead of samples) when sampling is not possible.
"""
from __future__ import annotations

from collections import Counter

NO_FRAME = ("(no Python frame)", "")


def short_file(path: str) -> str:
    """A file as it sits under src/ (``specextract/extract/prose.py``), under site-packages,
    or as given (already short, ``<frozen runpy>``)."""
    p = path.replace("\\", "/")
    for marker in ("/src/", "/site-packages/"):
        if marker in p:
            return p.rsplit(marker, 1)[1]
    return p


def frame_key(frame: str) -> tuple[str, str]:
    """``(function, file:line)`` of one folded-stack frame; the frame itself when it has no
    ``(file)`` part."""
    frame = frame.strip()
    function, paren, rest = frame.rpartition(" (")
    if not paren or not rest.endswith(")"):
        return frame, ""
    file, colon, line = rest[:-1].rpartition(":")
    if not (colon and line.isdigit()):
        return function, short_file(rest[:-1])
    return function, f"{short_file(file)}:{line}"


def parse_folded(text: str) -> list[tuple[list[str], int]]:
    """``(frames outermost first, samples)`` per line of a folded-stack file (no frames: the
    samples caught no Python code running, e.g. during start-up); lines without a trailing
    count are skipped."""
    out = []
    for line in text.splitlines():
        stack, _, count = line.strip().rpartition(" ")
        if count.isdigit():
            out.append((stack.split(";") if stack.strip() else [], int(count)))
    return out


def summarize_folded(text: str, keep: int = 100) -> dict:
    """Self and inclusive samples per frame of a folded-stack profile."""
    self_n: Counter = Counter()
    incl_n: Counter = Counter()
    total = 0
    for frames, n in parse_folded(text):
        keys = [frame_key(f) for f in frames] or [NO_FRAME]
        total += n
        self_n[keys[-1]] += n
        for k in set(keys):
            incl_n[k] += n
    return {"unit": "samples", "total": total,
            "self": top_rows(self_n, total, keep), "inclusive": top_rows(incl_n, total, keep)}


def summarize_pstats(stats: dict, keep: int = 100) -> dict:
    """The same shape from ``pstats.Stats(...).stats`` (seconds instead of samples)."""
    self_s: Counter = Counter()
    incl_s: Counter = Counter()
    for (file, line, func), (_cc, _nc, tt, ct, _callers) in stats.items():
        if "_lsprof.Profiler" in func:
            continue
        key = (func, f"{short_file(file)}:{line}" if file != "~" else "(built-in)")
        self_s[key] += tt
        incl_s[key] = max(incl_s[key], ct)
    total = max([sum(self_s.values())] + list(incl_s.values()) or [0.0])
    return {"unit": "seconds", "total": round(total, 4),
            "self": top_rows(self_s, total, keep), "inclusive": top_rows(incl_s, total, keep)}


def top_rows(counts: Counter, total: float, keep: int) -> list[dict]:
    """The ``keep`` largest counts, largest first (ties by function and file)."""
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:keep]
    return [{"function": f, "file": file, "count": round(c, 4) if isinstance(c, float) else c,
             "share": round(c / total, 5) if total else 0.0} for (f, file), c in rows]


def side_by_side(old: dict, new: dict, kind: str, n: int) -> list[dict]:
    """Frames in the top ``n`` by ``kind`` ("self" or "inclusive") of either summary, with
    their share before and after (None: not among the frames the summary kept), largest
    share either side first."""
    def by_frame(s: dict) -> dict:
        return {(r["function"], r["file"]): r["share"] for r in s.get(kind, [])}

    before, after = by_frame(old), by_frame(new)
    frames = [(r["function"], r["file"]) for s in (old, new) for r in s.get(kind, [])[:n]]
    seen: dict = {}
    for k in frames:
        seen.setdefault(k, max(before.get(k) or 0.0, after.get(k) or 0.0))
    order = sorted(seen, key=lambda k: (-seen[k], k))
    return [{"function": f, "file": file, "before": before.get((f, file)),
             "after": after.get((f, file))} for f, file in order]
