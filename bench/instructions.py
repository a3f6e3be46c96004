"""Instructions per pass of one stage, counted by valgrind: a measure of the code's cost
that does not move with the machine's load or clock.

    python bench/instructions.py extract corpus               # million instructions per pass
    python bench/instructions.py check corpus --src OTHER/src  # another checkout's code
    python bench/instructions.py --passes 3 extract FOLDER

Runs ``valgrind --tool=cachegrind --cache-sim=no`` on this script's ``pass`` mode twice,
with 0 and with N passes of the stage over the articles of FOLDER (after a warm-up pass),
and prints the difference divided by N: start-up, imports and the warm-up cancel out
(the source is compiled to .pyc first, so that both runs load the same bytecode).
``extract`` is ``extract_normalized`` over every article; ``check`` is ``checked_rows`` over
every article's claims (the reference table's memoized selections stay warm, as they do
from one document to the next in a run). Counts repeat
within about 1% (PYTHONHASHSEED is fixed, the cyclic garbage collector is off while
the passes run). Needs valgrind (Debian: ``apt-get install
valgrind``); about a minute per count on corpus/.
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("extract", "check")


def run_passes(stage: str, folder: Path, passes: int) -> None:
    """The measured program: load, warm up, then ``passes`` passes of ``stage``."""
    from specextract.batch.run import checked_rows
    from specextract.extract.claims import extract_normalized
    from specextract.ingest.read import document_from_bytes, read_bytes
    from specextract.normalize.text import normalize
    from specextract.check.reference import load_reference

    ref = load_reference()
    docs = []
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.name.startswith("."):
            doc = document_from_bytes(p, read_bytes(p))
            docs.append((doc, normalize(doc.text)))
    claims = [extract_normalized(d.text, n, d.doc_id) for d, n in docs]
    rows = [[c.as_row() for c in cs] for cs in claims]
    for r in rows:
        checked_rows(r, ref)
    gc.collect()
    gc.disable()  # when the cyclic collector runs depends on allocations: it blurs the count
    for _ in range(passes):
        if stage == "extract":
            for d, n in docs:
                extract_normalized(d.text, n, d.doc_id)
        else:
            for r in rows:
                checked_rows(r, ref)


def count(stage: str, folder: Path, passes: int, src: Path) -> int:
    """Instructions valgrind counts for a run of ``passes`` passes."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(src)}
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "pass", stage, str(folder), str(passes)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"valgrind failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str]) -> int:
    if argv[:1] == ["pass"]:
        run_passes(argv[1], Path(argv[2]), int(argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=STAGES)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--src", type=Path, default=ROOT / "src",
                    help="the specextract source to measure (default: this checkout's)")
    args = ap.parse_args(argv)
    # compile every module first: a module compiled inside the 0-pass run and loaded from
    # its .pyc in the next one would lower the per-pass figure by its compile time
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(args.src.resolve())],
                   check=True, capture_output=True)
    base = count(args.stage, args.folder.resolve(), 0, args.src.resolve())
    more = count(args.stage, args.folder.resolve(), args.passes, args.src.resolve())
    per_pass = (more - base) / args.passes
    print(f"{args.stage} over {args.folder} ({args.src}): {per_pass / 1e6:.0f} M instructions "
          f"per pass")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
