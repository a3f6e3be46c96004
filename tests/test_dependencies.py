"""The package imports what pyproject.toml declares, and declares only what it imports.

Every module of the package (function-level imports included) is parsed; each imported
top-level module outside the standard library must belong to a declared distribution, and
each declared distribution must be imported somewhere (a dependency nobody uses costs every
install).
"""
from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import specextract

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(specextract.__file__).resolve().parent
NAME = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[([^\]]*)\])?")


def declared(extra: str | None = None) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = project["optional-dependencies"][extra] if extra else project["dependencies"]
    names = set()
    for spec in specs:  # "dask[distributed]" declares dask and, through its extra, distributed
        name, extras = NAME.match(spec).groups()
        names |= {n.strip().lower().replace("_", "-") for n in [name, *(extras or "").split(",")]
                  if n.strip()}
    return names


def imported_modules() -> dict[str, str]:
    """Top-level module -> the first file importing it, for every import in the package."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(PACKAGE)))
    return found


def third_party() -> dict[str, str]:
    return {m: where for m, where in imported_modules().items()
            if m not in sys.stdlib_module_names and m != "specextract"}


def distributions(module: str) -> set[str]:
    return {d.lower().replace("_", "-") for d in packages_distributions().get(module, [])}


def test_every_imported_package_is_declared():
    deps = declared()
    undeclared = {m: where for m, where in third_party().items() if not distributions(m) & deps}
    assert not undeclared, f"imported but not in pyproject.toml's dependencies: {undeclared}"


def test_every_declared_dependency_is_imported():
    used = set().union(*(distributions(m) for m in third_party()))
    assert not declared() - used, f"declared but never imported: {declared() - used}"


def test_the_scan_sees_the_known_imports():
    modules = third_party()
    assert {"spacy", "opencc", "click", "numpy"} <= set(modules)
