"""Hostile input: every bad file, table and store gets a clear error, the run goes on, and
nothing stored is lost.

The main case is one `specextract run` (a subprocess with a time limit: a regression
that blocks on a named pipe must fail the test, not hang it) over a folder holding good
articles and every kind of bad file; the store then holds each bad file with its reason
and the good ones with the claims a clean run gives them. Smaller tests cover what
needs a run of its own (sizes, time limits, stores, reference tables, gold files) and
the report's and exports' safety.
"""
from __future__ import annotations

import csv
import gc
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from batchkit import article, make_corpus, run_cli, write_reference
from specextract.batch import run as batch
from specextract.extract import blocks
from specextract.batch.run import process_task
from specextract.batch.tasks import DocumentTask
from specextract.ingest.read import read_document
from specextract.store.lock import LockFile

HANS = "英伟达 A100 的显存为 80GB，显存带宽为 2TB/s，单精度算力为 19.5 TFLOPS。\n"
HANT = "輝達 V100 的記憶體頻寬為 900 GB/s，單精度運算 15.7 TFLOPS。\n"


def utf16_with_lone_surrogate() -> bytes:
    return b"\xff\xfe" + (HANS + "\ud800").encode("utf-16-le", "surrogatepass") + "。\n".encode("utf-16-le")


# id -> (file name, bytes, status, reason); reason "repaired" means ok with a repair note
CASES = {
    "pdf": ("report.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>>", "error", "binary"),
    "png": ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64), "error", "binary"),
    "jpeg": ("photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(64), "error", "binary"),
    "zip": ("archive.zip", b"PK\x03\x04\x14\x00" + bytes(64), "error", "binary"),
    "gzip": ("archive.txt.gz", b"\x1f\x8b\x08\x00" + bytes(64), "error", "binary"),
    "elf": ("program", b"\x7fELF\x02\x01\x01" + bytes(64), "error", "binary"),
    "random-bytes": ("noise.bin", random.Random(7).randbytes(4096), "error", "binary"),
    "nul-bytes": ("nul.txt", HANS.encode()[:20] + b"\x00\x00" + HANS.encode(), "error", "binary"),
    "control-chars": ("ctrl.txt", bytes(range(1, 9)) * 200 + HANS.encode(), "error", "binary"),
    "invalid-utf8": ("garbage.txt", bytes(range(0x80, 0x100)) * 8, "error", "undecodable"),
    "stray-invalid-bytes": ("stray.txt", HANS.encode() + b"\xff\xfe\xfa\n" + HANS.encode(),
                            "ok", "repaired"),
    "truncated-multibyte": ("truncated.txt", HANS.encode() + "功耗".encode()[:-1],
                            "ok", "repaired"),
    "big5-line-in-utf8": ("mixed.txt", HANS.encode() + HANT.encode("big5hkscs")
                          + HANS.encode(), "ok", "repaired"),
    "utf8-line-in-gbk": ("mixed-gbk.txt", HANS.encode("gb18030") * 3 + HANT.encode()
                         + HANS.encode("gb18030"), "ok", "repaired"),
    "utf16-le-no-bom": ("utf16le.txt", HANS.encode("utf-16-le") * 3, "ok", None),
    "utf16-be-no-bom": ("utf16be.txt", HANS.encode("utf-16-be") * 3, "ok", None),
    "utf16-cut-off": ("utf16cut.txt", b"\xff\xfe" + HANS.encode("utf-16-le") * 2 + b"\x41",
                      "ok", "repaired"),
    "utf16-lone-surrogate": ("surrogate.txt", utf16_with_lone_surrogate(), "ok", "repaired"),
    "empty": ("empty.txt", b"", "error", "empty"),
    "whitespace": ("blank.txt", " \n\t\r\n\u3000 \n".encode(), "error", "empty"),
    "bom-only": ("bom.txt", b"\xef\xbb\xbf", "error", "empty"),
    "html-script-only": ("script.html", b"<html><script>A100 19.5 TFLOPS</script>"
                         b"<style>p{}</style></html>", "error", "empty"),
    "html-open-attribute": ("open.html", b'<a b="' * 50_000, "error", "empty"),
    "html-deep": ("deep.html", b"<div>" * 50_000 + HANS.encode() + b"</div>" * 50_000,
                  "ok", None),
    "html-malformed-mix": ("mess.html", b"<p>" + HANS.encode() + b"<b><i></b></i><!-- x"
                           b"<td><tr><<>></a></svg></p>" * 200, "ok", None),
    "name-with-spaces": ("a name with spaces.txt", HANS.encode(), "ok", None),
    "name-with-newline": ("new\nline.txt", HANS.encode(), "ok", None),
    "name-leading-dash": ("-rf --out.txt", HANS.encode(), "ok", None),
    "name-non-ascii": ("ünïcødé 中文 文章.txt", HANS.encode(), "ok", None),
    "name-backslashes": ("x\\..\\..\\evil.txt", HANS.encode(), "ok", None),
    "name-very-long": ("长" * 80 + ".txt", HANS.encode(), "ok", None),
}
SPECIAL = {  # made on the file system, not written: id -> (file name, reason)
    "fifo": ("pipe.txt", "unreadable"),
    "symlink-loop": ("loop.txt", "unreadable"),
    "dangling-symlink": ("dangling.txt", "missing"),
}


