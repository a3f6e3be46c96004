"""Normalization: noise, width, script conversion, and the offset map."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from conftest import read_cases
from specextract.normalize.text import normalize
from specextract.normalize.script import detect_script

CASES = read_cases("normalize.tsv")
SEED = Path(__file__).parents[1] / "corpus" / "001_1e411b7903a60609.txt"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_normalize_case(case):
    assert normalize(case["input"]).text == case["expected"]


def assert_map_valid(original: str) -> None:
    n = normalize(original)
    m = n.to_original.to_list()
    assert len(m) == len(n.text)
    assert all(0 <= i < len(original) for i in m)
    assert all(a <= b for a, b in zip(m, m[1:])), "map must be monotone"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_map_monotone_in_range_any_text(text):
    assert_map_valid(text)


cjk_noisy = st.lists(st.one_of(
    st.sampled_from(["計(jì)", "數(shù)", "F(xiàn)", "記憶體", "電晶體", "奈米", "輝達", "（稀疏）",
                     "(GA100)", "\u200b", "\u00a0", "１９．５", "ＴＦＬＯＰＳ", "A100", "核心"]),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(codec="utf-8"),
), max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(cjk_noisy)
def test_map_valid_on_noisy_chinese(text):
    assert_map_valid(text)


@settings(max_examples=300, deadline=None)
@given(cjk_noisy)
@example("᥆ 显存 ８０GB")  # a Limbu zero and full-width digits are folded, not copied
def test_unconverted_characters_map_to_themselves(text):
    """An output character that no step converted equals the input character it maps to."""
    n = normalize(text)
    for i, ch in enumerate(n.text):
        src = text[n.to_original[i]]
        if ch.isascii() and ch.isalnum():
            # ASCII letters and digits are only ever copied or width-folded, and a digit
            # may be folded from another numeral system ("᥆" -> "0"): the same digit
            folded = ch.isdigit() and unicodedata.decimal(src, None) == int(ch)
            assert src == ch or ord(src) - 0xFEE0 == ord(ch) or folded


def test_seed_has_no_pinyin_and_spot_terms():
    original = SEED.read_text(encoding="utf-8")
    n = normalize(original)
    assert n.script == "zh-Hant"
    import re
    assert not re.search(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+\)", n.text)
    for term in ["计算", "训练", "内存", "数据", "实例"]:
        assert term in n.text, term
    # the map points every normalized "A100" back at an "A100" in the original
    for i in [m.start() for m in re.finditer("A100", n.text)]:
        s, e = n.original_span(i, i + 4)
        assert original[s:e] == "A100"


@pytest.mark.parametrize("text,script", [
    ("英伟达A100显卡的显存带宽为2TB/s，晶体管数量为540亿个。", "zh-Hans"),
    ("輝達A100顯示卡的記憶體頻寬為2TB/s，電晶體數量為540億個。", "zh-Hant"),
    ("The NVIDIA A100 offers 19.5 TFLOPS of FP32 compute and 80 GB of memory.", "en"),
    ("这张卡 performance 很强，the A100 delivers 19.5 TFLOPS FP32，memory bandwidth "
     "达到 2 TB/s，training large language models 非常快。", "mixed"),
], ids=["hans", "hant", "en", "mixed"])
def test_detect_script(text, script):
    assert detect_script(text) == script


def test_span_maps_through_deleted_noise():
    original = "單精度計(jì)算為19.5 TFLOPS"
    n = normalize(original)
    i = n.text.index("19.5 TFLOPS")
    s, e = n.original_span(i, i + len("19.5 TFLOPS"))
    assert original[s:e] == "19.5 TFLOPS"


def test_span_through_length_changing_terms():
    original = "記憶體頻寬為２ＴＢ／ｓ，電晶體540億個"
    n = normalize(original)
    assert n.text == "内存带宽为2TB/s，晶体管540亿个"
    i = n.text.index("540亿")
    s, e = n.original_span(i, i + 4)
    assert original[s:e] == "540億"
    j = n.text.index("2TB/s")
    s, e = n.original_span(j, j + 5)
    assert original[s:e] == "２ＴＢ／ｓ"
