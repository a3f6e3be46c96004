"""Article bytes -> text: which encoding, and what had to be repaired.

    decoded = decode(data, "article.txt")   # Decoded(text, encoding, repairs) or DocumentError

Order: a BOM (UTF-8/16/32) decides; a binary signature (PDF, PNG, ZIP ...) or NUL bytes
that are not UTF-16 make the file "binary"; valid UTF-8 is UTF-8; otherwise every line is
decoded on its own as UTF-8, GB18030 or Big5-HKSCS, whichever gives the most common Han
characters (so a Big5 paragraph pasted into a UTF-8 article, or a truncated last
character, costs only what is broken). Bytes no encoding explains become U+FFFD; more
than ``MAX_REPLACED_SHARE`` of them make the file "undecodable". Every repair is listed in
``Decoded.repairs``, and the batch store records them.
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from functools import lru_cache

from ..errors import DocumentError
from .patterns import CONTROL, HIGH_BYTE

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
    (b"\xd0\xcf\x11\xe0", "MS Office document"), (b"MZ", "Windows executable"),
)
CJK_CODECS = ("gb18030", "big5hkscs")
MAX_REPLACED_SHARE = 0.01     # of the file's bytes, beyond a few stray ones
STRAY_BYTES = 8
MIN_COMMON_HAN = 0.6          # share of common Han characters a CJK decoding must reach
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    repairs: tuple[str, ...] = ()


def decode(data: bytes, name: str = "<bytes>") -> Decoded:
    """Decode article bytes; DocumentError (binary, undecodable) when it is not text."""
    for bom, enc in BOMS:
        if data.startswith(bom):
            if enc == "utf-8-sig":  # the BOM only says UTF-8; the body is checked as usual
                return _checked(_without_bom(data[len(bom):], name), name)
            return _checked(_with_bom(data, bom, enc, name), name)
    return _checked(_without_bom(data, name), name)


def _without_bom(data: bytes, name: str) -> Decoded:
    for magic, kind in MAGIC:
        if data.startswith(magic):
            raise DocumentError(name, "binary", kind)
    if b"\x00" in data:
        utf16 = _utf16_without_bom(data)
        if utf16 is None:
            raise DocumentError(name, "binary", f"NUL byte at offset {data.index(0)}")
        return utf16
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        return _by_line(data, name)


def _checked(decoded: Decoded, name: str) -> Decoded:
    """Text with many control characters is a binary file that happens to decode."""
    sample = decoded.text[:1_000_000]
    controls = len(CONTROL.findall(sample))
    if controls > 0.05 * max(1, len(sample)):
        raise DocumentError(name, "binary", f"{controls} control characters")
    nuls = decoded.text.count("\x00")
    if nuls:  # a few U+0000 in UTF-16/32 text: no article means them
        return Decoded(decoded.text.replace("\x00", REPLACEMENT), decoded.encoding,
                       decoded.repairs + (f"{nuls} NUL character(s) replaced with U+FFFD",))
    return decoded


def _with_bom(data: bytes, bom: bytes, enc: str, name: str) -> Decoded:
    unit = 4 if enc == "utf-32" else 2
    repairs = []
    if len(data) % unit:
        repairs.append(f"{len(data) % unit} trailing byte(s) of a cut-off {enc} character dropped")
        data = data[:len(data) - len(data) % unit]
    text = data.decode(enc, "replace")
    bad = text.count(REPLACEMENT)
    if bad > STRAY_BYTES + MAX_REPLACED_SHARE * len(text):
        raise DocumentError(name, "undecodable", f"{enc} with BOM: {bad} invalid code units")
    if bad:
        repairs.append(f"{bad} invalid {enc} code unit(s) replaced with U+FFFD")
    return Decoded(text, enc, tuple(repairs))


def _utf16_without_bom(data: bytes) -> Decoded | None:
    """UTF-16 with no BOM: NULs sit on one side of most code units."""
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    enc = "utf-16-le" if odd > 0.3 * half and even < 0.05 * half else (
        "utf-16-be" if even > 0.3 * half and odd < 0.05 * half else None)
    if enc is None:
        return None
    repairs = []
    if len(data) % 2:
        data = data[:-1]
        repairs.append("1 trailing byte of a cut-off utf-16 character dropped")
    try:
        text = data.decode(enc)
    except UnicodeDecodeError:
        return None
    if "\x00" in text or _printable_share(text[:100_000]) < 0.95:
        return None
    return Decoded(text, enc, tuple(repairs))


def _printable_share(text: str) -> float:
    if not text:
        return 0.0
    good = sum(1 for c in text if c.isprintable() or c in "\r\n\t")
    return good / len(text)


# --- not UTF-8: line by line -----------------------------------------------------------
def _by_line(data: bytes, name: str) -> Decoded:
    """Each line with non-ASCII bytes decoded by the encoding that reads it best."""
    spans = list(_non_ascii_lines(data))
    order = _cjk_order(data, spans)
    pieces, used, replaced, lines_replaced = [], {}, 0, []
    pos = 0
    for lineno, start, end in spans:
        pieces.append(data[pos:start].decode("ascii"))
        text, enc, bad = _best_line(data[start:end], order)
        pieces.append(text)
        used[enc] = used.get(enc, 0) + end - start
        if bad:
            replaced += bad
            lines_replaced.append(lineno)
        pos = end
    pieces.append(data[pos:].decode("ascii"))
    if replaced > STRAY_BYTES + MAX_REPLACED_SHARE * len(data):
        raise DocumentError(name, "undecodable",
                            f"not UTF-8, GB18030 or Big5: {replaced} invalid byte sequences "
                            f"in {len(data)} bytes (first on line {lines_replaced[0]})")
    main = max(used, key=used.get)
    repairs = [f"{n} bytes on lines in {enc} (not {main})" for enc, n in used.items()
               if enc != main]
    if replaced:
        repairs.append(f"{replaced} invalid byte sequence(s) replaced with U+FFFD on line(s) "
                       + _line_list(lines_replaced))
    encoding = "+".join([main] + sorted(e for e in used if e != main))
    return Decoded("".join(pieces), encoding, tuple(repairs))


def _non_ascii_lines(data: bytes):
    """(1-based line number, start, end) of every line holding a byte above 0x7F; one
    pass over the bytes."""
    pos, lineno, counted = 0, 1, 0
    while (m := HIGH_BYTE.search(data, pos)) is not None:
        before = data.rfind(b"\n", pos, m.start())
        start = before + 1 if before >= 0 else pos
        end = data.find(b"\n", m.start())
        end = len(data) if end < 0 else end
        lineno += data.count(b"\n", counted, start)
        counted = start
        yield lineno, start, end
        pos = end + 1


def _cjk_order(data: bytes, spans) -> tuple[str, ...]:
    """The CJK encodings, the one that best reads the file's non-UTF-8 lines first."""
    sample = bytearray()
    for _, start, end in spans:
        line = data[start:end]
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            sample += line + b"\n"
            if len(sample) > 200_000:
                break

    def quality(enc: str) -> float:
        text = bytes(sample).decode(enc, "replace")
        return (han_score(text) or 0.0) - text.count(REPLACEMENT) / max(1, len(text))
    return tuple(sorted(CJK_CODECS, key=quality, reverse=True))


