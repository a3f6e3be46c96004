"""Linking a figure to its chip across lines: title and heading chips over spec lists,
unit legends over lists of bare figures, and the link evidence each way leaves."""
from __future__ import annotations

import pytest

from specextract import check, extract
from specextract.extract.headings import is_heading
from specextract.extract.drafts import LINKS


def _links(text: str) -> dict[tuple[str, str, float], str]:
    return {(c.entity, c.attribute, float(c.value)): c.link for c in extract(text)}


LEGEND_LIST = ("加速卡算力速查（H100）\n\n"
               "一、基本情况\n\n"
               "    这一代 H100 把 SM 数量提到了 132 个，下面只列官方算力。\n\n"
               "二、算力\n\n浮点：TFLOPS\n\n整型：TOPS\n\n"
               "FP64 34\nFP16 800 / 1600\nINT8 1600 / 3200\n")


def test_a_unit_legend_gives_its_unit_to_the_bare_figures_below():
    links = _links(LEGEND_LIST)
    for key in [("H100", "fp64", 34), ("H100", "fp16", 800), ("H100", "fp16", 1600),
                ("H100", "int8", 1600), ("H100", "int8", 3200)]:
        assert key in links, sorted(links)
    qualifiers = {(c.attribute, float(c.value)): c.qualifier for c in extract(LEGEND_LIST)}
    assert qualifiers[("fp16", 800)] == "dense" and qualifiers[("fp16", 1600)] == "sparse"


def test_the_title_chip_is_the_subject_of_a_list_naming_no_chip():
    links = _links(LEGEND_LIST)
    assert links[("H100", "fp64", 34)] == "heading"
    assert "heading" in LINKS


def test_another_chip_between_title_and_list_breaks_the_heading_link():
    text = LEGEND_LIST.replace("下面只列", "比 A100 多，下面只列")
    links = _links(text)
    assert links[("H100", "fp64", 34)] == "topic-far"


def test_a_legend_needs_a_label_and_ends_at_prose():
    text = ("H200 参数\n\n单位：TFLOPS\n\n2、张量部分\nINT32 40\n"
            "下面这一段是说明文字，写的是散热和供电的安排，和算力无关。H200 的 FP16 为 50。\n")
    keys = {(c.entity, c.attribute, float(c.value)) for c in extract(text)}
    assert not any(v in (2, 40, 50) for _, _, v in keys), keys


def test_heading_lines():
    text = "标题 A100\n正文第一句。\n\n## 规格 A100\n小节 A100\n\n一段很长的正文，说明了很多事情。A100\n"
    assert is_heading(text, text.index("A100"))
    assert is_heading(text, text.index("## 规格") + 4)
    assert is_heading(text, text.index("小节"))
    assert not is_heading(text, text.index("正文第一句"))
    assert not is_heading(text, text.rindex("A100"))


NUMBERED_SECTIONS = ("1. Why it matters\n"
                     "The NVIDIA H200 keeps the Hopper design and adds faster memory; many teams "
                     "buy it to extend older fleets.\n"
                     "2. Full specifications of one H200 GPU\n"
                     "2.1 Design\nDesign family: Hopper\nFoundry node: TSMC 4nm\n"
                     "2.2 Cores\nSM count: 132\nCUDA cores: 16,896\nTensor Cores: 528\n"
                     "Precisions: FP8, FP16, BF16, TF32\n"
                     "2.3 Memory\nMemory Capacity: 141GB HBM3e\nMemory Bus Width: 8192-bit\n"
                     "Memory Bandwidth: 4.8 TB/s\n2.4 Compute\nINT8: 3.94 TOPS\n")


