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

With ``--native`` the stacks also hold C frames. A compiled module's function
(``CPyDef_claims___extract_normalized (__native_specextract_native.c:121765)``) is named back
as its Python function and file (``extract_normalized``, ``specextract/extract/claims.py
(compiled)``), given the compiled modules' names; its Python-callable wrapper (``CPyPy_``)
is the same frame. Every other C frame (the interpreter, the regex engine, SQLite, the C
library) is folded into the code frame below it, so that self samples fall on Python or
compiled functions as before, and the samples whose innermost frame is C are counted apart
by what runs there (``native``: regular expressions, SQLite, memory, ...).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

NO_FRAME = ("(no Python frame)", "")
COMPILED = " (compiled)"           # after the file of a compiled module's function
# What runs in a sample whose innermost frame is C: (category, symbol prefixes, library names)
NATIVE_KINDS = (
    ("regular expressions", ("sre_", "pattern_", "_sre"), ()),
    ("SQLite", ("sqlite3", "pysqlite", "_pysqlite"), ("libsqlite3", "_sqlite3")),
    ("garbage collector", ("gc_", "visit_", "update_refs", "subtract_refs", "move_unreachable"),
     ()),
    ("memory", ("_PyObject_Malloc", "_PyObject_Free", "_PyObject_Realloc", "malloc", "free",
                "_int_malloc", "_int_free", "realloc", "unlink_chunk", "PyObject_GC_Del"), ()),
    ("OpenCC", (), ("opencc",)),
    ("decimal", ("mpd_",), ("_decimal",)),
    ("system calls", ("read", "write", "pread", "pwrite", "fstat", "open", "close", "lseek",
                      "fsync", "fdatasync", "unlink", "rename", "mkdir"), ()),
    ("Python runtime (objects, reference counts, dicts, strings)", ("Py", "_Py", "CPy"),
     ("libpython", ".h:", "_ops.c", "specextract_native")),
    ("C library", (), ("libc.so", "ld-linux")),
)


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


def summarize_folded(text: str, keep: int = 100, compiled: Iterable[str] = ()) -> dict:
    """Self and inclusive samples per frame of a folded-stack profile; ``compiled``: the
    compiled modules' names (``specextract.extract.claims``, ...), to name their C
    functions."""
    prefixes = compiled_prefixes(compiled)
    self_n: Counter = Counter()
    incl_n: Counter = Counter()
    native_n: Counter = Counter()
    total = 0
    for frames, n in parse_folded(text):
        codes = [code_frame(f, prefixes) for f in frames]
        keys = [k for k in codes if k is not None] or [NO_FRAME]
        total += n
        self_n[keys[-1]] += n
        for k in set(keys):
            incl_n[k] += n
        if codes and codes[-1] is None:
            native_n[native_kind(frames[-1])] += n
    summary = {"unit": "samples", "total": total,
               "self": top_rows(self_n, total, keep), "inclusive": top_rows(incl_n, total, keep)}
    if native_n:
        summary["native"] = [{"what": what, "count": c, "share": round(c / total, 5)}
                             for what, c in sorted(native_n.items(), key=lambda kv: (-kv[1], kv[0]))]
    return summary


def is_python_file(file: str) -> bool:
    """A Python source (``x.py``, ``<frozen runpy>``, ``<string>``) rather than C."""
    name = file.rpartition(":")[0] if file.rpartition(":")[2].isdigit() else file
    return name.endswith(".py") or name.startswith("<")


def code_frame(frame: str, prefixes: dict[str, str]) -> tuple[str, str] | None:
    """A frame's ``(function, file)`` if it runs Python code (interpreted, or a compiled
    module's function); None for any other C frame."""
    function, file = frame_key(frame)
    if function.startswith(("CPyDef_", "CPyPy_")):
        return compiled_function(function, prefixes)
    if not file or is_python_file(file):
        return function, file
    return None


def compiled_prefixes(modules: Iterable[str]) -> dict[str, str]:
    """The C name prefix of each compiled module's functions -> its file: the module's
    shortest dotted suffix that no other compiled module shares, dots as ``___``
    (``claims___`` for specextract.extract.claims; ``specextract___rows___`` for
    specextract.rows beside specextract.check.rows). Longest prefix first, the order
    compiled_function tries them in."""
    names = sorted(set(modules))
    counts: Counter = Counter(s for name in names for s in _suffixes(name))
    out = {}
    for name in names:
        suffix = next((s for s in _suffixes(name) if counts[s] == 1), name + ".")
        out[suffix.replace(".", "___")] = name.replace(".", "/") + ".py"
    return dict(sorted(out.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def _suffixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[-i:]) + "." for i in range(1, len(parts) + 1)]


def compiled_function(symbol: str, prefixes: dict[str, str]) -> tuple[str, str]:
    """(Python name, file) of a compiled function's C symbol (``FigureLinks._figure`` for
    ``CPyDef_figurelinks___FigureLinks____figure``); the symbol itself when no compiled
    module's prefix fits."""
    body = symbol.partition("_")[2]
    for prefix in prefixes:   # longest first (compiled_prefixes)
        if body.startswith(prefix):
            name = body[len(prefix):].replace("___", ".")
            generator = "_gen.__mypyc_generator_helper__"
            if name.endswith(generator):
                name = name[:-len(generator)] + " (generator)"
            return name, prefixes[prefix] + COMPILED
    return symbol, "(compiled)"


def native_kind(frame: str) -> str:
    """What a C frame does, by its symbol and library (NATIVE_KINDS; else "other C")."""
    function, file = frame_key(frame)
    for what, symbols, libraries in NATIVE_KINDS:
        if function.startswith(symbols) or any(lib in file for lib in libraries):
            return what
    return "other C"


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
