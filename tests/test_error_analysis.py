"""eval's error analysis: line layouts, the contradicted verdicts' scores, grouped errors."""
from __future__ import annotations

from decimal import Decimal

import pytest

from batchkit import run_cli
from specextract.eval.error_analysis import accusations, error_groups, locate, place
from specextract.eval.evaluate import match
from specextract.eval.gold import ClaimRow
from specextract.extract.segment import list_under, line_layout


@pytest.mark.parametrize("line,layout", [
    ("| FP32 | 19.5 TFLOPS | 67 TFLOPS |", "table"),
    ("功耗          700W      350W", "table"),
    ("FP16：376 TFLOPS", "table"),
    ("- 显存带宽: 3.35 TB/s", "table"),
    ("A100", "table"),
    ("The A100 delivers 19.5 TFLOPS of FP32. It also has 40 GB of memory.", "prose"),
    ("昇腾910B的FP16算力为376 TFLOPS，功耗为400W，显存为64GB。", "prose"),
])
def test_line_layout(line, layout) -> None:
    assert line_layout(line) == layout


def test_remembered_layouts_are_those_of_the_lines_and_the_memo_stays_bounded() -> None:
    """line_layout remembers each line's layout; asked again, and after the memo has been
    emptied for being full, it gives what the line's own test gives."""
    from specextract.extract import segment
    lines = ([f"FP{n}：{n} TFLOPS" for n in range(segment.LAYOUTS_KEPT + 50)]
             + [f"第 {n} 行是一句完整的话，说明它不是表格。它还有第二句。" for n in range(50)])
    first = [line_layout(line) for line in lines]
    again = [line_layout(line) for line in reversed(lines)][::-1]
    assert first == again == [segment._layout(line) for line in lines]
    assert set(first) == {"table", "prose"}
    assert 0 < len(segment._LAYOUTS) <= segment.LAYOUTS_KEPT


def test_list_under_a_chip_heading() -> None:
    text = "H20 规格\n\nFP8：296 TFLOPS\n显存：96GB\n\n这张卡在国内很受欢迎，价格也不低。\nTDP 为 400W"
    head = text.index("H20")
    assert list_under(text, head, text.index("96GB"))
    assert not list_under(text, head, text.index("400W"))     # prose broke the list
    assert not list_under(text, head, head + 1)               # same line: no list


def row(doc, entity, attribute, value, surface, verdict="supported", baseline=""):
    return ClaimRow(doc_id=doc, entity=entity, variant="", attribute=attribute,
                    value=Decimal(value), unit="", operator="=", qualifier="",
                    baseline=baseline, metric="", surface=surface, verdict=verdict,
                    expected=None)


def test_contradicted_precision_counts_false_alarms_on_spurious_claims() -> None:
    gold = [row("d", "A100", "fp32", "15", "15 TFLOPS", "contradicted"),
            row("d", "V100", "fp32", "7", "7 TFLOPS", "contradicted")]
    pred = [row("d", "A100", "fp32", "15", "15 TFLOPS", "contradicted"),
            row("d", "A100", "tdp", "8", "8 W", "contradicted"),        # no such claim
            row("d", "V100", "fp32", "7", "7 TFLOPS", "unverifiable")]
    acc = accusations(match(pred, gold))
    assert (acc.flagged, acc.right, acc.gold) == (2, 1, 2)
    assert acc.precision == 0.5 and acc.recall == 0.5


def test_errors_are_grouped_by_a_guessed_cause() -> None:
    text = "A100 和 H100 对比。\nH100 的显存为 80GB。\n每个 SM 有 64 个 CUDA 核心。\n"
    gold = [row("d", "H100", "memory_size", "80", "80GB")]
    pred = [row("d", "A100", "memory_size", "80", "80GB"),
            row("d", "A100", "cuda_cores", "64", "64 个")]
    m = match(pred, gold)
    groups = error_groups(m, {"d": text}, {})
    assert set(groups) == {"missed: chip", "spurious: chip", "spurious: not a claim? per-unit figure"}
    [item] = groups["missed: chip"]
    assert item.cause == "chip: read as A100" and item.placed.line_no == 2


def test_locate_prefers_the_line_naming_the_chip() -> None:
    text = "V100 的显存为 32GB。\nA100 的显存为 32GB 起。\n"
    r = row("d", "A100", "memory_size", "32", "32GB")
    assert locate(text, r) == text.index("32GB", text.index("A100"))
    assert place(r, {"d": text}).line_no == 2


def test_eval_errors_on_the_cli(tmp_path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("A100 的 FP32 算力为 19.5 TFLOPS，显存为 80GB。\n"
                                  "每个 SM 有 64 个 CUDA 核心。\n", encoding="utf-8")
    gold = tmp_path / "gold.csv"
    gold.write_text("doc_id,entity,variant,attribute,value,unit,operator,qualifier,baseline,"
                    "metric,surface,verdict,expected\n"
                    "a,A100,,fp32,19.5,TFLOPS,=,,,,19.5 TFLOPS,supported,19.5\n"
                    "a,A100,,tdp,400,W,=,,,,400W,contradicted,not supported\n", encoding="utf-8")
    result = run_cli("eval", "--gold", gold, "--errors", corpus)
    assert result.exit_code == 0, result.output
    assert "contradicted verdicts" in result.output and "claims by layout" in result.output
    assert "errors by cause" in result.output and "a:1" in result.output


def test_eval_scores_per_script_from_a_sources_file(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("A100 的 FP32 算力为 19.5 TFLOPS。\n", encoding="utf-8")
    gold = tmp_path / "gold.csv"
    gold.write_text("doc_id,entity,variant,attribute,value,unit,operator,qualifier,baseline,"
                    "metric,surface,verdict,expected\n"
                    "a,A100,,fp32,19.5,TFLOPS,=,,,,19.5 TFLOPS,supported,19.5\n", encoding="utf-8")
    sources = tmp_path / "SOURCES.tsv"
    sources.write_text("file\tscript\tsource\na.txt\ten\thttps://example.org/a\n", encoding="utf-8")
    result = run_cli("eval", "--gold", gold, "--scripts", sources, "--json", corpus)
    assert result.exit_code == 0, result.output
    import json
    by_script = json.loads(result.output)["by_script"]
    assert by_script["en"]["tp"] == 1 and by_script["zh-Hans"]["tp"] == 0
    bad = tmp_path / "bad.tsv"
    bad.write_text("name\tlang\na.txt\ten\n", encoding="utf-8")
    assert run_cli("eval", "--gold", gold, "--scripts", bad, corpus).exit_code == 2