def test_numbered_section_titles_are_headings():
    for line in ["2.3 Memory", "二、H200 规格", "（一）H200 参数", "2.1 Design and foundry"]:
        text = f"开头一句话。\n{line}\n显存：80GB\n"
        assert is_heading(text, text.index(line)), line
    for line in ["19.5 TFLOPS H200", "3.5 GHz H100", "80GB H100", "2.1 H200: 141GB",
                 "2.1 The H200 ships with 141GB of memory."]:  # figures, a sentence
        text = f"开头一句话。\n{line}\n显存：80GB\n"
        assert not is_heading(text, text.index(line)), line


def test_a_plain_number_opens_a_section_only_over_its_numbered_parts():
    line = "2. Full specifications of one H200 GPU"
    with_parts = f"开头一句话。\n{line}\n2.1 Memory\n显存：80GB\n"
    assert is_heading(with_parts, with_parts.index(line))
    as_item = f"两个选择：\n1. 一张新的 H100\n{line}\n显存：80GB\n"  # a list's item
    assert not is_heading(as_item, as_item.index(line))
    other_parts = f"开头一句话。\n{line}\n3.1 Memory\n显存：80GB\n"
    assert not is_heading(other_parts, other_parts.index(line))


def test_a_numbered_section_naming_the_chip_is_the_subject_of_its_spec_lines():
    links = _links(NUMBERED_SECTIONS)
    for key in [("H200", "memory_bus_width", 8192), ("H200", "memory_bandwidth", 4800),
                ("H200", "int8", 3.94)]:
        assert links.get(key) == "heading", (key, links)
    verdicts = {(c.attribute, float(c.value)): c.verdict
                for c in check(extract(NUMBERED_SECTIONS))}
    assert verdicts[("memory_bus_width", 8192)] == "contradicted"  # (a close link accuses)


def test_the_title_chip_holds_over_a_list_after_another_chip_was_named():
    text = ("H200 参数解读\n\nH100：80GB HBM3，带宽 3.35 TB/s。\n\nH200：141GB HBM3e，带宽 4.8 TB/s。\n\n"
            "算力\n\nFP8：1979 TFLOPS\n")
    assert _links(text)[("H200", "fp8", 1979)] == "heading"
    # no title naming it alone: a list after another chip stays a far topic
    text = text.replace("H200 参数解读", "H200 与 H100 参数解读")
    assert _links(text)[("H200", "fp8", 1979)] == "topic-far"


def test_a_pronoun_in_a_sentence_naming_one_chip_is_that_chip():
    from specextract.check.checker import check
    text = "英伟达的 A100 性能很强，其 FP32 算力达到 30 TFLOPS，功耗也不低。"
    [claim] = [c for c in extract(text) if c.attribute == "fp32"]
    assert claim.link == "sentence"
    assert check([claim])[0].verdict == "contradicted"
    two = "英伟达的 A100 比 V100 强，其 FP32 算力达到 30 TFLOPS。"
    assert _links(two)[("A100", "fp32", 30)] == "pronoun"


def test_a_first_line_that_is_a_sentence_is_no_title():
    text = "A100 的显存为 80GB，很受欢迎。\n\n另一节\n\nFP64 9.7 TFLOPS\n"
    assert not is_heading(text, 0)
    assert _links(text)[("A100", "fp64", 9.7)] == "topic-far"


def test_a_row_of_figures_carried_to_one_chip_accuses_no_one():
    """Chip names this reader does not take for a header, then a row of one attribute's
    figures: carried to the first chip, they keep the link "unread-row", which never
    makes a wrong figure contradicted."""
    from specextract import check
    text = "几张卡的参数：\n\nB200 / H200 / L40S\nFP64 矢量 40 TFLOPS 34 TFLOPS 暂无\n"
    row = [c for c in extract(text) if c.attribute == "fp64"]
    assert len(row) == 2 and {c.link for c in row} == {"unread-row"}
    assert "contradicted" not in {c.verdict for c in check(row)}
    assert "unread-row" in LINKS


