"""What ``regex_screens`` compiles, and other tables every process builds alike, kept on disk
from one process to the next.

Every process compiles some 300 patterns (the lexicon's word lists, the extraction rules
and their screens): parsing and compiling them in Python takes about 0.15 s of each
invocation, as long as extracting a hundred real articles. :class:`ProgramCache` keeps
what they compile to, under the pattern's source and flags: the regex engine's program,
from which ``_sre.compile`` builds the pattern without parsing it again (and checks the
program before it runs it), or a screened source. ``normalize.script`` keeps its table of
script classes the same way, under OpenCC's version. What a process had to build is
written back when it ends.

One file per owner, per Python and regex engine, and per digest of the owner's source
(the code that made the programs): in ``$SPECEXTRACT_CACHE``, else
``$XDG_CACHE_HOME/specextract`` (``~/.cache/specextract``); ``SPECEXTRACT_CACHE=off`` keeps
nothing on disk. A file that cannot be read or is not one of ours counts as empty; a folder
that cannot be written is left alone; a run never fails for the cache.
"""
from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import sys
from pathlib import Path

import _sre

VARIABLE = "SPECEXTRACT_CACHE"
OFF = ("off", "0", "no", "false")
FORMAT = 3            # the file's layout; another value reads as empty
MAX_ENTRIES = 5_000   # past this many entries, or
MAX_BYTES = 8 << 20   # this many bytes, a file keeps only what its last process used (the
                      # bundled lexicon's patterns take about 180 entries and 0.9 MB)
_CACHES: list["ProgramCache"] = []


def cache_folder() -> Path | None:
    """Where the cache files go; None when the cache is off."""
    value = os.environ.get(VARIABLE)
    if value is not None:
        return None if value.strip().lower() in OFF or not value.strip() else Path(value)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):   # no home folder: nowhere to keep anything
            return None
    return Path(base) / "specextract"


class ProgramCache:
    """Values kept under (kind, source, flags) for the owner module ``owner_file``."""

    def __init__(self, name: str, owner_file: str) -> None:
        self.name, self.owner_file = name, owner_file
        self._entries: dict[tuple, object] | None = None
        self._used: set[tuple] = set()
        self._changed = False
        self._registered = False   # save() is an exit handler
        self._path: Path | None = None
        _CACHES.append(self)

    def get(self, kind: str, source: str, flags: int) -> object | None:
        """The value kept under the key, or None."""
        entries = self._load()
        key = (kind, source, flags)
        value = entries.get(key)
        if value is not None:
            self._used.add(key)
        return value

    def put(self, kind: str, source: str, flags: int, value: object) -> None:
        """Keep ``value`` (marshal-able) under the key, to be written when the process ends."""
        entries = self._load()
        key = (kind, source, flags)
        entries[key] = value
        self._used.add(key)
        self._change()

    def forget(self, kind: str, source: str, flags: int) -> None:
        """Drop a value that did not serve (a program the engine rejected)."""
        if self._load().pop((kind, source, flags), None) is not None:
            self._change()

    def _change(self) -> None:
        if self._path is None:
            return
        self._changed = True
        if not self._registered:
            self._registered = True
            atexit.register(self.save)

    def path(self) -> Path | None:
        """The cache file (None when the cache is off or the owner's source is unreadable)."""
        folder = cache_folder()
        if folder is None:
            return None
        try:
            digest = hashlib.sha256(Path(self.owner_file).read_bytes()).hexdigest()[:16]
        except OSError:
            return None
        tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}"
        return folder / f"{self.name}-{tag}-{digest}.marshal"

    def _load(self) -> dict[tuple, object]:
        if self._entries is None:
            self._path = self.path()
            self._entries = read_entries(self._path) if self._path is not None else {}
        return self._entries

    def save(self) -> None:
        """Write the entries, with those another process wrote to the file meanwhile (a
        batch's workers each build some), atomically; only those used here when there are
        too many (MAX_ENTRIES, MAX_BYTES). A folder that cannot be written is left alone."""
        if not self._changed or self._path is None or self._entries is None:
            return
        entries = {**read_entries(self._path), **self._entries}
        data = pack(entries)
        if len(entries) > MAX_ENTRIES or len(data) > MAX_BYTES:
            data = pack({k: v for k, v in entries.items() if k in self._used})
        tmp = self._path.with_name(f".{self._path.name}.{os.getpid()}.tmp")
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, self._path)
            self._changed = False
        except (OSError, ValueError):
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass


def save_changed() -> None:
    """Write every cache that has new entries now, not only when the process ends: a
    worker process of a batch (which may end without running exit handlers) calls this
    after each document, so that the patterns it built serve the next run too."""
    for cache in _CACHES:
        if cache._changed:
            try:
                cache.save()
            except Exception:  # noqa: BLE001 - a run never fails for the cache
                pass


def pack(entries: dict[tuple, object]) -> bytes:
    """A file's bytes: its format, then a digest of the entries, then the entries."""
    payload = marshal.dumps(list(entries.items()))
    return marshal.dumps((FORMAT, hashlib.sha256(payload).digest(), payload))


def read_entries(path: Path) -> dict[tuple, object]:
    """The entries of a cache file; {} for a missing, unreadable or foreign file, or one
    whose entries do not match their digest (a changed byte of a program could still be a
    valid program, of another pattern)."""
    try:
        fmt, digest, payload = marshal.loads(path.read_bytes())
        if fmt != FORMAT or hashlib.sha256(payload).digest() != digest:
            return {}
        return {tuple(key): value for key, value in marshal.loads(payload)}
    except Exception:  # noqa: BLE001 - a damaged or foreign file: compile afresh
        return {}
