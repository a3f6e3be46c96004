"""Read one article file into a :class:`Document`.

Encodings: UTF-8 (with or without BOM), UTF-16/32 with BOM, GB18030 (covers GBK and
GB2312) and Big5 / Big5-HKSCS, told apart by strict decoding and a score of how
many of the decoded Han characters are common ones. Formats: .txt, .md, .html/.htm.
Every failure is a :class:`DocumentError` naming the file and the reason.
"""
from __future__ import annotations

import codecs
import os
from functools import lru_cache
from pathlib import Path

from .errors import DocumentError
from .htmltext import html_to_text
from .records import Document

TEXT_FORMATS = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md",
                ".html": "html", ".htm": "html", "": "txt"}
MAX_BYTES = 64 * 1024 * 1024

BOMS = (  # longest first: the UTF-32 LE BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)
MAGIC = (  # signatures of common binary formats
    (b"%PDF", "PDF"), (b"\x89PNG", "PNG image"), (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"), (b"PK\x03\x04", "ZIP archive"), (b"\x1f\x8b", "gzip archive"),
    (b"BZh", "bzip2 archive"), (b"\xfd7zXZ", "xz archive"), (b"7z\xbc\xaf", "7z archive"),
    (b"Rar!", "RAR archive"), (b"\x7fELF", "executable"), (b"RIFF", "RIFF media"),
    (b"\x00\x00\x01\x00", "icon"), (b"SQLite format 3", "SQLite database"),
)
CJK_CANDIDATES = ("gb18030", "big5hkscs")


def read_document(path: str | os.PathLike) -> Document:
    """Read ``path`` into a Document (doc_id = file name without extension)."""
    p = Path(path)
    return document_from_bytes(p, read_bytes(p))


def document_from_bytes(path: str | os.PathLike, data: bytes) -> Document:
    """The Document of a file whose bytes are already read (the batch runner hashes them)."""
    p = Path(path)
    text, encoding = decode_bytes(data, str(p))
    fmt = TEXT_FORMATS.get(p.suffix.lower(), "txt")
    if fmt == "html":
        text = html_to_text(text)
    if not text.strip():
        raise DocumentError(str(p), "empty", "no visible text")
    return Document(doc_id=p.stem if p.suffix else p.name, path=str(p),
                    encoding=encoding, format=fmt, text=text)


def read_bytes(p: Path) -> bytes:
    """The file's bytes (at most MAX_BYTES); DocumentError for missing, folder, too large ..."""
    try:
        if p.is_dir():
            raise DocumentError(str(p), "directory", "a folder, not a file")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise DocumentError(str(p), "too-large", f"{size} bytes > {MAX_BYTES}")
        with p.open("rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except DocumentError:
        raise
    except FileNotFoundError:
        raise DocumentError(str(p), "missing", "no such file") from None
    except PermissionError:
        raise DocumentError(str(p), "unreadable", "permission denied") from None
    except OSError as exc:  # symlink loops, I/O errors, special files
        raise DocumentError(str(p), "unreadable", exc.strerror or type(exc).__name__) from None


def decode_bytes(data: bytes, name: str = "<bytes>") -> tuple[str, str]:
    """Decode article bytes; return (text, encoding name)."""
    for bom, enc in BOMS:
        if data.startswith(bom):
            try:
                return data.decode(enc), enc.replace("-sig", "")
            except UnicodeDecodeError as exc:
                raise DocumentError(name, "undecodable", f"{enc} with BOM: {exc.reason}") from None
    for magic, kind in MAGIC:
        if data.startswith(magic):
            raise DocumentError(name, "binary", kind)
    if b"\x00" in data:
        utf16 = _utf16_without_bom(data)
        if utf16 is not None:
            return utf16
        raise DocumentError(name, "binary", "NUL bytes")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = _best_cjk_decoding(data)
    if best is not None:
        return best
    raise DocumentError(name, "undecodable",
                        "not UTF-8, UTF-16/32, GB18030 or Big5")


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """UTF-16 with no BOM: NULs sit on one side of most code units."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    enc = "utf-16-le" if odd > 0.3 * half and even < 0.05 * half else (
        "utf-16-be" if even > 0.3 * half and odd < 0.05 * half else None)
    if enc is None:
        return None
    try:
        text = data.decode(enc)
    except UnicodeDecodeError:
        return None
    return (text, enc) if _printable_share(text) > 0.95 else None


def _printable_share(text: str) -> float:
    if not text:
        return 0.0
    good = sum(1 for c in text if c.isprintable() or c in "\r\n\t")
    return good / len(text)


@lru_cache(maxsize=1)
def _common_han() -> frozenset[str]:
    """Common Han characters: GB2312 level 1 and Big5 level 1, read from the codecs."""
    chars: set[str] = set()
    for lead in range(0xB0, 0xD8):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes((lead, trail)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for lead in range(0xA4, 0xC7):
        for trail in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            try:
                chars.add(bytes((lead, trail)).decode("big5"))
            except UnicodeDecodeError:
                pass
    return frozenset(chars)


def _han_score(text: str) -> float:
    han = [c for c in text[:20000] if "\u3400" <= c <= "\u9fff" or "\U00020000" <= c]
    if not han:
        return 0.5
    common = _common_han()
    return sum(1 for c in han if c in common) / len(han)


def _best_cjk_decoding(data: bytes) -> tuple[str, str] | None:
    scored = []
    for enc in CJK_CANDIDATES:
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        scored.append((_han_score(text), enc, text))
    if not scored:
        return None
    score, enc, text = max(scored, key=lambda s: s[0])
    if score < 0.6 or _printable_share(text[:20000]) < 0.95:
        return None
    return text, enc
