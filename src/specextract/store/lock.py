"""An exclusive, non-blocking lock on a file: one batch run per store.

The lock is an OS lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows) on a lock file
beside the store, so it goes away with the process that held it, even after kill -9; the
file itself stays (deleting lock files races). The holder's pid is written into it for
the error message.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import StoreError
from .faults import FULL_ERRNOS

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt


class LockedError(StoreError):
    """Another process holds the lock."""


class LockFile:
    def __init__(self, path: Path, fd: int) -> None:
        self.path, self._fd = path, fd

    @classmethod
    def acquire(cls, path: str | os.PathLike) -> "LockFile":
        path = Path(path)
        try:   # never through a symbolic link: it could make the lock file anywhere
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            if exc.errno in FULL_ERRNOS:
                raise
            raise StoreError(f"{path}: cannot be the store's lock file ({_what(path, exc)}); "
                             "remove it, or use another --db") from None
        try:
            _lock(fd)
        except OSError:
            holder = _read_holder(fd)
            os.close(fd)
            raise LockedError(f"{path.with_suffix('')}: locked by another run{holder}; "
                              "wait for it to finish or use another --db") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)      # closing the descriptor drops the lock
            self._fd = None


def _what(path: Path, exc: OSError) -> str:
    if path.is_symlink():
        return "a symbolic link" + ("" if path.exists() else " to nothing")
    if path.is_dir():
        return "a folder"
    return exc.strerror or str(exc)


def _lock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    else:  # pragma: no cover
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):
        return ""
    return f" (pid {text})" if text.isdigit() else ""