def _best_line(line: bytes, order: tuple[str, ...]) -> tuple[str, str, int]:
    """(text, encoding, invalid bytes) of one line: UTF-8 unless a CJK encoding (the
    file's own first) reads it cleanly as mostly common Han characters."""
    cjk = None
    for enc in order:
        try:
            text = line.decode(enc)
        except UnicodeDecodeError:
            continue
        score = han_score(text)
        if score is not None and score >= MIN_COMMON_HAN:
            cjk = (score, text, enc)
            break
    try:
        text = line.decode("utf-8")
        score = han_score(text)
        if cjk is None or score is None or score >= cjk[0]:
            return text, "utf-8", 0
    except UnicodeDecodeError:
        pass
    if cjk is not None:
        return cjk[1], cjk[2], 0
    text = line.decode("utf-8", "replace")
    return text, "utf-8", text.count(REPLACEMENT) - line.count(REPLACEMENT.encode())


def _line_list(lines: list[int], most: int = 5) -> str:
    shown = ", ".join(map(str, lines[:most]))
    return shown + (f" and {len(lines) - most} more" if len(lines) > most else "")


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


def han_score(text: str) -> float | None:
    """Share of common Han characters among the Han and other non-ASCII letters of
    ``text`` (its first 20,000 characters); None when it has none."""
    sample = [c for c in text[:20000] if c >= "\u0080" and (c.isalpha() or c == REPLACEMENT)]
    if not sample:
        return None
    common = _common_han()
    return sum(1 for c in sample if c in common) / len(sample)
