"""Table readers: data-driven layouts (cases/tables.tsv) and the glued-cell splitter."""
from __future__ import annotations

import pytest

from conftest import read_cases
from specextract import extract
from specextract.extract.gluedcells import parses
from test_extract_components import _claim_keys, _decode, _items, _marks

TABLES = read_cases("tables.tsv")


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"], marks=_marks(c)) for c in TABLES])
def test_table_layouts(case):
    keys = _claim_keys(_decode(case["text"]))
    for item in _items(case.get("expect", "")):
        assert item in keys, f"missing {item}; got {sorted(keys)}"
    for item in _items(case.get("reject", "")):
        assert item not in keys, f"unwanted {item}; got {sorted(keys)}"


def _numbers(text: str, n: int, keep=lambda p: True) -> list[list[list[str]]]:
    return [[[] if c is None else [p.number for p in c] for c in cells]
            for cells in parses(text, 0, len(text), n, keep)]


def test_glued_digits_never_start_a_number_with_zero():
    watts = lambda p: 5 <= float(p.number) <= 5000  # noqa: E731 (a plausible power)
    assert _numbers("250300400400", 4, watts) == [[["250"], ["300"], ["400"], ["400"]]]
    assert ["0"] not in sum(_numbers("250300400400", 4), [])  # a lone 0 is no cell either


def test_glued_cells_keep_units_notes_and_pairs():
    assert _numbers("1770MHz1695MHz", 2) == [[["1770"], ["1695"]]]
    assert [["576"], ["328"]] in _numbers("576(2nd Gen)328(3rd Gen)", 2)
    assert [[], ["35.6", "71"]] in _numbers("NA35.6 / 71", 2)


def test_glued_cells_too_many_readings_is_none():
    assert parses("1" * 40, 0, 40, 6) is None


def test_an_about_sign_before_a_cell_is_the_operator_not_part_of_the_number():
    text = "参数 NVIDIA L4 NVIDIA L40S\nTDP(功耗) 72W 350W\n单精度性能(FP32) ~30.3 TFLOPS 91.6 TFLOPS\n"
    ops = {(c.entity, c.attribute): (c.operator, float(c.value)) for c in extract(text)}
    assert ops[("L4", "fp32")] == ("~", 30.3)
    assert ops[("L40S", "fp32")] == ("=", 91.6)
    assert ops[("L4", "tdp")] == ("=", 72.0)


@pytest.mark.parametrize("cell,dense,sparse", [
    ("242 (485 sparse)", "242", "485"),
    ("242 TFLOPS (485 TFLOPS with sparsity)", "242", "485"),
])
def test_a_density_word_after_a_figure_in_a_cell_is_that_figures_alone(cell, dense, sparse):
    text = f"| Spec | L4 |\n|---|---|\n| FP8 TFLOPS | {cell} |\n"
    quals = {str(c.value): c.qualifier for c in extract(text) if c.attribute == "fp8"}
    assert quals[sparse] == "sparse"
    assert "sparse" not in quals[dense]
