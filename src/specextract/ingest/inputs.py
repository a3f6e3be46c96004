"""Which files a command's INPUTS name: files, folders (recursive) and globs, streamed.

Folders are walked one directory at a time in sorted order (files of a folder, then its
sub-folders), so a corpus of any size is never listed in memory at once. Hidden files and
folders (".git", ".DS_Store") are skipped inside folders; a file named explicitly is kept,
and a name that does not exist is yielded as is, so the reader can report it missing.

A symbolic link found in a folder that points outside every folder and file the INPUTS
name (``/etc/passwd``) is not read unless ``follow_symlinks``; it is added to
``skipped`` for the summary. Symbolic links to folders are not walked.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

GLOB_CHARS = "*?["


def iter_input_files(inputs: Iterable[str | os.PathLike], *, follow_symlinks: bool = False,
                     skipped: list[Path] | None = None) -> Iterator[Path]:
    """Files named by INPUTS, in a stable order."""
    inputs = [os.fspath(item) for item in inputs]
    roots = None if follow_symlinks else input_roots(inputs)
    for text in inputs:
        path = Path(text)
        if path.is_dir():
            yield from walk_folder(path, roots, skipped)
        elif any(ch in text for ch in GLOB_CHARS) and not path.exists():
            matched = False
            for match in sorted(glob.iglob(text, recursive=True)):
                matched = True
                found = Path(match)
                yield from walk_folder(found, roots, skipped) if found.is_dir() else (found,)
            if not matched:  # reported missing, not dropped silently
                yield path
        else:
            yield path


def input_roots(inputs: Iterable[str]) -> tuple[str, ...]:
    """The real paths of what INPUTS name (globs: the folder before the first wildcard)."""
    roots = []
    for text in inputs:
        if any(ch in text for ch in GLOB_CHARS) and not Path(text).exists():
            text = text[:min(text.index(ch) for ch in GLOB_CHARS if ch in text)]
            text = os.path.dirname(text) or "."
        roots.append(os.path.realpath(text))
    return tuple(roots)


def inside(real: str, roots: tuple[str, ...]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def walk_folder(folder: Path, roots: tuple[str, ...] | None = None,
                skipped: list[Path] | None = None) -> Iterator[Path]:
    """Non-hidden files under ``folder``, sorted per directory, recursively (with
    ``roots``: symbolic links pointing outside them left out, into ``skipped``)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        base = Path(root)
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = base / name
            if roots is not None and path.is_symlink() \
                    and not inside(os.path.realpath(path), roots):
                if skipped is not None:
                    skipped.append(path)
                continue
            yield path


def count_input_files(inputs: Iterable[str | os.PathLike], **options) -> int:
    """How many files INPUTS name (a second walk; used only to size a progress bar)."""
    return sum(1 for _ in iter_input_files(inputs, **options))
