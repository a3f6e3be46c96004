"""Microsoft Recognizers-Text over the benchmark articles (run by bench/bench.py).

Runs in its own environment, bench/.venv-recognizers (recognizers-text-number,
recognizers-text-number-with-unit, emoji<2), never in the project's:

    bench/.venv-recognizers/bin/python bench/recognizers_bench.py LIST.txt BUDGET_S

LIST.txt names the article files, one a line, in the order bench.py runs them. For each
model (Culture.Chinese: number, dimension, currency) it parses whole articles in that order
until BUDGET_S seconds have been spent on that model (at least one article), after one
untimed warm-up parse, and prints JSON: per model the articles and UTF-8 bytes parsed, the
seconds, MB/s and how many results it returned.
"""
from __future__ import annotations

import json
import sys
import time
from importlib import metadata
from pathlib import Path


def main(argv: list[str]) -> int:
    paths = [Path(line) for line in Path(argv[0]).read_text().splitlines() if line.strip()]
    budget = float(argv[1])
    t0 = time.perf_counter()
    from recognizers_number import NumberRecognizer
    from recognizers_number_with_unit import NumberWithUnitRecognizer
    from recognizers_text import Culture
    number = NumberRecognizer(Culture.Chinese)
    unit = NumberWithUnitRecognizer(Culture.Chinese)
    models = {"number": number.get_number_model(),
              "dimension": unit.get_dimension_model(),
              "currency": unit.get_currency_model()}
    setup = time.perf_counter() - t0
    texts = [p.read_bytes().decode("utf-8-sig") for p in paths]
    out = {"culture": Culture.Chinese, "setup_seconds": round(setup, 3), "models": {},
           "versions": {}}
    for dist in ("recognizers-text", "recognizers-text-number",
                 "recognizers-text-number-with-unit", "emoji", "regex"):
        try:
            out["versions"][dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    for name, model in models.items():
        model.parse(texts[0])  # warm-up: the first parse compiles the patterns
        spent = 0.0
        n = nbytes = found = 0
        for text in texts:
            t = time.perf_counter()
            found += len(model.parse(text))
            spent += time.perf_counter() - t
            n += 1
            nbytes += len(text.encode("utf-8"))
            if spent >= budget:
                break
        out["models"][name] = {"articles": n, "bytes": nbytes, "seconds": round(spent, 4),
                               "mb_s": round(nbytes / 1e6 / spent, 4) if spent else None,
                               "results": found}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
