"""Shared test helpers: data-driven case files under tests/cases/."""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

CASES = Path(__file__).parent / "cases"
UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def read_cases(name: str) -> list[dict[str, str]]:
    """Rows of a TSV case file (``#`` comment lines, then a header line)."""
    lines = [l for l in (CASES / name).read_text(encoding="utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        cells = [UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), c)
                 for c in line.split("\t")]
        rows.append(dict(zip(header, cells)))
    return rows


def pytest_configure(config):
    """The compiled-pattern cache of every process the tests start goes to a fresh folder,
    removed at the end (not the user's own cache)."""
    folder = tempfile.mkdtemp(prefix="specextract-cache-")
    config._specextract_cache = folder
    os.environ["SPECEXTRACT_CACHE"] = folder


def pytest_unconfigure(config):
    folder = getattr(config, "_specextract_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
