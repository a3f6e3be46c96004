"""Versions the batch store records, so a re-run redoes exactly what changed.

- ``pipeline_version()``: the package version plus a hash of the bundled data files (the
  reference table excepted) and of the source of every module the pipeline imports (from
  ``extract.document`` and ``extract.blocks``, the way the batch runs it), found by reading the imports
  (so a lexicon or extractor change re-extracts).
- ``check_version(ref)``: a hash of the reference table (specs and marketing ratios) and
  of the checker's modules; when only it changes, stored claims are re-checked.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..check.reference import Reference

PACKAGE_DIR = Path(__file__).resolve().parents[1]
PACKAGE = PACKAGE_DIR.name
DATA_DIR = PACKAGE_DIR / "data"
REFERENCE_DATA = "reference"   # data/reference/: judged by check_version, not extraction


PIPELINE_ROOTS = ("extract.document", "extract.blocks")   # what batch.run.process_task runs


def imported_modules(*roots: str) -> list[Path]:
    """Source files of ``roots`` (e.g. "pipeline") and every package module they import."""
    seen: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        todo.extend(_imports_of(path, name))
        todo.extend(_parents(name))   # importing a.b runs a/__init__.py first
    return sorted(seen.values())


def _parents(name: str) -> list[str]:
    """'extract.prose' -> ['extract']: the packages whose ``__init__`` an import runs."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _module_file(name: str) -> Path | None:
    """The source of package module ``name`` ("extract.prose"), or None: ``a/b.py``, else
    ``a/b/__init__.py``. Most names asked for are not modules ("from .x import f" asks
    for "x.f" too), so the package's files are listed once instead of probed."""
    return _package_sources().get(name)


@lru_cache(maxsize=1)
def _package_sources() -> dict[str, Path]:
    """Module name -> source file, for every ``.py`` file of the package (a module
    file wins over a package's ``__init__.py`` of the same name, as in the import
    system)."""
    modules: dict[str, Path] = {}
    packages: dict[str, Path] = {}
    for path in PACKAGE_DIR.rglob("*.py"):
        parts = path.relative_to(PACKAGE_DIR).with_suffix("").parts
        if any("." in part for part in parts):   # "a.b.py" is no module a.b
            continue
        if parts[-1] == "__init__":
            if len(parts) > 1:
                packages[".".join(parts[:-1])] = path
        else:
            modules[".".join(parts)] = path
    return {**packages, **modules}


# An import statement: "import a.b as c, d" or "from .x import (y,\n z as w)" (or a name
# list continued with a backslash), at the start of a line (any indent, in a function or a
# branch too). Reading the lines, not the syntax tree, costs a fraction of ast.parse, which
# ran at every start; a docstring line that reads like an import only adds a module to the
# hash.
_LISTED = r"[^\n;#\\]*(?:\\\n[^\n;#\\]*)*"   # to the line's end, over "\"-continued lines
IMPORT_STATEMENT = re.compile(
    rf"^[ \t]*(?:from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|{_LISTED})"
    rf"|import[ \t]+(?P<plain>{_LISTED}))", re.MULTILINE)
COMMENT = re.compile(r"#[^\n]*")


@lru_cache(maxsize=None)   # pipeline_version and check_version walk mostly the same modules
def _imports_of(path: Path, name: str) -> tuple[str, ...]:
    """Package-relative names imported anywhere in the module (function bodies too)."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found = []
    for m in IMPORT_STATEMENT.finditer(path.read_text(encoding="utf-8")):
        if m["plain"] is not None:
            found.extend(n.partition(".")[2] for n in _names(m["plain"])
                         if n.split(".")[0] == PACKAGE)
            continue
        dots = len(m["module"]) - len(m["module"].lstrip("."))
        module = m["module"][dots:]
        if dots:
            parent = package[: len(package) - (dots - 1)] if dots > 1 else package
            prefix = ".".join(parent + ([module] if module else []))
        elif module.split(".")[0] == PACKAGE:
            prefix = module.partition(".")[2]
        else:
            continue
        found.append(prefix)
        found.extend(f"{prefix}.{n}".lstrip(".") for n in _names(m["names"]))
    return tuple(f for f in found if f)


def _names(listed: str) -> list[str]:
    """'(a, b as c,  # why\n d)' -> ['a', 'b', 'd']."""
    listed = COMMENT.sub("", listed).replace("\\\n", " ").strip().strip("()")
    return [n.split()[0] for n in listed.split(",") if n.strip()]


def data_files() -> list[Path]:
    """Bundled data files that drive extraction (everything but data/reference/)."""
    return sorted(p for p in DATA_DIR.rglob("*") if p.is_file()
                  and p.relative_to(DATA_DIR).parts[0] != REFERENCE_DATA
                  and "__pycache__" not in p.parts)


def _digest(paths: list[Path], *extra: str) -> str:
    h = hashlib.sha256()
    for part in extra:
        h.update(part.encode() + b"\0")
    for path in paths:
        h.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """'0.1.0+<16 hex>': changes with the package version, extraction code or lexicons."""
    return f"{__version__}+{_digest(imported_modules(*PIPELINE_ROOTS) + data_files())[:16]}"


@lru_cache(maxsize=None)
def _checker_digest() -> str:
    return _digest(imported_modules("check.checker") + data_files())


def check_version(ref: Reference) -> str:
    """Changes with the reference table (specs, ratios) and the checker's code."""
    return hashlib.sha256("\0".join((ref.version, ref.ratios_version, _checker_digest()))
                          .encode()).hexdigest()[:16]