def test_two_figures_of_one_chip_in_a_sentence_keep_their_own_links():
    """Only carried links become "unread-row": a clause naming the chip keeps its link, and
    figures of two variants are two rows."""
    links = _links("A100 的显存有 40GB 和 80GB 两种。")
    assert "unread-row" not in links.values()
    links = _links("The A100 ships with 40 GB or 80 GB of memory.")
    assert "unread-row" not in links.values()
    links = _links("H100 SXM5 的 FP32 为 60 TFLOPS；PCIe 版本的 FP32 为 48 TFLOPS。")
    assert "unread-row" not in links.values()


def test_figures_run_together_on_one_line_accuse_no_one():
    """A table flattened onto one line ("显存带宽 1 TB/s 4 TB/s"): two figures of one
    dimension with only spaces (or nothing) between them are cells of a row whose columns
    were not read, even for a chip its clause names or that follows them. (A header that
    names the chips with only a bracketed note between them is read column by column.)"""
    from specextract import check
    text = ("对比项 H800 基于 Hopper L20 基于 Ada FP32 算力 51 TFLOPS 30 TFLOPS "
            "FP16/BF16 性能 显存带宽 1 TB/s 4 TB/s")
    claims = extract(text)
    run = [c for c in claims if c.attribute in ("fp32", "fp16", "bf16", "memory_bandwidth")]
    # "30 TFLOPS" before the next label is the row's cell, whichever label it was given
    assert {c.value for c in run} == {51, 30, 1000, 4000}
    assert {c.link for c in run} == {"unread-row"}
    assert "contradicted" not in {c.verdict for c in check(run)}
    columns = extract(text.replace("H800 基于 Hopper L20 基于 Ada", "H800 (Hopper) L20 (Ada)"))
    assert {(c.entity, c.value, c.link) for c in columns if c.attribute == "fp32"} == {
        ("H800", 51, "run-table"), ("L20", 30, "run-table")}
    # cells with no space at all between them, the chip named after them
    run = [c for c in extract("Board power300W450WRTX 4090 reference design\n")
           if c.attribute == "tdp"]
    assert run and {c.link for c in run} == {"unread-row"}
    assert "contradicted" not in {c.verdict for c in check(run)}


def test_a_list_under_a_line_naming_two_chips_is_no_accusation():
    """"A vs B" above a spec list: the list may hold either chip's figures, so they are
    carried as "shared-head" (never contradicted); a head naming one chip stays "list-head"."""
    from specextract import check
    text = "MI300X vs H100 完整规格\n\n显存：80GB\n功耗：700W\n"
    claims = extract(text)
    assert {c.link for c in claims} == {"shared-head"}
    assert "contradicted" not in {c.verdict for c in check(claims)}
    assert set(_links("MI300X 完整规格\n\n显存：192GB\n功耗：750W\n").values()) == {"list-head"}


def test_a_header_wrapped_over_lines_reads_its_table_without_accusing():
    """Chip names over several lines above a flattened table: the columns of the line taken
    for the header are a guess, so its cells link "wrapped-header" (never contradicted)."""
    from specextract import check
    wrapped = ("规格一览\n\n型号 V100 SXM2\nV100S PCIe\nT4 A100 PCIe\nA100 SXM\n"
               "CUDA Core数量 5120 2560\n显存 32GB 16GB\n")
    claims = extract(wrapped)
    assert claims and {c.link for c in claims} == {"wrapped-header"}
    assert "contradicted" not in {c.verdict for c in check(claims)}
    plain = "规格一览\n\nT4 A100 PCIe\nCUDA Core数量 2560 6912\n显存 16GB 40GB\n"
    assert set(_links(plain).values()) == {"run-table"}


def test_a_header_one_cell_per_line_reads_its_table_without_accusing():
    """Header cells one per line, a chip name, then its variant on the next ("A10" /
    "24GB PCIe" / "L4L40S"): the line taken for the header is two lines from another
    chip name, so its columns are a guess."""
    from specextract import check
    text = ("型号A10\n24GB PCIe\nA30\n24GB PCIe\nL4L40S\n48GB PCIe\n"
            "FP32 (TFLOPS)31.210.330.391.6\n")
    claims = [c for c in extract(text) if c.attribute == "fp32"]
    assert claims and {c.link for c in claims} == {"wrapped-header"}
    assert "contradicted" not in {c.verdict for c in check(claims)}


