"""Read one article file into a :class:`Document`.

Encodings (see :mod:`specextract.ingest.decode`): UTF-8 (with or without BOM), UTF-16/32
(with BOM, and UTF-16 without), GB18030 (covers GBK and GB2312) and Big5 / Big5-HKSCS,
line by line when a file mixes them. Formats: .txt, .md, .html/.htm. Every failure is a
:class:`DocumentError` naming the file and the reason; only regular files of at most
``MAX_BYTES`` are read.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..names import printable
from ..errors import DocumentError
from .html import html_to_text
from ..records import Document
from .decode import decode

TEXT_FORMATS = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md",
                ".html": "html", ".htm": "html", "": "txt"}
MAX_BYTES = 8 * 1024 * 1024   # larger files fail as "too-large" (README: Bad input)


def read_document(path: str | os.PathLike) -> Document:
    """Read ``path`` into a Document (doc_id = file name without extension, control and
    bidi characters spelled out)."""
    p = Path(path)
    return document_from_bytes(p, read_bytes(p))


def document_from_bytes(path: str | os.PathLike, data: bytes) -> Document:
    """The Document of a file whose bytes are already read (the batch runner hashes them)."""
    return decode_document(path, data)[0]


def decode_document(path: str | os.PathLike, data: bytes, max_bytes: int | None = None,
                    ) -> tuple[Document, tuple[str, ...]]:
    """(Document, repairs): what decoding had to mend (bytes replaced, lines in another
    encoding), for the batch store to record."""
    p = Path(path)
    limit = MAX_BYTES if max_bytes is None else max_bytes
    if len(data) > limit:
        raise DocumentError(str(p), "too-large", f"{len(data)} bytes > limit {limit}")
    decoded = decode(data, str(p))
    fmt = TEXT_FORMATS.get(p.suffix.lower(), "txt")
    text = html_to_text(decoded.text) if fmt == "html" else decoded.text
    if not text.strip():
        raise DocumentError(str(p), "empty", "no visible text")
    doc = Document(doc_id=printable(p.stem if p.suffix else p.name), path=str(p),
                   encoding=decoded.encoding, format=fmt, text=text)
    return doc, decoded.repairs


def read_bytes(p: Path, max_bytes: int | None = None) -> bytes:
    """The file's bytes; DocumentError for missing, folder, special file, too large ...

    Only regular files are opened: a named pipe or a device would block or never end."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    try:
        info = p.stat()
        if stat.S_ISDIR(info.st_mode):
            raise DocumentError(str(p), "directory", "a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise DocumentError(str(p), "unreadable", f"{_file_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise DocumentError(str(p), "too-large", f"{info.st_size} bytes > limit {limit}")
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except DocumentError:
        raise
    except FileNotFoundError:
        detail = "dangling symbolic link" if p.is_symlink() else "no such file"
        raise DocumentError(str(p), "missing", detail) from None
    except PermissionError:
        raise DocumentError(str(p), "unreadable", "permission denied") from None
    except OSError as exc:  # symlink loops, names too long, I/O errors
        raise DocumentError(str(p), "unreadable", exc.strerror or type(exc).__name__) from None
    if len(data) > limit:  # grew while being read
        raise DocumentError(str(p), "too-large", f"more than {limit} bytes")
    return data


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def decode_bytes(data: bytes, name: str = "<bytes>") -> tuple[str, str]:
    """Decode article bytes; return (text, encoding name)."""
    decoded = decode(data, name)
    return decoded.text, decoded.encoding
