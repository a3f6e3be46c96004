"""Fuzz the whole document pipeline: bytes -> decode (-> HTML text) -> extract -> check.

    make fuzz                        # FUZZ_SECONDS=120 by default
    python tests/fuzz_pipeline.py --seconds 300 [--out out/fuzz]

Each input is a file: its first byte picks the suffix (.txt, .md, .html), the rest is its
content. The document goes through the batch runner's steps (``decode_document``,
``extract_blocks`` with small blocks so that cuts are exercised too, ``check``) and must
end in a DocumentError with a known reason, or in claims whose offsets point at their
surface and whose verdicts are among the four. Anything else is a failure: its input and
traceback are saved under OUT/failures/ (one per distinct place) and the run goes on;
an input slower than --slow seconds is saved under OUT/slow/. Seeds: corpus/ and a few
hostile samples, and figures spoofed with group separators, digits of other systems,
combining marks and bidi controls (``spoof_round``, run first: each must read as the
figure written, with a note where one is due). With atheris (coverage-guided, libFuzzer) when it is installed, else a
random mutator over the seeds. Prints a summary; exits 1 when something failed.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".txt", ".md", ".html")
REASONS = {"binary", "undecodable", "empty", "too-large"}


class Target:
    """The function under fuzzing, with its bookkeeping."""

    def __init__(self, out: Path, slow: float) -> None:
        from specextract.extract.blocks import extract_blocks
        from specextract.check.checker import check
        from specextract.errors import DocumentError
        from specextract.ingest.read import decode_document
        from specextract.codebook import VERDICTS
        self.steps = (decode_document, extract_blocks, check, DocumentError, VERDICTS)
        self.out, self.slow = out, slow
        self.stats: Counter = Counter()
        self.failures: dict[str, str] = {}
        self.slowest: list[tuple[float, str]] = []
        self.started = time.monotonic()
        self.deadline: float | None = None   # atheris: stop here (it skips atexit)

    def __call__(self, data: bytes) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            print(self.summary(time.monotonic() - self.started), flush=True)
            os._exit(1 if self.failures else 0)
        decode_document, extract_blocks, check, DocumentError, VERDICTS = self.steps
        suffix = SUFFIXES[data[0] % len(SUFFIXES)] if data else ".txt"
        started = time.perf_counter()
        self.stats["inputs"] += 1
        try:
            try:
                doc, repairs = decode_document(f"fuzz{suffix}", data[1:])
            except DocumentError as exc:
                assert exc.reason in REASONS, exc.reason
                self.stats[f"rejected: {exc.reason}"] += 1
                return
            self.stats["repaired" if repairs else "decoded"] += 1
            claims, _ = extract_blocks(doc, 4000, 1000)
            for c in claims:
                assert 0 <= c.start < c.end <= len(doc.text), (c.start, c.end)
                assert doc.text[c.start:c.end] == c.surface, (c.surface, c.start, c.end)
            checked = check(claims)
            assert all(c.verdict in VERDICTS for c in checked)
            self.stats["claims"] += len(claims)
        except Exception:  # noqa: BLE001 - record, keep fuzzing
            self._failure(data)
        finally:
            seconds = time.perf_counter() - started
            if seconds > self.slow:
                self._save("slow", data, f"{seconds:.2f} s for {len(data)} bytes\n")
                self.slowest.append((seconds, hashlib.sha1(data).hexdigest()[:12]))

    def _failure(self, data: bytes) -> None:
        tb = traceback.format_exc()
        frame = traceback.extract_tb(sys.exc_info()[2])[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno} {sys.exc_info()[0].__name__}"
        self.stats["failures"] += 1
        if where not in self.failures:
            self.failures[where] = self._save("failures", data, tb)

    def _save(self, kind: str, data: bytes, note: str) -> str:
        folder = self.out / kind
        folder.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()[:16]
        (folder / f"{name}.bin").write_bytes(data)
        (folder / f"{name}.txt").write_text(note, encoding="utf-8")
        return str(folder / f"{name}.bin")

    def summary(self, seconds: float) -> str:
        lines = [f"fuzzed {self.stats['inputs']} inputs in {seconds:.0f} s: "
                 + ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items()) if k != "inputs")]
        lines += [f"FAILURE {where}: {path}" for where, path in self.failures.items()]
        for seconds_, name in sorted(self.slowest, reverse=True)[:10]:
            lines.append(f"slow: {seconds_:.2f} s ({self.out / 'slow' / name[:12]}...)")
        return "\n".join(lines)


# number spoofing: a figure written with group separators, digits of another system,
# combining marks or bidi controls must read as the figure (or, under bidi controls, be
# noted on the document)
SPOOF_TEMPLATES = (  # (text, smallest and largest figure, decimals allowed): plausible
    ("The NVIDIA A100 delivers {} TFLOPS of FP16 performance.\n", 1000, 39_999, True),
    ("英伟达 A100 的单精度算力为 {} TFLOPS。\n", 1000, 4_999, True),
    ("The NVIDIA A100 has {} transistors.\n", 1_000_000, 999_999_999_999, False),
    ("英伟达 A100 拥有 {} 个晶体管。\n", 1_000_000, 999_999_999_999, False))


def spoof_case(rng: random.Random) -> tuple[str, str, bool]:
    """(text, the figure it states, whether a note is due)."""
    from specextract.lexicon.lexicon import default_lexicon
    from specextract.normalize.numerals import number_chars
    chars = number_chars(default_lexicon())
    template, lo, hi, fraction = rng.choice(SPOOF_TEMPLATES)
    whole = rng.randint(lo, hi)
    groups = f"{whole:,}".split(",")
    sep = rng.choice([",", " ", "\u00a0", "\u202f", "\u2009", "'", "\u2019"])
    decimals = rng.choice(["", ".5", ".25"]) if fraction else ""
    written = sep.join(groups) + decimals
    noted = False
    if rng.random() < 0.4:
        zero = rng.choice(sorted({k - int(v) for k, v in chars.digits.items()}))
        written = "".join(chr(zero + int(c)) if c.isdigit() else c for c in written)
        noted = True
    if rng.random() < 0.3:
        at = rng.choice([i for i in range(1, len(written)) if written[i - 1].isdigit()])
        written = written[:at] + rng.choice("\u0303\u0301\u20d7") + written[at:]
        noted = True
    if rng.random() < 0.2:
        written = rng.choice(["\u2066", "\u200e", "\u202a", "\u202e"]) + written + rng.choice(
            ["\u2069", "\u200e", "\u202c"])
        noted = True
    return template.format(written), f"{whole}{decimals}", noted


def spoof_round(cases: int, seed: int = 0) -> list[str]:
    """Problems found over ``cases`` generated spoofed figures (empty: none)."""
    from decimal import Decimal
    from specextract.extract.document import process_document
    from specextract.normalize.numerals import number_notes
    from specextract.records import Document
    rng, problems = random.Random(seed), []
    for _ in range(cases):
        text, figure, noted = spoof_case(rng)
        claims = process_document(Document("s", "s.txt", "utf-8", "txt", text)).claims
        values = [c.value for c in claims]
        if values != [Decimal(figure)]:
            problems.append(f"{text.strip()!r}: read {values}, written {figure}")
        if noted != bool(number_notes(text)):
            problems.append(f"{text.strip()!r}: note {'missing' if noted else 'unexpected'}")
    return problems


def seeds() -> list[bytes]:
    """corpus/ articles and hostile samples, each with a suffix byte."""
    out = []
    for i, path in enumerate(sorted((ROOT / "corpus").iterdir())):
        if path.is_file():
            out.append(bytes([SUFFIXES.index(".html") if path.suffix == ".html" else i % 2])
                       + path.read_bytes()[:20_000])
    text = "英伟达 A100 的显存为 80GB，带宽 2TB/s，FP32 19.5 TFLOPS。\n"
    out += [b"\x00" + text.encode() + "輝達 V100 頻寬 900 GB/s。\n".encode("big5hkscs"),
            b"\x00" + text.encode("gb18030") + text.encode(),
            b"\x00\xff\xfe" + text.encode("utf-16-le"), b"\x00" + text.encode()[:-2],
            b"\x02" + b"<table><tr><td>A100</td><td>80GB</td></tr></table><script>x",
            b"\x00" + b"| A100 | 80GB | 2TB/s |\n|---|---|---|\n" * 5, b"\x00" + b" " * 500 + b"1"]
    rng = random.Random(1)
    out += [b"\x00" + spoof_case(rng)[0].encode() * 3 for _ in range(20)]
    return out


def run_atheris(target: Target, seconds: int, seed_dir: Path, max_len: int) -> None:
    import atheris
    seed_dir.mkdir(parents=True, exist_ok=True)
    for data in seeds():
        (seed_dir / hashlib.sha1(data).hexdigest()).write_bytes(data)
    crash_dir = target.out / "libfuzzer"
    crash_dir.mkdir(parents=True, exist_ok=True)
    target.deadline = time.monotonic() + seconds
    args = [sys.argv[0], str(seed_dir), f"-max_total_time={seconds + 120}", f"-max_len={max_len}",
            "-timeout=60", f"-artifact_prefix={crash_dir}/", "-print_final_stats=1"]
    atheris.Setup(args, target)
    atheris.Fuzz()


def run_random(target: Target, seconds: int, max_len: int, seed: int = 0) -> None:
    """Without atheris: byte-level mutations (flips, inserts, splices, repeats) of seeds."""
    rng, pool = random.Random(seed), seeds()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data = bytearray(rng.choice(pool))
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(len(data) + 1)
            kind = rng.randrange(4)
            if kind == 0 and data:
                data[min(pos, len(data) - 1)] = rng.randrange(256)
            elif kind == 1:
                data[pos:pos] = rng.randbytes(rng.randint(1, 8))
            elif kind == 2:
                other = rng.choice(pool)
                start = rng.randrange(len(other))
                data[pos:pos] = other[start:start + rng.randint(1, 200)]
            else:
                chunk = data[pos:pos + rng.randint(1, 12)] or b" "
                data[pos:pos] = chunk * rng.randint(2, 500)
        target(bytes(data[:max_len]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "fuzz")
    parser.add_argument("--slow", type=float, default=2.0, help="save inputs slower than this")
    parser.add_argument("--max-len", type=int, default=50_000)
    parser.add_argument("--random", action="store_true", help="the random mutator even "
                        "when atheris is installed")
    parser.add_argument("--spoof-cases", type=int, default=2000,
                        help="generated spoofed figures checked before fuzzing")
    args = parser.parse_args()
    problems = spoof_round(args.spoof_cases)
    print(f"number spoofing: {args.spoof_cases} figures, {len(problems)} misread", flush=True)
    for problem in problems[:20]:
        print(f"MISREAD {problem}")
    try:
        import atheris
    except ImportError:
        atheris = None
    if atheris is not None and not args.random:
        with atheris.instrument_imports(include=["specextract"]):
            target = Target(args.out, args.slow)
        print(f"atheris: coverage-guided, {args.seconds} s", flush=True)
        run_atheris(target, args.seconds, args.out / "corpus", args.max_len)
        return 0  # not reached: the target exits at its deadline
    target = Target(args.out, args.slow)
    print(f"random mutator over {len(seeds())} seeds, {args.seconds} s", flush=True)
    run_random(target, args.seconds, args.max_len)
    print(target.summary(time.monotonic() - target.started))
    return 1 if target.failures or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
