"""Hypothesis strategies for article-like text: the words and figures the extractor looks
for (chips, attribute words in three scripts, numbers, units, table pipes), mixed with
noise it must survive (blank runs, invisible and full-width characters, pinyin noise,
arbitrary Unicode). Shared by test_properties.py and the fuzz run's seeds."""
from __future__ import annotations

from hypothesis import strategies as st

CHIPS = ["A100", "H100", "V100", "RTX 4090", "MI300X", "昇腾910B", "Ascend 910", "L40S", "T4",
         "H20", "B200", "A800", "TPU v4", "GH200", "RTX 3090 Ti"]
WORDS = ["显存", "带宽", "功耗", "单精度", "FP32", "FP16", "TF32", "INT8", "晶体管", "制程",
         "記憶體", "頻寬", "電晶體", "奈米", "memory", "bandwidth", "TDP", "Tensor", "稀疏",
         "sparsity", "倍", "相比", "提升", "faster than", "个", "MIG 实例", "NVLink", "PCIe",
         "架构", "比", "的", "为", "是", "有", "達", "嘅", "约", "up to", "vs", "和", "或"]
UNITS = ["GB", "TB/s", "GB/s", "W", "TFLOPS", "PFLOPS", "TOPS", "nm", "亿", "MHz", "%", "x",
         "倍", "GiB", "G", "瓦", "纳米"]
NOISE = ["\u200b", "\ufeff", "\u3000", "\xa0", "（ｊì）", "(jì)", "１９．５", "ＧＢ", "\t", "\r\n",
         "\n", " | ", "|---|---|", "。", "，", "；", "(", ")", "~", "-", "到", "*", "：", "、"]


def numbers() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(0, 100_000).map(str),
        st.decimals(0, 100_000, places=2, allow_nan=False, allow_infinity=False).map(str),
        st.sampled_from(["一", "两", "十", "七", "一二三", "1,024", "19.5", "0.5", "3.35"]))


def tokens() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(CHIPS), st.sampled_from(WORDS), numbers(),
                     st.sampled_from(UNITS), st.sampled_from(NOISE),
                     st.sampled_from([" ", "  ", " " * 40]),
                     st.text(max_size=4))


def article_text(max_tokens: int = 80) -> st.SearchStrategy[str]:
    """Text made of spec-like tokens and noise, in any order."""
    return st.lists(tokens(), max_size=max_tokens).map("".join)


def any_text() -> st.SearchStrategy[str]:
    return st.one_of(article_text(), st.text(max_size=200))
