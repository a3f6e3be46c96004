"""The compiled build of extraction and checking, loaded: most modules of ``extract``,
``lexicon`` and ``check``, and the per-claim row, page and CSV line code, compiled to C extension
modules (``python -m specextract.compile_modules build`` writes ``_compiled/``), used in
place of the Python sources when they were built from exactly these sources.

What enters: ``_compiled/`` (one extension module per compiled module, their shared library
and ``manifest.json`` naming the Python version and a hash of every source of the
package). :func:`install`, called when ``specextract`` is imported, puts a finder in front
of the normal import system that loads the compiled modules, all of them or none: none
when there is no build, when it was made for another Python, when any source of the
package changed since (a stale build would run old code), or when ``SPECEXTRACT_PURE=1``.
The Python sources give byte-identical claims, verdicts, document pages and consensus rows
(``tests/test_compiled.py``); the build only makes them faster.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
OUT = PACKAGE_DIR / "_compiled"
MANIFEST = OUT / "manifest.json"
COMPILED_PACKAGES = ("extract", "lexicon", "check")  # every module but __init__ and:
LEFT_AS_PYTHON = ("extract/document.py",     # the per-document entry points and the
                  "extract/blocks.py",       # time limits around them (tests patch them)
                  "lexicon/lexicon.py",      # the Lexicon class, which users may subclass
                  "check/checker.py")        # the per-claim loop with its fault handling
COMPILED_MODULES = ("rows.py",               # and these, per claim outside those packages:
                    "output/pages.py",       # a claim to a store row and back, a claim
                    "output/index.py",       # and a consensus line drawn in HTML, a
                    "output/csvtext.py",     # claim's line of claims.csv, a value's
                    "decimaltext.py",        # text in all of them, and the report's
                    "store/queries.py")      # rows, a consensus line or claim each
GROUP = "specextract_native"                 # the shared library's name
PURE_VARIABLE = "SPECEXTRACT_PURE"

_state = {"mode": "pure", "why": "not installed"}


def compiled_sources() -> list[Path]:
    """The modules compiled, as paths under the package."""
    in_packages = [p for pkg in COMPILED_PACKAGES for p in (PACKAGE_DIR / pkg).glob("*.py")
                   if p.name != "__init__.py"
                   and p.relative_to(PACKAGE_DIR).as_posix() not in LEFT_AS_PYTHON]
    return sorted(in_packages + [PACKAGE_DIR / m for m in COMPILED_MODULES])


def sources_hash() -> str:
    """A hash of every Python source of the package (the compiled modules read the others'
    types, so any change makes the build stale)."""
    h = hashlib.sha256()
    for p in sorted(PACKAGE_DIR.rglob("*.py")):
        if OUT in p.parents:
            continue
        h.update(p.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def module_name(path: Path) -> str:
    return "specextract." + ".".join(path.relative_to(PACKAGE_DIR).with_suffix("").parts)


class _Finder:
    """Finds the compiled modules (and their shared library) in ``_compiled/``."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        file = OUT.joinpath(*fullname.split(".")).with_name(fullname.rpartition(".")[2] + suffix)
        if not file.is_file():
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def build_status() -> tuple[bool, str]:
    """(usable, why) of the build on disk."""
    return _usable_manifest()[:2]


def _usable_manifest() -> tuple[bool, str, dict]:
    """(usable, why, the manifest read) of the build on disk."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return False, f"{PURE_VARIABLE} is set", {}
    if not MANIFEST.is_file():
        return False, "no compiled build (python -m specextract.compile_modules build)", {}
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError) as e:
        return False, f"unreadable {MANIFEST}: {e}", {}
    if manifest.get("python") != sys.implementation.cache_tag:
        return False, f"built for {manifest.get('python')}, not {sys.implementation.cache_tag}", {}
    if manifest.get("sources") != sources_hash():
        return (False, "stale: the sources changed since the build "
                "(python -m specextract.compile_modules build)", {})
    return True, f"{len(manifest['modules'])} modules compiled", manifest


def install() -> None:
    """Use the compiled modules when the build is usable (before any of them is imported)."""
    usable, why, manifest = _usable_manifest()
    _state.update(mode="compiled" if usable else "pure", why=why)
    if not usable:
        return
    names = set(manifest["modules"]) | {GROUP + "__mypyc"}
    if any(n in sys.modules for n in names):  # imported already as Python: keep it one way
        _state.update(mode="pure", why="modules imported before the build was installed")
        return
    sys.meta_path.insert(0, _Finder(names))


def mode() -> tuple[str, str]:
    """('compiled' or 'pure', why)."""
    return _state["mode"], _state["why"]
