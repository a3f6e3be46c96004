"""Which files a command's INPUTS name: files, folders (recursive) and globs, streamed.

Folders are walked one directory at a time in sorted order (files of a folder, then its
sub-folders), so a corpus of any size is never listed in memory at once. Hidden files and
folders (".git", ".DS_Store") are skipped inside folders; a file named explicitly is kept,
and a name that does not exist is yielded as is, so the reader can report it missing.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

GLOB_CHARS = "*?["


def iter_input_files(inputs: Iterable[str | os.PathLike]) -> Iterator[Path]:
    """Files named by INPUTS, in a stable order."""
    for item in inputs:
        text = os.fspath(item)
        path = Path(text)
        if path.is_dir():
            yield from walk_folder(path)
        elif any(ch in text for ch in GLOB_CHARS) and not path.exists():
            matched = False
            for match in sorted(glob.iglob(text, recursive=True)):
                matched = True
                found = Path(match)
                yield from walk_folder(found) if found.is_dir() else (found,)
            if not matched:  # reported missing, not dropped silently
                yield path
        else:
            yield path


def walk_folder(folder: Path) -> Iterator[Path]:
    """Non-hidden files under ``folder``, sorted per directory, recursively."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        base = Path(root)
        for name in sorted(files):
            if not name.startswith("."):
                yield base / name


def count_input_files(inputs: Iterable[str | os.PathLike]) -> int:
    """How many files INPUTS name (a second walk; used only to size a progress bar)."""
    return sum(1 for _ in iter_input_files(inputs))
