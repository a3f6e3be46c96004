"""The checker against the bundled reference: every verdict rule and diagnosis, as data
(tests/cases/verdicts.tsv), plus per-document self-contradictions and the consensus table."""
from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import read_cases
from specextract.check import CONSENSUS_COLUMNS, check, consensus
from specextract.check.diagnose import DIAGNOSES
from specextract.records import Claim
from specextract.check.reference import load_reference
from specextract.codebook import VERDICTS

CASES = read_cases("verdicts.tsv")


def claim(entity: str, attribute: str, value: str, *, doc: str = "doc", precision_exp: int = 0,
          surface: str = "", **kw: str) -> Claim:
    return Claim(doc_id=doc, entity=entity, attribute=attribute, value=Decimal(value),
                 surface=surface or value, start=0, end=len(surface or value),
                 precision_exp=precision_exp, **kw)


def case_claim(case: dict[str, str]) -> Claim:
    optional = {k: case.get(k, "") for k in ("variant", "qualifier", "baseline", "metric")}
    return claim(case["entity"], case["attribute"], case["value"],
                 precision_exp=int(case["precision_exp"] or 0), surface=case.get("surface", ""),
                 operator=case.get("operator") or "=", **optional)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_verdict(case: dict[str, str]) -> None:
    [result] = check([case_claim(case)])
    context = f"{case['why']} | got {result.verdict} {result.expected} {result.diagnosis!r} {result.notes}"
    assert result.verdict == case["verdict"], context
    expected = case.get("expected", "")
    assert result.expected == (Decimal(expected) if expected else None), context
    wanted = case.get("diagnosis", "")
    if wanted == "none":
        assert result.diagnosis == "", context
    elif wanted:
        for part in wanted.split(";"):
            if part.startswith("!"):
                assert part[1:] not in result.diagnosis, context
            else:
                assert part in result.diagnosis, context


def test_case_file_covers_every_verdict_and_diagnosis() -> None:
    assert {c["verdict"] for c in CASES} == set(VERDICTS)
    seen = " ".join(c.get("diagnosis", "") for c in CASES)
    missing = [d for d in DIAGNOSES if d not in seen]
    assert not missing


def test_expected_evidence_is_filled() -> None:
    [result] = check([claim("A100", "memory_bandwidth", "2000", precision_exp=3)])
    assert (result.expected_variant, result.confidence) == ("80GB SXM4", "high")
    assert "nvidia-a100-datasheet" in result.source
    assert result.deviation == pytest.approx(39 / 2039)
    row = result.as_row()
    assert (row["verdict"], row["expected"], row["expected_variant"]) == ("supported", "2039", "80GB SXM4")


def test_unverifiable_says_why() -> None:
    [result] = check([claim("Foo 9000", "fp16", "100")])
    assert result.expected is None and result.deviation is None
    assert any("unknown chip" in note for note in result.notes)


def test_explicit_reference_is_used() -> None:
    ref = load_reference()
    assert check([claim("A100", "fp32", "19.5", precision_exp=-1)], ref)[0].verdict == "supported"


DOC_CASES = [
    ("compute_15_vs_321", [("A100", "compute", "15", {}), ("A100", "compute", "321", {})], {0, 1}),
    ("rounded_and_exact_agree", [("A100", "memory_bandwidth", "2000", {"precision_exp": 3}),
                                 ("A100", "memory_bandwidth", "2039", {})], set()),
    ("different_variants", [("A100", "memory_bandwidth", "1555", {"variant": "40GB"}),
                            ("A100", "memory_bandwidth", "2039", {"variant": "80GB SXM4"})], set()),
    ("dense_and_sparse", [("A100", "fp16", "312", {"qualifier": "dense"}),
                          ("A100", "fp16", "624", {"qualifier": "sparse"})], set()),
    ("other_document", [("A100", "fp32", "19.5", {"doc": "a"}), ("A100", "fp32", "15", {"doc": "b"})], set()),
    ("other_chip", [("A100", "fp32", "19.5", {}), ("V100", "fp32", "15.7", {})], set()),
    ("speedups_same_pair", [("A100", "speedup", "5", {"baseline": "V100", "metric": "compute"}),
                            ("A100", "speedup", "20", {"baseline": "V100", "metric": "compute"})], {0, 1}),
    ("speedups_other_baseline", [("A100", "speedup", "5", {"baseline": "V100"}),
                                 ("A100", "speedup", "20", {"baseline": "P100"})], set()),
    ("tilde_tolerance", [("A100", "fp32", "20", {"operator": "~"}), ("A100", "fp32", "19.5", {})], set()),
]


@pytest.mark.parametrize("specs, flagged", [c[1:] for c in DOC_CASES], ids=[c[0] for c in DOC_CASES])
def test_self_contradiction(specs, flagged) -> None:
    results = check([claim(e, a, v, **kw) for e, a, v, kw in specs])
    assert {i for i, r in enumerate(results) if r.self_contradiction} == flagged
    for i in flagged:
        other = specs[1 - i][2]
        assert f"also says {other}" in results[i].self_contradiction


