"""Helpers for the regex linearity test: collect every pattern specextract compiles, and
build each one's worst cases from its parse tree (runs of what its loops repeat).

``collect_patterns()`` runs a fresh interpreter that wraps ``re._compile`` (behind
re.compile, re.search, re.sub ...), imports every module of the package and exercises it
(the pipeline over corpus/, a batch run with its report and export, the reference table,
the gold file), and returns each (pattern, flags) compiled from specextract code with the
module (its path in the package: "extract/patterns") and line that compiled it first (for
a pattern compiled through regex_screens, the module that called it).
"""
from __future__ import annotations

import gc
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from re import _constants as C  # noqa: N812
from re import _parser as sre_parse

ROOT = Path(__file__).resolve().parents[1]

COLLECTOR = r'''
import json, os, re, sys, tempfile, pkgutil, importlib, importlib.util, inspect, functools
from pathlib import Path
# the package's own folder (not site-packages or a venv that lives inside the checkout)
PACKAGE = os.path.dirname(os.path.realpath(importlib.util.find_spec("specextract").origin)) + os.sep
found = {}
SCREENS = os.sep + os.path.join("specextract", "regex_screens.py")
RE_PACKAGE = os.path.dirname(re.__file__) + os.sep
def record(pattern, compiled):
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename.startswith(RE_PACKAGE)
                                 or frame.f_code.co_filename.endswith(SCREENS)):
        frame = frame.f_back   # (regex_screens compiles for the module that calls it)
    where = frame and os.path.realpath(frame.f_code.co_filename)
    if where and where.startswith(PACKAGE) and not isinstance(pattern, re.Pattern):
        key = (type(pattern).__name__, pattern if isinstance(pattern, str) else pattern.decode("latin-1"), int(compiled.flags))
        module = Path(where[len(PACKAGE):]).with_suffix("").as_posix()   # "extract/patterns"
        found.setdefault(key, f"{module}:{frame.f_lineno}")
real = re._compile
def spy(pattern, flags):
    compiled = real(pattern, flags)
    record(pattern, compiled)
    return compiled
re._compile = spy
import _sre   # regex_screens.compile_pattern builds patterns without re._compile
real_sre = _sre.compile
def sre_spy(pattern, *rest):
    compiled = real_sre(pattern, *rest)
    record(pattern, compiled)
    return compiled
_sre.compile = sre_spy
re.purge()
import specextract
from specextract.lexicon import default_lexicon
for info in pkgutil.walk_packages(specextract.__path__, "specextract."):
    module = importlib.import_module(info.name)
    for name, fn in vars(module).items():  # cached builders of patterns and tables
        if isinstance(fn, functools._lru_cache_wrapper) and getattr(fn, "__module__", "") == module.__name__:
            try:
                if not [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]:
                    fn()
            except Exception:
                pass
        elif inspect.isfunction(fn) and fn.__module__ == module.__name__:  # builders from a lexicon
            required = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
            if [p.name for p in required] == ["lex"]:
                try:
                    default_lexicon().built(fn)
                except Exception:
                    pass
from specextract.batch.job import run_job
from specextract.batch.executors import LocalExecutor
from specextract.eval.gold import load_gold
ROOT = Path(sys.argv[1])
with tempfile.TemporaryDirectory() as tmp:
    run_job([str(ROOT / "corpus")], Path(tmp), executor=LocalExecutor(), progress=False, echo=lambda s: None)
    from specextract.cli import cli
    from click.testing import CliRunner
    CliRunner().invoke(cli, ["export", "--db", str(Path(tmp) / "specextract.db"), "--format", "jsonl"])
try:
    load_gold(ROOT / "gold" / "claims.csv")
except Exception:
    pass
print(json.dumps([[k[0], k[1], k[2], v] for k, v in sorted(found.items(), key=lambda kv: kv[1])]))
'''


def collect_patterns() -> list[tuple[re.Pattern, str]]:
    """(compiled pattern, "module:line") for every pattern specextract compiles."""
    # the Python sources: compiled modules compile the same patterns, from no Python frame
    env = dict(os.environ, SPECEXTRACT_PURE="1")
    out = subprocess.run([sys.executable, "-c", COLLECTOR, str(ROOT)], capture_output=True,
                         text=True, check=True, timeout=600, env=env)
    patterns = []
    for kind, source, flags, where in json.loads(out.stdout.strip().splitlines()[-1]):
        source = source.encode("latin-1") if kind == "bytes" else source
        patterns.append((re.compile(source, flags & ~re.UNICODE if kind == "bytes" else flags),
                         where))
    return patterns


# --- worst cases from the parse tree ----------------------------------------------------
POOL = "a0 .Z中一|<\"'\n-_/%:，（"
CATEGORY = {C.CATEGORY_DIGIT: "1", C.CATEGORY_NOT_DIGIT: "a", C.CATEGORY_SPACE: " ",
            C.CATEGORY_NOT_SPACE: "a", C.CATEGORY_WORD: "a", C.CATEGORY_NOT_WORD: " ",
            C.CATEGORY_LINEBREAK: "\n", C.CATEGORY_NOT_LINEBREAK: "a"}
REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _class_chars(items) -> list[str]:
    """Characters a character class accepts (a few of them)."""
    negate = any(op is C.NEGATE for op, _ in items)
    chars = []
    for op, av in items:
        if op is C.LITERAL:
            chars.append(chr(av))
        elif op is C.RANGE:
            chars += [chr(av[0]), chr(av[1]), chr((av[0] + av[1]) // 2)]
        elif op is C.CATEGORY:
            chars.append(CATEGORY.get(av, "a"))
    if negate:
        return [c for c in POOL if c not in chars][:3] or ["a"]
    return chars or ["a"]


def witnesses(items, rng: random.Random, tries: int = 4) -> list[str]:
    """A few strings that one pass over the parsed ``items`` may match."""
    return list(dict.fromkeys(_witness(items, rng) for _ in range(tries)))


def _witness(items, rng: random.Random) -> str:
    out = []
    for op, av in items:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append(rng.choice([c for c in POOL if ord(c) != av]))
        elif op is C.ANY:
            out.append(rng.choice("a0 "))
        elif op is C.IN:
            out.append(rng.choice(_class_chars(av)))
        elif op is C.BRANCH:
            out.append(_witness(rng.choice(av[1]), rng))
        elif op is C.SUBPATTERN:
            out.append(_witness(av[-1], rng))
        elif op is C.ATOMIC_GROUP:
            out.append(_witness(av, rng))
        elif op in REPEATS:
            lo, hi, sub = av
            count = lo if hi == lo else min(max(lo, 1), 2)
            out.append("".join(_witness(sub, rng) for _ in range(count)))
        elif op is C.GROUPREF_EXISTS:
            out.append(_witness(av[1], rng))
    return "".join(out)


def loops(items, prefix: list = None):
    """(items before the loop, the loop's sub-pattern) for every unbounded-ish repeat."""
    prefix = prefix or []
    for i, (op, av) in enumerate(items):
        before = prefix + list(items[:i])
        if op in REPEATS:
            lo, hi, sub = av
            if hi is C.MAXREPEAT or hi >= 8:
                yield before, sub
            yield from loops(sub, before)
        elif op is C.BRANCH:
            for branch in av[1]:
                yield from loops(branch, before)
        elif op is C.SUBPATTERN:
            yield from loops(av[-1], before)
        elif op is C.ATOMIC_GROUP:
            yield from loops(av, before)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            yield from loops(av[1], before)


def alphabet(items) -> list[str]:
    """Every literal character and a few of each class the pattern names."""
    chars: list[str] = []
    for op, av in items:
        if op is C.LITERAL:
            chars.append(chr(av))
        elif op is C.IN:
            chars += _class_chars(av)
        elif op in REPEATS:
            chars += alphabet(av[2])
        elif op is C.BRANCH:
            for b in av[1]:
                chars += alphabet(b)
        elif op is C.SUBPATTERN:
            chars += alphabet(av[-1])
        elif op is C.ATOMIC_GROUP:
            chars += alphabet(av)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            chars += alphabet(av[1])
    return list(dict.fromkeys(chars))


def attack_units(pattern: re.Pattern, seed: int = 0, most: int = 40) -> list[str]:
    """Units whose long repetition is the pattern's worst case: what each loop repeats,
    with and without what leads into it, and runs of single characters."""
    rng = random.Random(seed)
    source = pattern.pattern.decode("latin-1") if isinstance(pattern.pattern, bytes) \
        else pattern.pattern
    items = sre_parse.parse(source, pattern.flags & ~re.UNICODE
                            if isinstance(pattern.pattern, bytes) else pattern.flags)
    units = []
    for before, sub in loops(list(items)):
        for pump in witnesses(sub, rng):
            if not pump:
                continue
            lead = _witness(before, rng)
            units += [pump, lead + pump, lead + pump + pump + "\x00"]
    chars = alphabet(list(items))
    units += chars[:16]
    units += [a + b for a, b in zip(chars, chars[1:])][:8]
    units = [u for u in dict.fromkeys(units) if u]
    rng.shuffle(units)
    return units[:most]


def as_subject(pattern: re.Pattern, unit: str, n: int):
    text = unit * max(1, n // len(unit))
    return text.encode("utf-8") if isinstance(pattern.pattern, bytes) else text


def scan_time(pattern: re.Pattern, subject, repeat: int = 3) -> float:
    """Best of ``repeat`` scans (one, when a scan takes more than 0.1 s), with the cyclic
    garbage collector off: a match at every position allocates a match object each. CPU
    time of this thread, so that other processes on a busy machine do not count."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.thread_time()
            for _m in pattern.finditer(subject):
                pass
            best = min(best, time.thread_time() - start)
            if best > 0.1:
                break
    finally:
        if enabled:
            gc.enable()
    return best