def test_a_row_with_more_cells_than_header_names_accuses_no_one():
    """A row holding more figures than the header names chips (beyond "dense / sparse"
    pairs): the header names only some of the columns."""
    from specextract import check
    text = "L4 L40S\n显存 24GB GDDR6 48GB 32GB 80GB\nFP8 (TFLOPS) 121/242 1466/2933\n"
    claims = extract(text)
    memory = [c for c in claims if c.attribute == "memory_size"]
    assert memory and {c.link for c in memory} == {"wrapped-header"}
    assert "contradicted" not in {c.verdict for c in check(memory)}
    fp8 = [c for c in claims if c.attribute == "fp8"]  # a pair per chip is one column each
    assert len(fp8) == 4 and {c.link for c in fp8} == {"run-table"}
    # the same on one line after the chip names
    links = _links("参数对比：L4 L40S 显存容量 24GB 48GB 32GB 80GB 功耗 72W 350W。")
    assert links[("L4", "memory_size", 24)] == "wrapped-header"
    assert links[("L4", "tdp", 72)] == "run-table"


def test_a_special_edition_is_a_variant_of_its_own():
    """"中国特供版Gaudi 3" names an edition: its figures carry the edition as the variant,
    the original card's figures in the same sentence do not, and a chip that is itself a
    special edition ("特供版H20") gets none."""
    text = ("据报道，中国特供版Gaudi 3的OAM卡功耗为450瓦，而原版OAM卡的功耗为900瓦。"
            "The China-specific Gaudi 3 has 128 GB of memory. 英伟达特供版H20配备96GB显存。")
    got = {(c.entity, c.attribute, int(c.value)): c.variant for c in extract(text, doc_id="t")}
    assert got[("Gaudi 3", "tdp", 450)] == "China edition"
    assert got[("Gaudi 3", "tdp", 900)] == ""
    assert got[("Gaudi 3", "memory_size", 128)] == "China edition"
    assert got[("H20", "memory_size", 96)] == ""


@pytest.mark.parametrize("text,full,product", [
    ("完整的 GA100 核心拥有 8192 个 CUDA 核心，而 A100 只启用了 6912 个。",
     ("A100", "cuda_cores", 8192), ("A100", "cuda_cores", 6912)),
    ("完整版的GH100擁有144組SM，H100 SXM5 則開啟 132 組。",
     ("H100", "sm_count", 144), ("H100", "sm_count", 132)),
    ("The full GH100 die carries 144 SMs, while the H100 SXM5 enables 132 SMs.",
     ("H100", "sm_count", 144), ("H100", "sm_count", 132)),
])
def test_a_full_die_is_a_variant_of_its_own(text, full, product):
    """A die named as the whole, uncut chip ("完整的 GA100", "the full GH100") has more units
    than the product sold under its name. The codebook makes the die its product, so its
    figures are judged as the product's, but they carry the variant "full die" and a
    contradicted one says why; the product's figures beside them are judged as usual. A
    die named alone (GA100) gets no such variant."""
    got = {(c.entity, c.attribute, int(c.value)): c for c in check(extract(text, doc_id="t"))}
    assert got[full].variant == "full die" and got[full].verdict != "supported"
    if got[full].verdict == "contradicted":   # (144 against 132 SMs is approximate)
        assert got[full].diagnosis.startswith("full die: ")
        assert "misattributed" not in got[full].diagnosis
    assert got[product].variant != "full die" and got[product].verdict == "supported"
    alone = check(extract("GA100 拥有 8192 个 CUDA 核心。", doc_id="t"))
    assert [(c.variant, c.verdict) for c in alone] == [("", "contradicted")]
    assert "full die" not in alone[0].diagnosis
