"""Ingestion: encodings, formats and typed errors, on real files written by the tests."""
from __future__ import annotations

import os

import pytest

from specextract.errors import DocumentError
from specextract.ingest.read import read_document

HANS = "英伟达A100显卡的显存带宽为2TB/s，晶体管数量为540亿个，采用7纳米制程，单精度算力19.5 TFLOPS。"
HANT = "輝達A100顯示卡的記憶體頻寬為2TB/s，電晶體數量為540億個，採用7奈米製程，單精度運算19.5 TFLOPS。"
HK = "英偉達嘅A100晶片，記憶體頻寬達2TB/s，電晶體數量540億，啱晒用嚟訓練模型。"

ENCODINGS = [
    ("utf8", HANS, "utf-8", b"", "utf-8"),
    ("utf8-bom", HANS, "utf-8", b"\xef\xbb\xbf", "utf-8"),
    ("utf16-le-bom", HANT, "utf-16-le", b"\xff\xfe", "utf-16"),
    ("utf16-be-bom", HANT, "utf-16-be", b"\xfe\xff", "utf-16"),
    ("utf32-le-bom", HANS, "utf-32-le", b"\xff\xfe\x00\x00", "utf-32"),
    ("gb18030", HANS, "gb18030", b"", "gb18030"),
    ("gbk", HANS, "gbk", b"", "gb18030"),
    ("gb2312", HANS, "gb2312", b"", "gb18030"),
    ("big5", HANT, "big5", b"", "big5hkscs"),
    ("big5-hkscs", HK, "big5hkscs", b"", "big5hkscs"),
]


@pytest.mark.parametrize("text,codec,bom,detected", [e[1:] for e in ENCODINGS],
                         ids=[e[0] for e in ENCODINGS])
def test_encodings_detected(tmp_path, text, codec, bom, detected):
    path = tmp_path / "article.txt"
    path.write_bytes(bom + text.encode(codec))
    doc = read_document(path)
    assert doc.text == text
    assert doc.encoding == detected
    assert doc.doc_id == "article"


def test_utf16_without_bom(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(("A100 has 80GB HBM2e memory. " * 5).encode("utf-16-le"))
    assert read_document(path).encoding == "utf-16-le"


def test_html_visible_text_only(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>t</title><style>p{color:red}</style>"
        "<script>var x = '19.5 TFLOPS';</script></head><body>"
        "<h1>A100&nbsp;规格</h1><p>FP32 &amp; FP64: <b>19.5</b> TFLOPS</p>"
        "<table><tr><th>参数</th><th>A100</th></tr><tr><td>显存</td><td>80GB</td></tr></table>"
        "</body></html>", encoding="utf-8")
    doc = read_document(path)
    assert doc.format == "html"
    assert "var x" not in doc.text and "color" not in doc.text
    assert "FP32 & FP64: 19.5 TFLOPS" in doc.text
    assert "A100 规格" in doc.text  # no-break space folded like any whitespace
    assert "参数 | A100\n显存 | 80GB" in doc.text


def test_markdown_kept_as_text(tmp_path):
    path = tmp_path / "t.md"
    path.write_text("| 参数 | A100 |\n|---|---|\n| 显存 | 80GB |\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.format == "md" and "| 显存 | 80GB |" in doc.text


ERRORS = [
    ("missing", None, "missing"),
    ("pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "binary"),
    ("png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ("zip", b"PK\x03\x04\x14\x00\x00\x00", "binary"),
    ("nul-bytes", b"abc\x00\x01\x02def\x00\xff\xfe\x00garbage", "binary"),
    ("invalid-bytes", bytes(range(0x80, 0x100)) * 4, "undecodable"),
    ("empty", b"", "empty"),
    ("whitespace", b"  \n\t \r\n", "empty"),
]


@pytest.mark.parametrize("content,reason", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_input_typed_error(tmp_path, content, reason):
    path = tmp_path / "bad file.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.reason == reason
    assert str(path) in str(info.value)


def test_directory_is_an_error(tmp_path):
    with pytest.raises(DocumentError) as info:
        read_document(tmp_path)
    assert info.value.reason == "directory"


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "locked.txt"
    path.write_text("A100", encoding="utf-8")
    path.chmod(0)
    if os.geteuid() == 0:  # root reads any file: make open() refuse as it would for a user
        def refuse(self, *args, **kwargs):
            raise PermissionError(13, "Permission denied")
        monkeypatch.setattr(type(path), "open", refuse)
    with pytest.raises(DocumentError) as info:
        read_document(path)
    assert info.value.reason == "unreadable"


def test_symlink_loop(tmp_path):
    loop = tmp_path / "loop.txt"
    os.symlink(loop, loop)
    with pytest.raises(DocumentError) as info:
        read_document(loop)
    assert info.value.reason == "unreadable"
