"""Numbers written to be misread: spaced thousands, other digit systems, combining marks,
bidi controls. Each reads as the figure a reader sees, and the document is noted where
characters were removed or digits of other systems read."""
from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import pytest

from batchkit import run_cli
from specextract.extract.document import process_document
from specextract.normalize import normalize
from specextract.normalize.numerals import number_notes
from specextract.records import Document

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_pipeline import spoof_round  # noqa: E402

EN = "The NVIDIA A100 delivers {} TFLOPS of FP16 performance."
ZH = "英伟达 A100 的单精度算力为 {} TFLOPS。"
SEPARATED = {"space": "1 979", "no-break": "1\u00a0979", "narrow-no-break": "1\u202f979",
             "thin": "1\u2009979", "apostrophe": "1'979", "right-quote": "1\u2019979",
             "comma": "1,979"}
OTHER_DIGITS = {"arabic-indic": "\u0661\u0669.\u0665", "extended-arabic": "\u06f1\u06f9.\u06f5",
                "devanagari": "\u0967\u096f.\u096b", "bengali": "\u09e7\u09ef.\u09eb",
                "math-bold": "\U0001d7cf\U0001d7d7.\U0001d7d3",
                "math-monospace": "\U0001d7f7\U0001d7ff.\U0001d7fb"}


def values(text: str) -> list[Decimal]:
    return [c.value for c in process_document(Document("d", "d.txt", "utf-8", "txt", text)).claims]


@pytest.mark.parametrize("case", sorted(SEPARATED))
def test_thousands_separators_join_groups_of_three(case):
    assert values(EN.format(SEPARATED[case])) == [Decimal(1979)]
    assert values(ZH.format(SEPARATED[case]).replace("单精度", "半精度")) == [Decimal(1979)]


def test_several_groups_and_a_fraction():
    assert values("The NVIDIA A100 has 54\u202f200\u202f000\u202f000 transistors.") == [
        Decimal(54_200_000_000)]
    assert values(EN.format("1 979.5")) == [Decimal("1979.5")]


def test_a_space_before_a_group_of_other_length_does_not_join():
    """Only groups of three join: "19 5" stays two numbers."""
    assert Decimal(195) not in values(EN.format("19 5"))
    assert Decimal(19500) not in values(EN.format("19 5000"))


def test_a_run_of_numbers_is_not_one_number():
    text = "| A100 | 312 624 1248 TOPS |"
    norm = normalize(text)
    assert "312 624 1248" in norm.text


@pytest.mark.parametrize("case", sorted(OTHER_DIGITS))
def test_digits_of_other_systems_read_as_ascii_with_a_note(case):
    text = EN.format(OTHER_DIGITS[case])
    assert values(text) == [Decimal("19.5")]
    assert any("digits of other scripts" in n for n in number_notes(text))


def test_a_combining_mark_inside_a_number_is_removed_with_a_note():
    text = EN.format("1\u03039.5")
    assert values(text) == [Decimal("19.5")]
    assert any("combining marks inside numbers" in n for n in number_notes(text))
    norm = normalize(text)
    start = norm.text.index("19.5")
    assert text[slice(*norm.original_span(start, start + 4))] == "1\u03039.5"


def test_a_bidi_override_is_removed_and_noted():
    text = EN.format("\u202e5.91\u202c")
    assert "\u202e" not in normalize(text).text
    assert any("bidi control" in n for n in number_notes(text))


def test_plain_text_gets_no_note():
    assert number_notes(EN.format("19.5") + ZH.format("1 979")) == []


def test_generated_spoofed_figures_all_read_right():
    assert spoof_round(300, seed=11) == []


def test_the_note_is_stored_with_the_document(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "bidi.txt").write_text(EN.format("\u202e5.91\u202c"), encoding="utf-8")
    (folder / "arabic.txt").write_text(EN.format(OTHER_DIGITS["arabic-indic"]), encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("run", folder, "--out", out, "--no-progress")
    assert result.exit_code == 0
    import sqlite3
    conn = sqlite3.connect(f"file:{out / 'specextract.db'}?mode=ro", uri=True)
    rows = {Path(p).name: (status, reason, error, n) for p, status, reason, error, n in
            conn.execute("SELECT path, status, reason, error, n_claims FROM documents")}
    conn.close()
    assert rows["bidi.txt"][:2] == ("ok", "repaired") and "bidi control" in rows["bidi.txt"][2]
    assert rows["arabic.txt"][:2] == ("ok", "repaired") and rows["arabic.txt"][3] == 1
