"""Speed-up claims end to end: what the text says about density, and the verdict it gets."""
from __future__ import annotations

from specextract import extract
from specextract.check import check


def _gains(text: str) -> list:
    return [c for c in extract(text) if c.attribute == "speedup"]


def test_gain_with_sparsity_is_judged_against_sparse_figures():
    [gain] = [g for g in _gains("The A100 pushes 312 TFLOPS of FP16 Tensor math, 2.5x the V100, "
                                "or 5x with sparsity.") if g.value == 5]
    assert gain.qualifiers == frozenset({"sparse"})
    [checked] = check([gain])
    assert checked.verdict == "supported"


def test_gain_without_density_compares_like_for_like():
    [gain] = _gains("据厂商资料，H100 的 FP16 Tensor 算力是 A100 的 6.3 倍。")
    assert not gain.qualifiers
    [checked] = check([gain])
    assert checked.verdict == "contradicted"
    assert "sparse as dense" in checked.diagnosis


def test_greater_than_gain_is_at_least():
    [gain] = _gains("On 5nm, AMD has delivered a greater than 2x increase in transistor count "
                    "over the company's Instinct MI250X design, which lets the MI300X go further.")
    assert (gain.entity, gain.operator, gain.metric) == ("MI300X", ">=", "transistors")
