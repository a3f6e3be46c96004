"""Top frames of two sampling profiles side by side (before / after a change).

    python bench/profile_diff.py OLD.json NEW.json [N]

OLD and NEW are bench/results.json files of two ``make bench`` runs (their
``sampling_profile``) or bare summaries as bench/sampling.py writes them. Prints, for the
frames in the top N (20) by self samples and by inclusive samples of either run, the share
of all samples before and after and the seconds per MB of input (samples / rate / MB), which
moves with the frame's own cost while the share also moves when other frames change.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sampling import side_by_side  # noqa: E402


def load_summary(path: Path) -> dict:
    data = json.loads(path.read_text())
    summary = data.get("sampling_profile", data)
    if not summary.get("self"):
        raise SystemExit(f"{path}: no sampling profile summary")
    return summary


def per_mb(summary: dict) -> float | None:
    """Seconds per MB of input that one count (sample or second) stands for."""
    mb = summary.get("bytes", 0) / 1e6
    if not mb:
        return None
    rate = summary.get("rate") if summary.get("unit") == "samples" else 1.0
    return 1 / rate / mb if rate else None


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def secs(share: float | None, summary: dict) -> str:
    unit = per_mb(summary)
    if share is None or unit is None:
        return "-"
    return f"{share * summary['total'] * unit:.3f}"


def diff_tables(old: dict, new: dict, n: int = 20) -> list[str]:
    """Markdown lines: one table per kind (self, inclusive)."""
    lines = [f"Before: {describe(old)}. After: {describe(new)}. `-`: not among the frames "
             "that run kept.", ""]
    for kind in ("self", "inclusive"):
        rows = side_by_side(old, new, kind, n)
        lines += [f"Top {n} by {kind} samples, before or after:", "",
                  "| function | file | before | after | before s/MB | after s/MB |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| `{r['function']}` | {r['file']} | {pct(r['before'])} | {pct(r['after'])} "
                  f"| {secs(r['before'], old)} | {secs(r['after'], new)} |" for r in rows]
        lines.append("")
    return lines


def describe(s: dict) -> str:
    what = s.get("tool", "?")
    where = f", git {s['git']}" if s.get("git") else ""
    return f"{what}, {s.get('total')} {s.get('unit', 'samples')} over {s.get('corpus', '?')}{where}"


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    n = int(argv[2]) if len(argv) > 2 else 20
    print("\n".join(diff_tables(load_summary(Path(argv[0])), load_summary(Path(argv[1])), n)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