def _make_special(folder: Path, case: str, name: str) -> None:
    path = folder / name
    if case == "fifo":
        os.mkfifo(path)
    elif case == "symlink-loop":
        os.symlink(path, path)
    elif case == "dangling-symlink":
        os.symlink(folder / "nowhere.txt", path)


def store_rows(db: Path) -> dict[str, dict]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return {Path(r["path"]).name: dict(r) for r in conn.execute("SELECT * FROM documents")}
    finally:
        conn.close()


def claim_rows(db: Path, name: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT entity, attribute, value, surface, start, end, verdict FROM claims "
            "WHERE path LIKE ? ORDER BY seq", ("%/" + name,)).fetchall()
    finally:
        conn.close()


def run_subprocess(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "specextract", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    """One run over good articles, every hostile file and a path that does not exist;
    and a clean run over the good articles alone, for comparison."""
    root = tmp_path_factory.mktemp("hostile")
    good = make_corpus(root / "good", 3)
    folder = root / "in"
    make_corpus(folder, 3)
    for name, content, _, _ in CASES.values():
        (folder / name).write_bytes(content)
    for case, (name, _) in SPECIAL.items():
        _make_special(folder, case, name)
    (folder / "a folder.txt").mkdir()   # a folder named like a file: walked, holds nothing
    started = time.perf_counter()
    result = run_subprocess("run", "--out", root / "out", "--no-progress", "--",
                            folder, root / "does-not-exist.txt")
    seconds = time.perf_counter() - started
    clean = run_subprocess("run", "--out", root / "clean", "--no-progress", good)
    assert clean.returncode == 0, clean.stderr
    return result, root, seconds


def test_hostile_run_finishes_and_exits_1(hostile_run):
    result, root, seconds = hostile_run
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert (root / "out" / "claims.csv").is_file()
    assert (root / "out" / "report" / "index.html").is_file()
    assert seconds < 60


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_file_is_stored_with_its_reason(hostile_run, case):
    result, root, _ = hostile_run
    name, _, status, reason = CASES[case]
    row = store_rows(root / "out" / "specextract.db")[name]
    assert (row["status"], row["reason"]) == (status, reason), row["error"]
    if status == "error":
        assert row["error"] and row["n_claims"] == 0
        printable = batch.printable(row["error"])
        assert f"failed: {printable}" in result.stdout
    if reason == "repaired":
        assert row["error"] and f"repaired: {batch.printable(row['error'])}" in result.stdout


@pytest.mark.parametrize("case", sorted(SPECIAL))
def test_special_files_are_stored_with_their_reason(hostile_run, case):
    _, root, _ = hostile_run
    name, reason = SPECIAL[case]
    row = store_rows(root / "out" / "specextract.db")[name]
    assert (row["status"], row["reason"]) == ("error", reason)


def test_missing_input_is_stored_and_summarised(hostile_run):
    result, root, _ = hostile_run
    row = store_rows(root / "out" / "specextract.db")["does-not-exist.txt"]
    assert (row["status"], row["reason"]) == ("error", "missing")
    assert "does-not-exist.txt: missing (no such file)" in result.stdout


def test_good_documents_keep_their_claims(hostile_run):
    _, root, _ = hostile_run
    for i in range(3):
        name = f"art_{i:03d}.txt"
        claims = claim_rows(root / "out" / "specextract.db", name)
        assert claims and claims == claim_rows(root / "clean" / "specextract.db", name)


@pytest.mark.parametrize("case", ["stray-invalid-bytes", "truncated-multibyte",
                                  "utf16-cut-off", "utf16-lone-surrogate", "html-deep",
                                  "name-with-newline", "name-leading-dash", "name-non-ascii"])
def test_repaired_and_oddly_named_documents_keep_their_claims(hostile_run, case):
    _, root, _ = hostile_run
    claims = claim_rows(root / "out" / "specextract.db", CASES[case][0])
    assert ("A100", "memory_size", "80", "80GB") in [c[:4] for c in claims]


def test_mixed_encodings_are_read_line_by_line(hostile_run):
    _, root, _ = hostile_run
    rows = store_rows(root / "out" / "specextract.db")
    assert rows["mixed.txt"]["encoding"] == "utf-8+big5hkscs"
    assert "in big5hkscs" in rows["mixed.txt"]["error"]
    assert rows["mixed-gbk.txt"]["encoding"] == "gb18030+utf-8"
    assert HANT.strip() in rows["mixed-gbk.txt"]["text"]
    entities = {c[0] for c in claim_rows(root / "out" / "specextract.db", "mixed.txt")}
    assert {"A100", "V100"} <= entities


def test_script_and_style_content_is_not_read(hostile_run):
    _, root, _ = hostile_run
    rows = store_rows(root / "out" / "specextract.db")
    assert rows["script.html"]["reason"] == "empty"
    assert "<" not in rows["mess.html"]["text"] and "A100" in rows["mess.html"]["text"]


def test_stored_offsets_point_at_the_surface(hostile_run):
    _, root, _ = hostile_run
    conn = sqlite3.connect(f"file:{root / 'out' / 'specextract.db'}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT d.text, c.start, c.end, c.surface FROM claims c "
                            "JOIN documents d USING (path)").fetchall()
    finally:
        conn.close()
    assert rows and all(text[s:e] == surface for text, s, e, surface in rows)


def test_rerun_keeps_everything_and_retries_only_failures(hostile_run, tmp_path):
    _, root, _ = hostile_run
    db = root / "out" / "specextract.db"
    before = {n: (r["status"], r["reason"], r["n_claims"]) for n, r in store_rows(db).items()}
    again = run_subprocess("run", "--out", root / "out", "--no-progress", "--", root / "in",
                           root / "does-not-exist.txt")
    assert again.returncode == 1
    after = {n: (r["status"], r["reason"], r["n_claims"]) for n, r in store_rows(db).items()}
    assert after == before
    ok = sum(1 for s, _, _ in before.values() if s == "ok")
    assert f"0 processed, {ok} unchanged" in again.stdout


# --- size and time -----------------------------------------------------------------------
def test_a_50_mb_article_fails_fast_as_too_large(tmp_path):
    big = tmp_path / "in" / "huge.txt"
    big.parent.mkdir()
    with big.open("wb") as fh:
        for _ in range(50):
            fh.write(HANS.encode() * (1024 * 1024 // len(HANS.encode()) + 1))
    (tmp_path / "in" / "ok.txt").write_text(article(1), encoding="utf-8")
    started = time.perf_counter()
    result = run_cli("run", tmp_path / "in", "--out", tmp_path / "out", "--no-progress")
    assert time.perf_counter() - started < 20
    assert result.exit_code == 1
    row = store_rows(tmp_path / "out" / "specextract.db")["huge.txt"]
    assert row["reason"] == "too-large" and "limit 8388608" in row["error"]
    assert store_rows(tmp_path / "out" / "specextract.db")["ok.txt"]["n_claims"] > 0
    small = run_cli("run", tmp_path / "in" / "ok.txt", "--out", tmp_path / "out2",
                    "--max-size", "0.0001")     # the limit is an option (MiB)
    assert small.exit_code == 1 and "ok.txt: too-large" in small.output


@pytest.mark.slow
@pytest.mark.parametrize("unit", ["1", "A100", "19.5TFLOPS", "一二三四五六七八九十百千万亿两零"],
                         ids=["ones", "a100", "tflops", "zh-numerals"])
def test_a_long_single_line_is_processed_in_bounded_time(tmp_path, monkeypatch, unit):
    """A 1.2 MB line, cut into pieces of 300,000 characters (the real limits are larger;
    bench/bench_hostile.py measures 5 MB lines against ordinary articles)."""
    monkeypatch.setattr(blocks, "LINE_CHARS", 300_000)
    monkeypatch.setattr(blocks.extract_blocks, "__defaults__", (blocks.BLOCK_CHARS, 300_000))
    path = tmp_path / "line.txt"
    path.write_text(unit * (1_200_000 // len(unit.encode())) + "\n" + HANS, encoding="utf-8")
    process_task(DocumentTask(str(tmp_path / "warm.txt"), data=HANS.encode()))
    started = time.perf_counter()
    result = process_task(DocumentTask(str(path)))
    seconds = time.perf_counter() - started
    assert result["status"] == "ok", result.get("error")
    assert seconds < 30
    text = result["text"]
    assert any(c["surface"] == "80GB" for c in result["claims"])
    assert all(text[int(c["start"]):int(c["end"])] == c["surface"] for c in result["claims"])


def test_blocks_cover_the_text_and_keep_offsets():
    text = "A100 显存 80GB。\n" * 50 + "x" * 3000 + " A100 显存 40GB。\n" + "H100 显存 80GB\n"
    spans = blocks.split_blocks(text, size=400, line_size=500)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert all(0 < e - s <= 500 for s, e in spans)
    doc = read_document_from_text(text)
    claims, _ = blocks.extract_blocks(doc, size=400, line_size=500)
    assert all(text[c.start:c.end] == c.surface for c in claims)
    assert {("A100", 80), ("A100", 40), ("H100", 80)} <= {(c.entity, int(c.value)) for c in claims}


def read_document_from_text(text: str):
    from specextract.records import Document
    return Document("doc", "doc.txt", "utf-8", "txt", text)


def test_a_document_past_its_time_limit_fails_as_timeout(tmp_path, monkeypatch):
    from specextract.extract import document as pipeline

    def stuck(doc):
        while True:
            time.sleep(0.01)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "slow.txt").write_text(HANS, encoding="utf-8")
    monkeypatch.setattr(pipeline, "process_document", stuck)
    result = run_cli("run", tmp_path / "in", "--out", tmp_path / "out", "--timeout", "0.5",
                     "--no-progress")
    assert result.exit_code == 1 and "slow.txt: timeout" in result.output
    assert store_rows(tmp_path / "out" / "specextract.db")["slow.txt"]["reason"] == "timeout"


def test_a_checker_crash_fails_one_document_not_the_run(tmp_path, monkeypatch):
    corpus = make_corpus(tmp_path / "in", 3)
    real = batch.check

    def check(claims, ref):
        if any(c.doc_id == "art_001" for c in claims):
            raise ArithmeticError("checker bug")
        return real(claims, ref)
    monkeypatch.setattr(batch, "check", check)
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--no-progress")
    assert result.exit_code == 1
    rows = store_rows(tmp_path / "out" / "specextract.db")
    assert rows["art_001.txt"]["reason"] == "internal-error"
    assert "ArithmeticError: checker bug" in rows["art_001.txt"]["error"]
    assert rows["art_000.txt"]["n_claims"] > 0 and rows["art_002.txt"]["n_claims"] > 0


def test_a_recheck_crash_keeps_the_stored_claims(tmp_path, monkeypatch):
    corpus = make_corpus(tmp_path / "in", 2)
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    before = claim_rows(out / "specextract.db", "art_000.txt")
    monkeypatch.setattr(batch, "check", lambda claims, ref: 1 / 0)
    result = run_cli("run", corpus, "--out", out, "--reference",
                     write_reference(tmp_path / "specs.csv", "15"))
    assert result.exit_code == 1 and "internal-error" in result.output
    assert claim_rows(out / "specextract.db", "art_000.txt") == before


# --- folders, unreadable files -------------------------------------------------------------
def test_a_folder_where_a_file_is_expected(tmp_path):
    (tmp_path / "d.txt").mkdir()
    assert process_task(DocumentTask(str(tmp_path / "d.txt")))["reason"] == "directory"
    corpus = make_corpus(tmp_path / "in", 1)
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--db", tmp_path)
    assert result.exit_code == 2
    result = run_cli("run", corpus, "--out", tmp_path / "in" / "art_000.txt")
    assert result.exit_code == 2
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--reference", tmp_path / "d.txt")
    assert result.exit_code == 2 and "specs.csv" in result.output


def test_an_unreadable_file_is_stored_as_unreadable(tmp_path, monkeypatch):
    corpus = make_corpus(tmp_path / "in", 2)
    locked = corpus / "art_001.txt"
    locked.chmod(0)
    if os.geteuid() == 0:  # root reads any file: refuse it as the OS would for a user
        real_open = Path.open

        def refuse(self, *args, **kwargs):
            if self.name == "art_001.txt":
                raise PermissionError(13, "Permission denied")
            return real_open(self, *args, **kwargs)
        monkeypatch.setattr(Path, "open", refuse)
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--no-progress")
    assert result.exit_code == 1 and "art_001.txt: unreadable (permission denied)" in result.output
    assert store_rows(tmp_path / "out" / "specextract.db")["art_000.txt"]["n_claims"] > 0


def test_a_glob_that_matches_nothing_is_reported_missing(tmp_path):
    corpus = make_corpus(tmp_path / "in", 1)
    result = run_cli("run", corpus, str(tmp_path / "typo*.txt"), "--out", tmp_path / "out")
    assert result.exit_code == 1 and "typo*.txt: missing" in result.output
    assert store_rows(tmp_path / "out" / "specextract.db")["art_000.txt"]["n_claims"] > 0


# --- stores ----------------------------------------------------------------------------------
def _damaged_store(tmp_path: Path, how: str) -> Path:
    corpus = make_corpus(tmp_path / "seed", 1)
    assert run_cli("run", corpus, "--out", tmp_path / "seed-out").exit_code == 0
    data = (tmp_path / "seed-out" / "specextract.db").read_bytes()
    body = {"truncated": data[:4096], "zeroed": data[:100] + bytes(len(data) - 100),
            "scrambled": data[:100] + random.Random(3).randbytes(len(data) - 100)}[how]
    db = tmp_path / "damaged.db"
    db.write_bytes(body)
    return db


@pytest.mark.parametrize("how", ["truncated", "zeroed", "scrambled"])
def test_a_damaged_store_is_refused_and_left_untouched(tmp_path, how):
    db = _damaged_store(tmp_path, how)
    before = db.read_bytes()
    corpus = make_corpus(tmp_path / "in", 1)
    for args in (("run", corpus, "--out", tmp_path / "out", "--db", db), ("export", "--db", db)):
        result = run_cli(*args)
        assert result.exit_code == 2, result.output
        assert "damaged specextract store" in result.output
    assert db.read_bytes() == before
    assert not list(tmp_path.glob("damaged.db-*"))  # no WAL or journal left beside it


def test_a_locked_store_is_refused_and_left_untouched(tmp_path):
    corpus = make_corpus(tmp_path / "in", 1)
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out).exit_code == 0
    db = out / "specextract.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    lock = LockFile.acquire(out / "specextract.db.lock")
    try:
        (corpus / "new.txt").write_text(article(5), encoding="utf-8")
        result = run_cli("run", corpus, "--out", out)
        assert result.exit_code == 2 and "locked by another run" in result.output
    finally:
        lock.release()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


# --- reference tables and gold files --------------------------------------------------------
GOOD_SPECS = ("chip,variant,attribute,value,unit,condition,source,confidence\n"
              "NVIDIA A100,80GB SXM4,fp32,19.5,TFLOPS,non-tensor,https://example.org/a,high\n")
BAD_SPECS = {
    "missing-column": ("chip,variant,attribute,value,unit,condition,source\nNVIDIA A100,,fp32,"
                       "19.5,TFLOPS,,https://example.org,high\n", 1, "missing columns"),
    "text-for-number": (GOOD_SPECS + "NVIDIA A100,80GB SXM4,fp64,nine point seven,TFLOPS,"
                        "non-tensor,https://example.org/a,high\n", 3, "value"),
    "unknown-attribute": (GOOD_SPECS + "NVIDIA A100,80GB SXM4,warp_speed,9,TFLOPS,,"
                          "https://example.org/a,high\n", 3, "warp_speed"),
    "unknown-unit": (GOOD_SPECS + "NVIDIA A100,80GB SXM4,fp64,9.7,furlongs,non-tensor,"
                     "https://example.org/a,high\n", 3, "furlongs"),
    "contradicting-duplicate": (GOOD_SPECS + "NVIDIA A100,80GB SXM4,fp32,21,TFLOPS,"
                                "non-tensor,https://example.org/a,high\n", 3, "contradicts line 2"),
    "binary": ("\x00\x01\x02PK", None, "not a readable CSV"),
    "empty": ("", None, "not a readable CSV"),
}


@pytest.mark.parametrize("case", sorted(BAD_SPECS))
def test_a_malformed_reference_names_file_row_and_problem(tmp_path, case):
    content, row, problem = BAD_SPECS[case]
    specs = tmp_path / "my specs.csv"
    specs.write_bytes(content.encode())
    corpus = make_corpus(tmp_path / "in", 1)
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--reference", specs)
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert message.startswith(f"specextract: error: {specs}")
    if row is not None:
        assert f"{specs}, row {row}:" in message
    assert problem in message
    assert not (tmp_path / "out" / "specextract.db").exists()  # refused before any store


GOLD_HEADER = "doc_id,entity,variant,attribute,value,unit,operator,qualifier,baseline,metric,surface,verdict,expected\n"
GOLD_ROW = "a,A100,,fp32,19.5,TFLOPS,=,,,,19.5 TFLOPS,supported,19.5\n"
BAD_GOLD = {
    "missing-column": (GOLD_HEADER.replace(",expected", ""), 1, "missing required column"),
    "text-for-number": (GOLD_HEADER + GOLD_ROW.replace(",19.5,TFLOPS", ",many,TFLOPS"), 2,
                        "not a plain decimal"),
    "unknown-attribute": (GOLD_HEADER + GOLD_ROW.replace("fp32", "warp_speed"), 2,
                          "unknown attribute"),
    "unknown-unit": (GOLD_HEADER + GOLD_ROW.replace(",TFLOPS,", ",furlongs,"), 2, "unit"),
    "duplicate": (GOLD_HEADER + GOLD_ROW + GOLD_ROW, 3, "duplicate claim key"),
    "ragged-row": (GOLD_HEADER + "a,A100\n", 2, "fields"),
    "binary": (GOLD_HEADER + "\x00", 2, "binary file"),
}


@pytest.mark.parametrize("case", sorted(BAD_GOLD))
def test_a_malformed_gold_file_names_file_row_and_problem(tmp_path, case):
    content, row, problem = BAD_GOLD[case]
    gold = tmp_path / "gold.csv"
    gold.write_bytes(content.encode())
    pred = tmp_path / "pred.csv"
    pred.write_text(GOLD_HEADER + GOLD_ROW, encoding="utf-8")
    result = run_cli("eval", "--gold", gold, "--pred", pred)
    assert result.exit_code != 0
    assert f"{gold}, row {row}:" in result.output and problem in result.output
    assert "Traceback" not in result.output


# --- the report, the exports ------------------------------------------------------------------
EVIL = ('<script>alert(1)</script><img src=x onerror="alert(2)">'
        '<a href="javascript:alert(3)">x</a> javascript:alert(4) " onmouseover="alert(5)')


class _Audit(HTMLParser):
    """Collects what would run in a browser: script elements, event handler attributes,
    javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed"):
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{tag} {name}=")
            if name in ("href", "src", "action") and value and \
                    not value.startswith(("#", "docs/", "../", "http://", "https://")) \
                    and not value.endswith(".html"):
                self.problems.append(f"{tag} {name}={value}")


def test_report_escapes_article_text_file_names_and_sources(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    names = ['<img src=x onerror=alert(1)>.txt', 'javascript:alert(1).txt',
             '"><script>alert(1)<\\script>.txt', "-- ' onmouseover='alert(1).txt"]
    for name in names:
        (folder / name).write_text(EVIL + "\n" + HANS + EVIL, encoding="utf-8")
    (folder / "page.html").write_text(f"<p>{HANS}</p><p>&lt;script&gt;alert(6)&lt;/script&gt;</p>",
                                      encoding="utf-8")
    (folder / "broken <b onclick=alert(1)>.txt").write_bytes(b"\x89PNG\r\n\x1a\n")
    specs = tmp_path / "specs.csv"
    specs.write_text(GOOD_SPECS.replace("https://example.org/a", 'javascript:alert(7) '
                                        '"https://e.org/x" onmouseover="alert(8)"'),
                     encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("run", folder, "--out", out, "--reference", specs, "--no-progress")
    assert result.exit_code == 1, result.output
    pages = [out / "report" / "index.html", *(out / "report" / "docs").iterdir()]
    assert len(pages) == 1 + len(names) + 1
    for page in pages:
        audit = _Audit()
        audit.feed(page.read_text(encoding="utf-8"))
        assert audit.problems == [], (page.name, audit.problems)
    index = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in index


def test_document_pages_cannot_leave_the_report_folder(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("..", "...txt", "..\\..\\..\\etc\\passwd", "%2e%2e%2fescape.txt", "CON",
                 "a" * 250, ".hidden-but-named"):
        target = folder / name if name != ".." else folder / "..txt"
        target.write_text(HANS, encoding="utf-8")
    result = run_cli("run", *[str(p) for p in folder.iterdir()], "--out", tmp_path / "out",
                     "--no-progress")
    assert result.exit_code == 0, result.output
    docs = (tmp_path / "out" / "report" / "docs").resolve()
    pages = list(docs.iterdir())
    assert len(pages) == 7
    assert all(p.resolve().parent == docs and p.suffix == ".html" for p in pages)
    assert {p.name for p in tmp_path.iterdir()} == {"in", "out"}


FORMULAS = ["=HYPERLINK(\"http://evil\",\"x\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("fmt", ["run-csv", "export-csv", "export-excel"])
def test_csv_exports_neutralise_formula_cells(tmp_path, fmt):
    folder = tmp_path / "in"
    folder.mkdir()
    for i, formula in enumerate(FORMULAS):
        name = f"{formula.strip()[:12].replace('/', '_')}{i}.txt"
        (folder / name).write_text(f"{formula} {HANS}{formula}A100 的显存为 40GB {formula}\n",
                                   encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("run", folder, "--out", out, "--no-progress").exit_code == 0
    target = out / "claims.csv"
    if fmt != "run-csv":
        target = tmp_path / "export.csv"
        args = ["export", "--db", out / "specextract.db", "-o", target]
        assert run_cli(*args, *(["--excel"] if fmt == "export-excel" else [])).exit_code == 0
    with target.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and any(r["doc_id"].startswith("'=") for r in rows)
    for row in rows:
        for column, cell in row.items():
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and cell != "=":
                float(cell)  # only plain numbers may start like a formula


# --- formerly super-linear paths in the extraction modules: linear now -----------------------
def _growth(fn, make, n: int, factor: int = 4) -> float:
    """t(make(factor * n)) / t(make(n)), best of two each: linear 4, quadratic 16. CPU
    time of this thread with the cyclic garbage collector off (its pauses grow with all
    the test session holds, not with the text), as regexkit.scan_time."""
    def best(text):
        times = []
        for _ in range(2):
            started = time.thread_time()
            fn(text)
            times.append(time.thread_time() - started)
        return min(times)
    fn(make(10))
    enabled = gc.isenabled()
    gc.disable()
    try:
        return best(make(factor * n)) / best(make(n))
    finally:
        if enabled:
            gc.enable()


def _extract(text: str):
    from specextract.extract.claims import extract
    return extract(text)


def test_blank_run_after_a_byte_figure_is_linear():
    ratio = _growth(_extract, lambda n: "A100 的显存为 80GB" + " " * n + "。", 1000)
    assert ratio < 8


def test_blank_gap_between_figures_is_linear():
    ratio = _growth(_extract, lambda n: "A100 的显存为 16" + " " * n + "和 32GB。", 1000)
    assert ratio < 8


def test_long_pipe_row_is_linear():
    from specextract.extract.claims import active_regions
    from specextract.extract.quantities import find_quantities

    def quantities(text):
        return find_quantities(text, active_regions(text))
    ratio = _growth(quantities, lambda n: "8GB 8GB | " * (n // 10), 50_000)
    assert ratio < 8


def test_a_capitalised_magnitude_word_does_not_crash_extraction():
    claims = _extract("NVIDIA A100 has 54 Billion transistors. H100: 80 BILLION transistors.")
    assert {c.value for c in claims if c.attribute == "transistors"}