def test_consensus_counts_documents_and_lists_reference_values() -> None:
    checked = check([claim("A100", "fp32", "19.5", doc="a", precision_exp=-1),
                     claim("A100", "fp32", "19.5", doc="b", precision_exp=-1),
                     claim("A100", "fp32", "19.5", doc="b", precision_exp=-1),
                     claim("A100", "fp32", "15", doc="c")])
    table = consensus(checked)
    assert list(table.columns) == list(CONSENSUS_COLUMNS)
    first = table.iloc[0]
    assert (first["value"], first["documents"], first["claims"]) == ("19.5", 2, 3)
    assert first["verdicts"] == "supported:3" and first["reference_values"] == "19.5"
    assert table.iloc[1]["verdicts"] == "contradicted:1"


ODD_CLAIMS = [
    ("nan_value", dict(entity="A100", attribute="fp32", value="NaN")),
    ("infinite_value", dict(entity="A100", attribute="fp32", value="Infinity")),
    ("very_fine_precision", dict(entity="A100", attribute="fp32", value="19.5", precision_exp=-60)),
    ("very_coarse_precision", dict(entity="A100", attribute="fp32", value="19.5", precision_exp=60)),
    ("many_digits", dict(entity="A100", attribute="fp32", value="19." + "4" * 40)),
    ("huge_value", dict(entity="A100", attribute="transistors", value="1e40")),
    ("zero_value", dict(entity="A100", attribute="speedup", value="0", baseline="V100", metric="fp16")),
    ("negative_value", dict(entity="A100", attribute="tdp", value="-400")),
    ("unknown_metric", dict(entity="A100", attribute="speedup", value="2", baseline="V100", metric="warp")),
    ("speedup_metric_speedup", dict(entity="A100", attribute="speedup", value="2", baseline="V100", metric="speedup")),
    ("self_baseline", dict(entity="A100", attribute="speedup", value="1", baseline="A100", metric="compute")),
    ("unknown_baseline", dict(entity="A100", attribute="speedup", value="2", baseline="Foo 1", metric="fp16")),
    ("empty_entity", dict(entity="", attribute="fp16", value="100")),
    ("odd_variant", dict(entity="A100", attribute="fp16", value="312", variant="((80GB))")),
]


@pytest.mark.parametrize("fields", [c[1] for c in ODD_CLAIMS], ids=[c[0] for c in ODD_CLAIMS])
def test_check_never_raises(fields: dict) -> None:
    fields = dict(fields)
    c = Claim(doc_id="doc", entity=fields.pop("entity"), attribute=fields.pop("attribute"),
              value=Decimal(fields.pop("value")), surface="x", start=0, end=1, **fields)
    results = check([c, c])  # twice: the self-contradiction pass sees a pair
    assert len(results) == 2 and results[0].verdict in VERDICTS


def test_claims_no_searched_figure_matches_are_explained_by_none_of_the_three_rules() -> None:
    """diagnose skips wrong_precision, wrong_variant and misattributed when
    may_explain is false: they must find nothing then, near the 5% edges too."""
    from specextract.check import lookalikes
    ref = load_reference()
    rows = [r for r in ref.rows if r.value is not None and r.attribute != "speedup"][::7]
    factors = ("0.94", "0.9499", "0.95", "0.951", "1.049", "1.05", "1.0501", "1.06", "0.5", "3")
    variants = {r.entity: r.variant for r in ref.rows if r.variant}
    skipped = 0
    for row in rows:
        for attribute in {row.attribute, "compute", "fp64_tensor"}:
            for factor in factors:
                claim = Claim("d", row.entity, attribute, row.value * Decimal(factor), "x", 0, 1,
                              variant=variants.get(row.entity, ""))
                if lookalikes.may_explain(claim, ref):
                    continue
                skipped += 1
                assert not lookalikes.wrong_precision(claim, ref)
                assert not lookalikes.wrong_variant(claim, ref)
                assert not lookalikes.misattributed(claim, ref)
    assert skipped > 50


def test_precision_rows_near_a_claim_are_those_may_match_accepts_in_order() -> None:
    from specextract.check import figures
    from specextract.check import lookalikes
    ref = load_reference()
    chips = sorted({(r.entity, r.variant) for r in ref.rows})
    w = figures.MATCH_WINDOW
    factors = (0.9, 1 - w - 1e-12, 1 - w, 1 - w + 1e-12, 1.0, 1 + w - 1e-12, 1 + w,
               1 + w + 1e-12, 1.1)
    tried = 0
    for entity, variant in chips[::3]:
        rows = lookalikes.precision_index(ref, entity, variant)[0]
        for number in {f * k for _, f in rows if f for k in factors} | {None, 0.0, -1.0}:
            accepted = [(r, f) for r, f in rows if figures.may_match(number, f)]
            near = lookalikes.precision_near(ref, entity, variant, number)
            assert [(r, f) for r, f in near if figures.may_match(number, f)] == accepted
            tried += 1
    assert tried > 100



