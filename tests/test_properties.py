"""Properties over arbitrary text: normalize, extract and check never raise, every offset
is valid and points at its surface, every verdict is one of the four; decoding any bytes
gives text or a DocumentError; block-wise extraction keeps offsets.

PROPERTY_EXAMPLES=3000 pytest tests/test_properties.py runs a longer search (default 300).
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings, strategies as st

from specextract.extract.blocks import extract_blocks
from specextract.check.checker import check
from specextract.errors import DocumentError
from specextract.extract.claims import extract
from specextract.ingest.html import html_to_text
from specextract.normalize.text import normalize
from specextract.records import Document
from specextract.codebook import VERDICTS
from specextract.ingest.decode import decode
from specstrategies import any_text, article_text

SETTINGS = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "300")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(any_text())
def test_normalize_maps_every_character_into_the_original(text):
    norm = normalize(text)
    assert norm.original_length == len(text)
    assert norm.script in ("zh-Hans", "zh-Hant", "en", "mixed")
    for i in range(len(norm.text)):
        start, end = norm.original_span(i, i + 1)
        assert 0 <= start <= end <= len(text)
    start, end = norm.original_span(0, len(norm.text))
    assert 0 <= start <= end <= len(text)


@SETTINGS
@given(any_text())
def test_extract_and_check_never_raise_and_keep_offsets(text):
    claims = extract(text, "doc")
    for claim in claims:
        assert 0 <= claim.start < claim.end <= len(text)
        assert text[claim.start:claim.end] == claim.surface
        assert claim.doc_id == "doc"
    checked = check(claims)
    assert len(checked) == len(claims)
    assert all(c.verdict in VERDICTS for c in checked)


@SETTINGS
@given(st.lists(article_text(20), min_size=1, max_size=6).map("\n".join),
       st.integers(20, 200), st.integers(10, 80))
def test_block_wise_extraction_keeps_offsets(text, size, line_size):
    claims, script = extract_blocks(Document("d", "d.txt", "utf-8", "txt", text), size, line_size)
    assert all(text[c.start:c.end] == c.surface for c in claims)
    assert script in ("zh-Hans", "zh-Hant", "en", "mixed")


@SETTINGS
@given(st.one_of(st.binary(max_size=400),
                 article_text().map(lambda t: t.encode("utf-8")),
                 article_text().map(lambda t: t.encode("gb18030", "replace")),
                 article_text().map(lambda t: t.encode("utf-16", "surrogatepass")),
                 st.tuples(article_text(), st.binary(max_size=8), article_text()).map(
                     lambda p: p[0].encode() + p[1] + p[2].encode("big5hkscs", "replace"))))
def test_any_bytes_decode_to_text_or_a_document_error(data):
    try:
        decoded = decode(data, "x.txt")
    except DocumentError as exc:
        assert exc.reason in ("binary", "undecodable") and exc.path == "x.txt"
        return
    decoded.text.encode("utf-8")  # no lone surrogates: SQLite stores it
    assert "\x00" not in decoded.text
    assert decoded.encoding


@SETTINGS
@given(st.lists(st.one_of(article_text(6), st.sampled_from(
    ["<p>", "</p>", "<td>", "<tr>", "<script>", "</script>", "<!--", "-->", "<a href='",
     '"', "<", ">", "</", "<!", "&amp;", "&#x4e2d;", "&", "<br/>", "<svg>", "</svg>"])),
    max_size=60).map("".join))
def test_html_to_text_never_raises(markup):
    text = html_to_text(markup)
    assert text == "" or text.endswith("\n")


@SETTINGS
@given(any_text(), st.integers(0, 200), st.integers(0, 200))
def test_original_span_agrees_with_indexing_the_map(text, i, j):
    norm = normalize(text)
    start, end = min(i, j) % (len(norm.text) + 1), max(i, j) % (len(norm.text) + 1)
    if end <= start:
        return
    m = norm.to_original
    assert norm.original_span(start, end) == (m[start], m[end - 1] + 1)
