"""Matching and scoring on small hand-made prediction/gold sets with known answers."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest

from specextract.eval.evaluate import (
    Counts, match, report_to_dict, report_to_json, report_to_text, score,
)
from specextract.eval.gold import ClaimRow
from specextract.codebook import ATTRIBUTE_UNITS, SCRIPTS, VERDICTS


def row(doc: str, entity: str, attribute: str, value: str, baseline: str = "",
        verdict: str = "", line: int = 0) -> ClaimRow:
    return ClaimRow(doc_id=doc, entity=entity, variant="", attribute=attribute,
                    value=Decimal(value), unit=ATTRIBUTE_UNITS[attribute], operator="=",
                    qualifier="", baseline=baseline, metric="", surface=f"{value}",
                    verdict=verdict, expected=None, line=line)


def fp32(value: str, doc: str = "d1", entity: str = "A100", **kw) -> ClaimRow:
    return row(doc, entity, "fp32", value, **kw)


def speedup(value: str, baseline: str, entity: str = "H100", **kw) -> ClaimRow:
    return row("d1", entity, "speedup", value, baseline=baseline, **kw)


# --- matching: id, predictions, gold, (tp, fp, fn) -----------------------------------
MATCH_CASES = [
    ("exact", [fp32("19.5")], [fp32("19.5")], (1, 0, 0)),
    ("within-0.5pct", [fp32("19.59")], [fp32("19.5")], (1, 0, 0)),
    ("exactly-0.5pct", [fp32("100.5")], [fp32("100")], (1, 0, 0)),
    ("just-below-0.5pct", [fp32("99.5")], [fp32("100")], (1, 0, 0)),
    ("outside-0.5pct", [fp32("100.6")], [fp32("100")], (0, 1, 1)),
    ("zero-exact", [fp32("0")], [fp32("0")], (1, 0, 0)),
    ("zero-gold-nonzero-pred", [fp32("0.001")], [fp32("0")], (0, 1, 1)),
    ("entity-case-and-space", [fp32("19.5", entity="a 100")], [fp32("19.5")], (1, 0, 0)),
    ("entity-rtx-4090-d", [fp32("82.6", entity="rtx4090d")], [fp32("82.6", entity="RTX 4090 D")], (1, 0, 0)),
    ("entity-differs", [fp32("19.5", entity="A800")], [fp32("19.5")], (0, 1, 1)),
    ("attribute-differs", [row("d1", "A100", "tf32", "19.5")], [fp32("19.5")], (0, 1, 1)),
    ("document-differs", [fp32("19.5", doc="d2")], [fp32("19.5")], (0, 1, 1)),
    ("baseline-differs", [speedup("3", "V100")], [speedup("3", "A100")], (0, 1, 1)),
    ("baseline-missing", [speedup("3", "")], [speedup("3", "A100")], (0, 1, 1)),
    ("baseline-case-and-space", [speedup("2", "rtx4090")], [speedup("2", "RTX 4090")], (1, 0, 0)),
    ("duplicate-prediction-is-fp", [fp32("19.5"), fp32("19.5")], [fp32("19.5")], (1, 1, 0)),
    ("two-gold-one-pred", [fp32("19.5")], [fp32("19.5"), fp32("19.5", doc="d2")], (1, 0, 1)),
    ("two-values-two-rows", [fp32("19.5"), fp32("9.7")], [fp32("9.7"), fp32("19.5")], (2, 0, 0)),
    ("empty-prediction", [], [fp32("19.5")], (0, 0, 1)),
    ("empty-gold", [fp32("19.5")], [], (0, 1, 0)),
]


@pytest.mark.parametrize("pred, gold, counts", [pytest.param(*c[1:], id=c[0]) for c in MATCH_CASES])
def test_match_counts(pred, gold, counts):
    m = match(pred, gold)
    assert (len(m.pairs), len(m.false_positives), len(m.missed)) == counts
    overall = score(m).overall
    assert (overall.tp, overall.fp, overall.fn) == counts


def test_tolerance_is_a_parameter():
    assert len(match([fp32("100.6")], [fp32("100")], tolerance=0.01).pairs) == 1


def test_greedy_takes_the_smallest_deviation_prediction():
    m = match([fp32("100.3"), fp32("100.0")], [fp32("100")])
    assert m.pairs[0].pred.value == Decimal("100.0") and m.pairs[0].deviation == 0
    assert [r.value for r in m.false_positives] == [Decimal("100.3")]


def test_greedy_takes_the_smallest_deviation_gold():
    m = match([fp32("100.4")], [fp32("100"), fp32("100.8")])
    assert m.pairs[0].gold.value == Decimal("100.8")
    assert [r.value for r in m.missed] == [Decimal("100")]


def test_ties_in_value_pair_the_rows_that_agree_on_metric():
    """Two equal speed-ups over one baseline, one on compute and one with no metric: each
    pairs with the gold row of its own metric, so their verdicts are compared right."""
    from dataclasses import replace
    pred = [replace(speedup("20", "V100", verdict="contradicted"), metric="compute"),
            speedup("20", "V100", verdict="supported")]
    gold = [speedup("20", "V100", verdict="supported", line=20),
            replace(speedup("20", "V100", verdict="contradicted", line=21), metric="compute")]
    pairs = {p.gold.line: p.pred.metric for p in match(pred, gold).pairs}
    assert pairs == {20: "", 21: "compute"}


def test_docs_filter_sets_rows_aside_and_reports_them():
    m = match([fp32("19.5"), fp32("1", doc="d9")], [fp32("19.5"), fp32("2", doc="d8")], docs=["d1"])
    report = score(m)
    assert (report.overall.tp, report.overall.fp, report.overall.fn) == (1, 0, 0)
    assert (report.excluded_pred, report.excluded_gold) == (1, 1)
    assert report_to_dict(report)["counts"]["excluded_predicted"] == 1


# --- P/R/F1 ----------------------------------------------------------------------------
# id, counts, (precision, recall, f1); None = undefined
PRF_CASES = [
    ("mixed", Counts(2, 1, 2), (2 / 3, 1 / 2, 4 / 7)),
    ("perfect", Counts(3, 0, 0), (1.0, 1.0, 1.0)),
    ("nothing-predicted", Counts(0, 0, 3), (None, 0.0, 0.0)),
    ("no-gold", Counts(0, 2, 0), (0.0, None, 0.0)),
    ("empty", Counts(0, 0, 0), (None, None, None)),
]


@pytest.mark.parametrize("counts, expected", [pytest.param(*c[1:], id=c[0]) for c in PRF_CASES])
def test_precision_recall_f1(counts, expected):
    assert (counts.precision, counts.recall, counts.f1) == pytest.approx(expected)


def test_known_prf_on_a_small_set():
    pred = [fp32("19.5"), fp32("9.7", entity="V100"), row("d1", "A100", "tdp", "400"), fp32("19.5")]
    gold = [fp32("19.5"), fp32("15.7", entity="V100"), row("d1", "A100", "tdp", "400"),
            row("d1", "A100", "memory_size", "80")]
    o = score(match(pred, gold)).overall
    assert (o.tp, o.fp, o.fn) == (2, 2, 2)
    assert (o.precision, o.recall, o.f1) == pytest.approx((0.5, 0.5, 0.5))


def test_per_attribute_breakdown_in_codebook_order():
    pred = [row("d1", "A100", "tdp", "400"), fp32("19.5"), row("d1", "A100", "memory_size", "40")]
    gold = [fp32("19.5"), row("d1", "A100", "memory_size", "80"), row("d1", "H100", "tdp", "700")]
    by = score(match(pred, gold)).by_attribute
    assert list(by) == ["fp32", "memory_size", "tdp"]
    assert by["fp32"] == Counts(1, 0, 0)
    assert by["memory_size"] == Counts(0, 1, 1)
    assert by["tdp"] == Counts(0, 1, 1)


def test_per_script_breakdown_lists_every_script_and_unknown_docs():
    pred = [fp32("19.5", doc="zh"), fp32("1", doc="en"), fp32("5", doc="new")]
    gold = [fp32("19.5", doc="zh"), fp32("19.5", doc="en"), fp32("5", doc="tw")]
    by = score(match(pred, gold), {"zh": "zh-Hans", "en": "en", "tw": "zh-Hant"}).by_script
    assert list(by) == [*SCRIPTS, "unknown"]
    assert by["zh-Hans"] == Counts(1, 0, 0)
    assert by["en"] == Counts(0, 1, 1)
    assert by["zh-Hant"] == Counts(0, 0, 1)
    assert by["mixed"] == Counts()
    assert by["unknown"] == Counts(0, 1, 0)


def test_no_scripts_no_script_breakdown():
    assert score(match([fp32("1")], [fp32("1")])).by_script == {}


# --- verdicts -------------------------------------------------------------------------

def verdict_set():
    pred = [fp32("19.5", verdict="supported"), fp32("9.7", entity="V100", verdict="contradicted"),
            fp32("30", entity="H100", verdict="contradicted"), fp32("1", entity="T4", verdict=""),
            fp32("8", entity="L4", verdict="supported")]            # an FP: its verdict is not scored
    gold = [fp32("19.5", verdict="supported"), fp32("9.7", entity="V100", verdict="supported"),
            fp32("30", entity="H100", verdict="contradicted"), fp32("1", entity="T4", verdict="unverifiable")]
    return score(match(pred, gold)).verdicts


def test_verdict_accuracy_on_matched_pairs_with_both_verdicts():
    v = verdict_set()
    assert (v.overall.n, v.overall.correct, v.unjudged) == (3, 2, 1)
    assert v.overall.accuracy == pytest.approx(2 / 3)


@pytest.mark.parametrize("verdict, n, correct", [
    pytest.param("supported", 2, 1, id="supported"),
    pytest.param("contradicted", 1, 1, id="contradicted"),
    pytest.param("approximate", 0, 0, id="approximate-absent"),
    pytest.param("unverifiable", 0, 0, id="unverifiable-unjudged"),
])
def test_verdict_accuracy_per_gold_verdict(verdict, n, correct):
    tally = verdict_set().per_verdict[verdict]
    assert (tally.n, tally.correct) == (n, correct)


def test_verdict_confusion_gold_to_pred():
    v = verdict_set()
    assert list(v.confusion) == list(VERDICTS)
    assert all(list(row) == list(VERDICTS) for row in v.confusion.values())
    assert v.confusion["supported"] == {"supported": 1, "approximate": 0, "contradicted": 1, "unverifiable": 0}
    assert v.confusion["contradicted"]["contradicted"] == 1
    assert sum(sum(r.values()) for r in v.confusion.values()) == 3
    assert [(p.gold.entity, p.gold.verdict, p.pred.verdict) for p in v.mismatches] == [
        ("V100", "supported", "contradicted")]


# --- rendering ------------------------------------------------------------------------

def small_report():
    pred = [fp32("19.5", verdict="supported"), fp32("8", entity="L4", verdict="supported")]
    gold = [fp32("19.5", verdict="supported", line=2),
            row("d1", "A100", "transistors", "54200000000", verdict="supported", line=3)]
    return score(match(pred, gold), {"d1": "zh-Hans"})


def test_json_key_layout_is_stable():
    data = json.loads(report_to_json(small_report()))
    assert list(data) == ["codebook_version", "tolerance", "counts", "overall", "by_attribute",
                          "by_script", "verdicts", "missed", "false_positives"]
    assert list(data["counts"]) == ["gold", "predicted", "excluded_gold", "excluded_predicted"]
    assert list(data["overall"]) == ["tp", "fp", "fn", "precision", "recall", "f1"]
    assert list(data["verdicts"]) == ["n", "correct", "accuracy", "unjudged", "per_verdict",
                                      "confusion", "mismatches"]
    assert data["overall"] == {"tp": 1, "fp": 1, "fn": 1, "precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert data["missed"][0]["value"] == "54200000000" and data["missed"][0]["line"] == 3
    assert data["false_positives"][0]["entity"] == "L4"
    assert report_to_json(small_report()) == report_to_json(small_report())


def test_text_report_is_aligned_and_lists_misses():
    text = report_to_text(small_report())
    assert "gold 2, predicted 2, matched 1 (value tolerance 0.50%)" in text
    assert "missed gold claims: 1" in text and "54200000000" in text
    assert "false positives: 1" in text
    lines = text.splitlines()
    header = next(i for i, l in enumerate(lines) if l.strip().startswith("scope"))
    overall = lines[header + 1]
    assert overall.split() == ["overall", "1", "1", "1", "0.500", "0.500", "0.500"]
    assert len(overall) == len(lines[header])  # right-aligned numbers end under the header
