"""The HTML report: self-contained, hostile text and file names escaped, highlights drawn."""
from __future__ import annotations

import json
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


def all_pages(report: Path) -> list[Path]:
    return pages(report) + [report / n for n in ("contradicted.html", "documents.html",
                                                 "consensus.html")] \
        + sorted((report / "groups").iterdir())


def test_report_has_every_part(report):
    index = (report / "index.html").read_text(encoding="utf-8")
    for heading in ("Verdicts", "Contradicted claims", "Consensus per chip", "Documents"):
        assert f"<h2>{heading}</h2>" in index
    assert "failed: binary" in index and "broken &lt;b onclick=alert(1)&gt;bold.txt" in index
    assert len(list((report / "docs").iterdir())) == 3   # the failed file has no page
    assert index.count("<svg class=\"chart\"") == 3      # per chip, per attribute, documents
    assert "<details open><summary><b>A100</b> · misattributed" in index
    for name in ("contradicted.html", "documents.html", "consensus.html"):
        assert (report / name).is_file()


def test_no_script_no_handlers_no_javascript_urls(report):
    for page in all_pages(report):
        check_page(page.read_text(encoding="utf-8"))


def check_page(html: str) -> None:
    tags = parse(html)
    assert "script" not in {t for t, _ in tags}
    for tag, attrs in tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            value = attrs.get(name, "").strip().lower()
            assert not value.startswith(("javascript:", "data:", "vbscript:")), (tag, attrs)
        if tag == "a":
            assert re.match(r"(#row-\d+|(\.\./)?index\.html|(\.\./)?(docs|groups)/[A-Za-z0-9_-]+"
                            r"\.html|(contradicted|documents|consensus)\.html|https?://)",
                            attrs["href"]), attrs
    assert {t for t, _ in tags} <= {"html", "head", "meta", "title", "style", "body", "h1",
                                    "h2", "h3", "p", "br", "a", "table", "tr", "th", "td",
                                    "span", "div", "pre", "mark", "sup", "b", "ol", "li",
                                    "details", "summary", "figure", "figcaption", "svg",
                                    "rect", "text"}
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


CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SAMPLES = {"zh-Hans": "016_zh_h100_gtc2022_launch.txt",
           "zh-Hant": "033_cn2t_h100_gtc2022_news.txt",
           "en": "059_en_blackwell_hopper_compare.md"}   # each with right and wrong figures
