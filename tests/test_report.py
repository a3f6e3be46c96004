"""The HTML report: self-contained, hostile text and file names escaped, highlights drawn."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from batchkit import article, make_corpus, run_cli
from specextract.output.pages import clusters, safe_name, source_html

HOSTILE_NAME = "x\"'><img src=x onerror=alert(1)> javascript:alert(2)"
HOSTILE_TEXT = (
    "<script>alert('pwned')</script>\n"
    "NVIDIA A100 的单精度算力为 15 TFLOPS，显存带宽为 2 TB/s。\n"
    "<img src=x onerror=\"alert(1)\"> <a href=\"javascript:alert(3)\">click</a> "
    "javascript:alert(4) \" onmouseover=\"alert(5)\n"
    "The NVIDIA H100 delivers 60 TFLOPS of FP64.</textarea></pre><style>body{display:none}</style>\n")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_browser() -> str | None:
    """The first headless-capable Chromium on PATH, under its usual names."""
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


def skip_or_fail(why: str) -> None:
    """Skip on a developer's machine; under CI (CI=true) a missing browser is a failure."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{why} (CI must run the browser test: .ci/run installs chromium)")
    pytest.skip(why)


class Collect(HTMLParser):
    """Every start tag and its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def parse(html: str) -> list[tuple[str, dict[str, str]]]:
    collector = Collect()
    collector.feed(html)
    return collector.tags


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("report")
    corpus = make_corpus(base / "corpus", 2)
    (corpus / f"{HOSTILE_NAME}.txt").write_text(HOSTILE_TEXT, encoding="utf-8")
    (corpus / "broken <b onclick=alert(1)>bold.txt").write_bytes(b"\x00\x01\x02" * 50)
    result = run_cli("run", corpus, "--out", base / "out")
    assert result.exit_code == 1, result.output   # the broken file
    return base / "out" / "report"


def pages(report: Path) -> list[Path]:
    return [report / "index.html"] + sorted((report / "docs").iterdir())


def test_report_has_every_part(report):
    index = (report / "index.html").read_text(encoding="utf-8")
    for heading in ("Verdicts", "Contradicted claims", "Consensus per chip", "Documents"):
        assert f"<h2>{heading}</h2>" in index
    assert "failed: binary" in index and "broken &lt;b onclick=alert(1)&gt;bold.txt" in index
    assert len(list((report / "docs").iterdir())) == 3   # the failed file has no page


@pytest.mark.parametrize("page_index", range(4), ids=["index", "doc-0", "doc-1", "doc-2"])
def test_no_script_no_handlers_no_javascript_urls(report, page_index):
    page = pages(report)[page_index]
    html = page.read_text(encoding="utf-8")
    tags = parse(html)
    assert "script" not in {t for t, _ in tags}
    for tag, attrs in tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            value = attrs.get(name, "").strip().lower()
            assert not value.startswith(("javascript:", "data:", "vbscript:")), (tag, attrs)
        if tag == "a":
            assert re.match(r"(#row-\d+|\.\./index\.html|docs/[A-Za-z0-9_-]+\.html|https?://)",
                            attrs["href"]), attrs
    assert {t for t, _ in tags} <= {"html", "head", "meta", "title", "style", "body", "h1",
                                    "h2", "p", "br", "a", "table", "tr", "th", "td", "span",
                                    "div", "pre", "mark", "sup"}
    assert "http-equiv=\"Content-Security-Policy\"" in html and "<link" not in html


def test_hostile_article_text_and_name_are_shown_escaped(report):
    [page] = [p for p in (report / "docs").iterdir() if p.name.startswith("x_img_src")]
    assert re.fullmatch(r"[A-Za-z0-9_-]+-[0-9a-f]{10}\.html", page.name)
    html = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in html
    assert "onerror=&quot;alert(1)&quot;" in html
    assert "&lt;/textarea&gt;&lt;/pre&gt;&lt;style&gt;" in html
    assert "<h1>x&quot;&#x27;&gt;&lt;img src=x onerror=alert(1)&gt; javascript:alert(2)</h1>" in html
    marks = [attrs for tag, attrs in parse(html) if tag == "mark"]
    assert {m["class"] for m in marks} >= {"v-contradicted", "v-supported"}
    assert any("expected 19.5 TFLOPS" in m["title"] for m in marks)


def test_safe_names_stay_in_the_folder():
    for doc_id in ("../../etc/passwd", "..", ".hidden", "a/b\\c", "名字", "x" * 300, ""):
        name = safe_name(f"/corpus/{doc_id}.txt", doc_id)
        assert re.fullmatch(r"[A-Za-z0-9_-]+-[0-9a-f]{10}\.html", name), name
        assert len(name) < 90
    assert safe_name("/a/x.txt", "x") != safe_name("/b/x.txt", "x")


def test_sources_link_only_http_urls():
    html = source_html('javascript:alert(1) see https://example.org/a?b=1&c="2" <b>x</b>')
    assert [attrs["href"] for tag, attrs in parse(html) if tag == "a"] == \
        ["https://example.org/a?b=1&c="]
    assert "javascript:alert(1)" in html and "<b>" not in html


def test_overlapping_claims_become_one_highlight():
    rows = [{"start": "0", "end": "4"}, {"start": "2", "end": "6"}, {"start": "8", "end": "9"},
            {"start": "5", "end": "99"}]
    assert clusters(rows, 20) == [(0, 6, [1, 2]), (8, 9, [3])]


@pytest.mark.slow
def test_report_renders_highlights_in_headless_chromium(tmp_path):
    browser = find_browser()
    if browser is None:
        skip_or_fail("no chromium on PATH (apt-get install chromium fonts-noto-cjk to run this)")
    image = pytest.importorskip("PIL.Image", reason="Pillow (the dev extra) reads the screenshot")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "mixed.txt").write_text(article(1), encoding="utf-8")   # right and wrong figures
    assert run_cli("run", corpus, "--out", tmp_path / "out").exit_code == 0
    [page] = (tmp_path / "out" / "report" / "docs").iterdir()
    shot = tmp_path / "shot.png"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", "--no-first-run",
                           f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,900",
                           f"--screenshot={shot}", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    if done.returncode or not shot.exists():
        skip_or_fail(f"chromium took no screenshot (exit {done.returncode}): {done.stderr[-300:]}")
    if os.environ.get("SPECEXTRACT_SCREENSHOT"):   # keep it for a person to look at
        shutil.copy(shot, os.environ["SPECEXTRACT_SCREENSHOT"])
    text_area = image.open(shot).convert("RGB").crop((0, 200, 560, 900))  # below the legend
    count = {rgb: n for n, rgb in text_area.getcolors(maxcolors=1 << 20)}
    assert count.get((0xb7, 0xe4, 0xc7), 0) > 500     # supported (green) highlights
    assert count.get((0xff, 0x9b, 0x9b), 0) > 500     # contradicted (red) highlights
