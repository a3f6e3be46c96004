"""Normalization throughput beside OpenCC's conversion alone (not a timed test).

Builds a corpus of a few MB from corpus/ (every article repeated with its numbers
varied), normalizes it article by article, and converts the same articles with
OpenCC's t2s alone. Prints MB/s (UTF-8 bytes) and the ratio; writes bench/normalize.json.

    python bench/bench_normalize.py [--mb 4] [--repeat 5]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from pathlib import Path

import opencc

from specextract.ingest.read import read_document
from specextract.normalize.text import normalize

ROOT = Path(__file__).resolve().parents[1]


def build_corpus(target_mb: float, seed: int = 7) -> list[str]:
    """Articles from corpus/, repeated with digits varied until ``target_mb`` is reached."""
    rng = random.Random(seed)
    base = [read_document(p).text for p in sorted((ROOT / "corpus").iterdir()) if p.is_file()]
    out, size = [], 0
    while size < target_mb * 1e6:
        text = re.sub(r"\d", lambda m: str(rng.randrange(10)), rng.choice(base))
        out.append(text)
        size += len(text.encode("utf-8"))
    return out


def best_rate(fn, docs: list[str], repeat: int) -> float:
    """Median MB/s over ``repeat`` passes."""
    mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for d in docs:
            fn(d)
        times.append(time.perf_counter() - t0)
    return mb / statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=4.0)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    docs = build_corpus(args.mb)
    normalize(docs[0])  # warm caches (script classes, tables)
    t2s = opencc.OpenCC("t2s")
    ours = best_rate(normalize, docs, args.repeat)
    floor = best_rate(t2s.convert, docs, args.repeat)
    result = {"corpus_mb": round(sum(len(d.encode()) for d in docs) / 1e6, 2),
              "articles": len(docs), "normalize_mb_s": round(ours, 2),
              "opencc_t2s_mb_s": round(floor, 2), "cost_vs_opencc": round(floor / ours, 2)}
    (ROOT / "bench" / "normalize.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"corpus: {result['corpus_mb']} MB in {len(docs)} articles")
    print(f"normalize:        {ours:7.2f} MB/s")
    print(f"OpenCC t2s alone: {floor:7.2f} MB/s")
    print(f"normalize costs {result['cost_vs_opencc']}x OpenCC alone (goal: at most 3x)")


if __name__ == "__main__":
    main()