MEASURE = """JSON.stringify({
  scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
  lang: document.documentElement.lang,
  font: getComputedStyle(document.querySelector('pre.doc') || document.body).fontFamily,
  marks: [...document.querySelectorAll('mark')].map(m => [m.className,
          getComputedStyle(m).backgroundColor]),
  wide: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right
          > innerWidth + 1 && !e.closest('.scroll')).map(e => e.tagName).slice(0, 5)})"""


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.fixture(scope="module")
def browser_report(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    corpus = base / "corpus"
    corpus.mkdir()
    for name in SAMPLES.values():
        shutil.copy(CORPUS / name, corpus / name)
    assert run_cli("run", corpus, "--out", base / "out").exit_code == 0
    return base / "out" / "report"


@pytest.mark.slow
def test_report_fits_the_window_and_colours_highlights_in_headless_chromium(browser_report,
                                                                          tmp_path):
    """Index and document pages (zh-Hans, zh-Hant, en) at 1400 and 390 px: no horizontal
    overflow, lang from the script, a CJK sans font stack, highlights coloured by verdict
    (computed style and screenshot pixels). SPECEXTRACT_SCREENSHOTS=DIR keeps the PNGs."""
    executable = find_browser()
    if executable is None:
        skip_or_fail("no chromium on PATH (apt-get install chromium fonts-noto-cjk to run this)")
    image = pytest.importorskip("PIL.Image", reason="Pillow (the dev extra) reads the screenshot")
    from browserkit import Browser, BrowserError
    from specextract.output.pages import safe_name
    from specextract.output.style import COLOURS
    keep = Path(os.environ.get("SPECEXTRACT_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    targets = {"index": browser_report / "index.html"}
    for lang, name in SAMPLES.items():
        targets[lang] = browser_report / "docs" / safe_name(str((browser_report.parents[1] /
                                                                "corpus" / name).absolute()),
                                                           name.rsplit(".", 1)[0])
    try:
        with Browser(executable, tmp_path / "profile") as b:
            for label, page in targets.items():
                assert page.is_file(), page
                for width in (1400, 390):
                    b.open(page.as_uri(), width=width)
                    got = json.loads(b.evaluate(MEASURE))
                    shot = b.screenshot(keep / f"{label}-{width}.png")
                    where = f"{label} at {width} px"
                    assert got["scrollWidth"] <= got["innerWidth"], (where, got["wide"])
                    assert got["wide"] == [], where
                    assert got["lang"] == ("en" if label == "index" else label), where
                    assert "Noto Sans CJK" in got["font"] and "monospace" not in got["font"]
                    if label == "index":
                        continue
                    for cls, colour in got["marks"]:
                        assert colour == _rgb(COLOURS[cls.removeprefix("v-")]), (where, cls)
                    assert {c for c, _ in got["marks"]} >= {"v-supported", "v-contradicted"}
                    if width == 1400:   # the article is the left half, below the heading
                        whole = b.screenshot(tmp_path / "whole.png", full=True)
                        picture = image.open(whole).convert("RGB")
                        area = picture.crop((0, 130, 690, picture.height))
                        count = {rgb: n for n, rgb in area.getcolors(maxcolors=1 << 20)}
                        for verdict in ("supported", "contradicted"):
                            rgb = tuple(int(COLOURS[verdict][i:i + 2], 16) for i in (1, 3, 5))
                            assert count.get(rgb, 0) > 300, (where, verdict)
    except BrowserError as exc:
        skip_or_fail(f"chromium did not run: {exc}")


def test_index_stays_under_a_megabyte_at_10000_documents(tmp_path):
    """A store of 10,000 documents and 120,000 claims (synthetic rows written directly):
    index.html stays small, ranks the worst document first and links to the full lists."""
    from specextract.check.reference import load_reference
    from specextract.codebook import ATTRIBUTE_UNITS
    from specextract.output.report import index_page
    from specextract.store.db import CLAIM_STORE_COLUMNS, Store
    attributes = sorted(ATTRIBUTE_UNITS)
    kinds = ("misattributed: {v} is B200's figure", "wrong precision: {v} is the fp16 figure",
             "sparse as dense: {v} is the sparse figure", "unit mix-up: GB/s vs TB/s ({v})",
             "preliminary: {v} is the preliminary figure", "")
    verdicts = ("supported",) * 7 + ("contradicted", "unverifiable", "approximate")
    source = ("https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/ "
              "(NVIDIA Tech Blog 2022-03-22, PRELIMINARY specs) | https://example.org/x")
    store = Store.open(tmp_path / "big.db")
    try:
        with store.conn:
            store.conn.executemany(
                "INSERT INTO documents (path, doc_id, status, pipeline_version, n_claims, "
                "processed_at, script) VALUES (?, ?, 'ok', 'p', 12, 't', 'zh-Hans')",
                ((f"/corpus/doc_{d:05d}.txt", f"doc_{d:05d}") for d in range(10_000)))
            cols = ("path", "seq", "doc_id", "entity", "attribute", "value", "surface", "start",
                    "end", "verdict", "expected", "diagnosis", "source", "link")
            rows = []
            for d in range(10_000):
                for k in range(12):
                    n = d * 12 + k
                    verdict = "contradicted" if d == 4242 else verdicts[(n * 7) % 10]
                    rows.append((f"/corpus/doc_{d:05d}.txt", k, f"doc_{d:05d}",
                                 f"Chip {(n // 7) % 90}", attributes[n % len(attributes)],
                                 str(n % 977), f"{n % 977} TFLOPS", 10 * k, 10 * k + 4,
                                 verdict, str(n % 331),
                                 kinds[(n // 3) % 6].format(v=n % 977) if verdict == "contradicted"
                                 else "", source, "clause"))
            assert set(cols) <= set(CLAIM_STORE_COLUMNS) | {"path", "seq"}
            store.conn.executemany(f"INSERT INTO claims ({', '.join(map(repr, cols))}) VALUES "
                                   f"({', '.join('?' * len(cols))})".replace("'", '"'), rows)
        html = index_page(store, load_reference())
    finally:
        store.close()
    size = len(html.encode("utf-8"))
    assert size < 1_000_000, f"index.html is {size:,} bytes at 10,000 documents"
    ranked = html.split("<h2>Documents</h2>")[1]
    assert re.search(r"<tr><td><a href=\"docs/doc_04242-[0-9a-f]{10}\.html\">doc_04242</a>",
                     ranked.split("</tr>", 2)[1]), ranked[:600]
    assert html.count("<details") == 40 and "all 12000 claims" not in html
    for target in ("contradicted.html", "documents.html", "consensus.html"):
        assert f"href=\"{target}\"" in html
    check_page(html)
