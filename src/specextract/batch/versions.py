"""Versions the batch store records, so a re-run redoes exactly what changed.

- ``pipeline_version()``: the package version plus a hash of the bundled data files (the
  reference table excepted) and of the source of every module the pipeline imports (from
  ``extract.document`` and ``extract.blocks``, the way the batch runs it), found by reading the imports
  (so a lexicon or extractor change re-extracts).
- ``check_version(ref)``: a hash of the reference table (specs and marketing ratios) and
  of the checker's modules; when only it changes, stored claims are re-checked.
"""
from __future__ import annotations

import ast
import hashlib
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
    base = PACKAGE_DIR.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=None)   # pipeline_version and check_version walk mostly the same modules
def _imports_of(path: Path, name: str) -> tuple[str, ...]:
    """Package-relative names imported anywhere in the module (function bodies too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found = []
    for node in _import_statements(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                prefix = ".".join(parent + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == PACKAGE:
                prefix = node.module.partition(".")[2]
            else:
                continue
            found.append(prefix)
            found.extend(f"{prefix}.{a.name}".lstrip(".") for a in node.names)
        elif isinstance(node, ast.Import):
            found.extend(a.name.partition(".")[2] for a in node.names
                         if a.name.split(".")[0] == PACKAGE)
    return tuple(f for f in found if f)


STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")   # where statements nest


def _import_statements(tree: ast.Module):
    """Every import statement of a module, nested ones too (in functions, classes, if,
    try, with, match, loops). Only statements are visited: an import is a statement, and
    none can sit inside an expression, so the expressions (most of a tree) are skipped."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            for field in STATEMENT_LISTS:
                todo.extend(getattr(node, field, ()))


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
