"""The spec_check component: verdicts on claim spans, displaCy coloured by verdict."""
from __future__ import annotations

from decimal import Decimal
from importlib.metadata import entry_points

import pytest
from spacy.language import Language
from spacy.tokens import Doc

import specextract
import specextract.spacy_check as sck
from specextract.spacy_components import build_pipeline

TEXT = "NVIDIA A100 的 FP64 性能为 97 TFLOPS，FP32 为 19.5 TFLOPS。"


@pytest.fixture(scope="module")
def nlp() -> Language:
    nlp = build_pipeline()
    nlp.add_pipe("spec_check")
    return nlp


def test_spans_carry_verdict_expected_and_diagnosis(nlp):
    doc = nlp(TEXT)
    got = [(s.text, s._.verdict, s._.expected, s._.diagnosis.split(":")[0])
           for s in doc.spans["spec_claims"]]
    assert got == [("97 TFLOPS", "contradicted", Decimal("9.7"), "magnitude"),
                   ("19.5 TFLOPS", "supported", Decimal("19.5"), "")]
    assert [s._.spec_checked for s in doc.spans["spec_claims"]] == specextract.check(
        specextract.extract(TEXT))
    assert [(s.text, s.label_) for s in doc.spans["spec_checks"]] == [
        ("97 TFLOPS", "contradicted"), ("19.5 TFLOPS", "supported")]


def test_unchecked_docs_have_no_verdicts():
    doc = build_pipeline()(TEXT)
    assert [s._.verdict for s in doc.spans["spec_claims"]] == [None, None]


def test_verdicts_survive_serialization(nlp):
    doc = nlp(TEXT)
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [s._.verdict for s in again.spans["spec_checks"]] == ["contradicted", "supported"]


def test_displacy_colours_spans_by_verdict(nlp):
    html = sck.render(nlp(TEXT))
    assert html.count(sck.VERDICT_COLORS["contradicted"]) >= 1
    assert html.count(sck.VERDICT_COLORS["supported"]) >= 1
    assert ">contradicted<" in html.replace(" ", "").replace("\n", "") and ">supported<" in html.replace(" ", "").replace("\n", "")


def test_spec_check_is_declared_as_an_entry_point():
    declared = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert declared["spec_check"] == "specextract.spacy_check:make_check"
    assert Language.has_factory("spec_check")