def test_swapped_reads_two_adjacent_different_digits_swapped() -> None:
    """figures.swapped against every swap of two adjacent, different digits (a '.' never
    moves), over all short texts of a few characters."""
    from itertools import product

    from specextract.check.figures import swapped

    def swaps(text: str) -> set[str]:
        return {text[:i] + text[i + 1] + text[i] + text[i + 2:] for i in range(len(text) - 1)
                if text[i] != text[i + 1] and "." not in (text[i], text[i + 1])}

    texts = ["".join(t) for n in range(1, 5) for t in product("01.9", repeat=n)]
    for other in texts:
        expected = swaps(other)
        for text in texts:
            assert swapped(text, other) == (text in expected), (text, other)
    assert swapped("19.5", "91.5") and not swapped("1.95", "19.5")


def test_number_slips_give_the_parts_the_detectors_give_one_by_one() -> None:
    """The checker works each figure's unit, power-of-ten and swapped-digits slips out once:
    the parts are those of unit_mixup, magnitude and digits_swapped over all the figures,
    and a figure has one exactly where ``explains`` says a slip turns it into the claim."""
    from specextract.check import diagnose, figures, slips
    units = {"memory_size": "GB", "fp16": "TFLOPS", "int8": "TOPS", "tdp": "W",
             "cuda_cores": "count"}
    figures_ = [Decimal(v) for v in ("19.5", "0", "80", "9.7", "312", "1E+3", "0.05", "1E-200")]
    values = ("195", "1.95", "640", "10", "79", "97", "312000", "0.312", "8", "0", "1E+200",
              "13.2", "19.6")
    tried = 0
    for attribute, unit in units.items():
        surfaces = ("x", f"5 {unit}", "5 TOPS", "5 TFLOPS")
        for value in values:
            for surface in surfaces:
                claim = Claim("d", "A100", attribute, Decimal(value), surface, 0, 1)
                for k in range(len(figures_)):
                    numbers = figures_[k:] + figures_[:k][::-1]
                    found = slips.number_slips(claim, numbers)
                    ratios = figures.approx_ratios(claim.value, numbers)
                    assert slips.slip_parts(claim, numbers, found) == (
                        slips.unit_mixup(claim, numbers, ratios)
                        + slips.magnitude(claim, numbers, ratios)
                        + slips.digits_swapped(claim, numbers))
                    assert [any(parts) for parts in found] == [
                        diagnose.explains(claim, number) for number in numbers]
                    tried += any(map(any, found))
    assert tried > 100


# -- accusations: contradicted only where the text ties the figure to the chip ------------
@pytest.mark.parametrize("link,verdict", [
    ("clause", "contradicted"), ("possessive", "contradicted"), ("table-column", "contradicted"),
    ("list-head", "contradicted"), ("heading", "contradicted"), ("", "contradicted"),
    ("topic", "unverifiable"), ("topic-far", "unverifiable"), ("pronoun", "unverifiable"),
    ("unread-row", "unverifiable"), ("shared-head", "unverifiable"),
    ("wrapped-header", "unverifiable"),
])
def test_a_wrong_figure_is_an_accusation_only_through_a_close_link(link, verdict) -> None:
    [checked] = check([claim("A100", "fp32", "15", precision_exp=0, link=link)])
    assert checked.verdict == verdict
    if verdict == "unverifiable":
        assert checked.expected is None and checked.diagnosis.startswith("uncertain link")
        assert "19.5" in checked.diagnosis          # what the reference says is kept
        assert "uncertain link" in checked.notes


def test_a_weak_link_does_not_touch_a_supported_figure() -> None:
    [checked] = check([claim("A100", "fp32", "19.5", precision_exp=-1, link="topic-far")])
    assert checked.verdict == "supported"


def test_the_self_contradiction_flag_stays_on_unverifiable_verdicts(monkeypatch) -> None:
    """The flag is set on a claim whose contradicted verdict a weak link makes unverifiable,
    and on claims the rules fail on."""
    from specextract.check import checker
    from specextract.check.accusations import accusable
    from specextract.extract.drafts import LINKS
    weak = next(link for link in LINKS if not accusable(link))
    claims = [claim("A100", "fp32", "19.5", link=weak), claim("A100", "fp32", "15", link=weak)]
    flags = ["also says 15 TFLOPS (15)", "also says 19.5 TFLOPS (19.5)"]
    results = check(claims)
    assert [r.verdict for r in results] == ["supported", "unverifiable"]
    assert "uncertain link" in results[1].diagnosis
    assert [r.self_contradiction for r in results] == flags

    def failing(*args, **kwargs):
        raise RuntimeError("a rule failed")
    monkeypatch.setattr(checker, "check_one", failing)
    results = check(claims)
    assert [r.verdict for r in results] == ["unverifiable", "unverifiable"]
    assert [r.self_contradiction for r in results] == flags
