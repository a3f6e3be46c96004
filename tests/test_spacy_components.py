"""The spaCy components: registration, alignment, equality with extract(), batching."""
from __future__ import annotations

import importlib
import subprocess
import sys
from decimal import Decimal
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span

import specextract
import specextract.spacy_components as sc
from specextract import read_document

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
ARTICLES = ["000_54febc0d4f00a4ac.txt", "001_1e411b7903a60609.txt", "050_en_mi300x_launch.txt"]
FACTORIES = ("spec_quantities", "spec_chips", "spec_claims")
# two claims on one figure; a claim over a quantity whose own value is in another unit;
# traditional script with pinyin noise and full-width digits (offsets must still match)
SMALL = "A100和H100都是80GB显存。H100的顯(xiǎn)存頻寬為３.３５ TB/s，L2缓存为50MB。"


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {name: read_document(CORPUS / name).text for name in ARTICLES}


@pytest.fixture(scope="module")
def nlp() -> Language:
    return sc.build_pipeline()


@pytest.fixture(scope="module")
def user_nlp() -> Language:
    """A user's own blank pipeline with only the claims component."""
    nlp = spacy.blank("zh")
    nlp.add_pipe("spec_claims")
    return nlp


def spans(doc: Doc) -> dict[str, list[tuple]]:
    return {key: [(s.start_char, s.end_char, s.label_, s.id_) for s in group]
            for key, group in doc.spans.items()}


def test_factories_are_registered_and_declared_as_entry_points():
    for name in FACTORIES:
        assert Language.has_factory(name)
        meta = Language.get_factory_meta(name)
        assert "doc.spans" in meta.assigns and meta.default_config == {"spans_key": name}
    assert spacy.registry.factories.get("spec_claims") is sc.make_claims
    declared = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert {n: declared.get(n) for n in FACTORIES} == {
        "spec_quantities": "specextract.spacy_components:make_quantities",
        "spec_chips": "specextract.spacy_components:make_chips",
        "spec_claims": "specextract.spacy_components:make_claims"}


@pytest.mark.slow
def test_add_pipe_through_the_entry_point_in_a_fresh_interpreter():
    code = ("import spacy; nlp = spacy.blank('zh'); nlp.add_pipe('spec_claims'); "
            "doc = nlp('A100的FP32为19.5 TFLOPS'); "
            "print([(s.text, s._.spec_entity, s._.spec_attribute) for s in doc.spans['spec_claims']])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[('19.5 TFLOPS', 'A100', 'fp32')]"


@pytest.mark.parametrize("name", ARTICLES)
def test_user_pipeline_claims_equal_extract(user_nlp, texts, name):
    doc = user_nlp(texts[name])
    assert user_nlp.pipe_names == ["spec_claims"] and list(doc.spans) == ["spec_claims"]
    claims = sc.doc_claims(doc)
    assert claims and claims == specextract.extract(texts[name])
    for span, claim in zip(doc.spans["spec_claims"], claims):
        assert (span.start_char, span.end_char, span.text) == (claim.start, claim.end, claim.surface)
        assert (span._.spec_entity, span._.spec_attribute, span._.spec_value, span.label_) \
            == (claim.entity, claim.attribute, claim.value, claim.attribute)


@pytest.mark.parametrize("name", ARTICLES)
def test_full_pipeline_spans_line_up_with_the_original(nlp, texts, name):
    text = texts[name]
    doc = nlp(text)
    assert sc.doc_claims(doc) == specextract.extract(text)
    assert doc.has_annotation("SENT_START")
    assert doc.spans["spec_quantities"] and doc.spans["spec_chips"]
    for span in doc.spans["spec_quantities"]:
        assert span.text == text[span.start_char:span.end_char] and span.text.strip() == span.text
        assert span._.spec_dimension == span.label_ and span._.spec_entity is None
    for span in doc.spans["spec_chips"]:
        assert span._.spec_entity == span.label_ and span._.spec_value is None


def test_records_on_the_same_offsets_keep_their_own_values(nlp):
    doc = nlp(SMALL)
    claims = [(s.text, s._.spec_entity, s._.spec_attribute, s._.spec_value, s._.spec_unit)
              for s in doc.spans["spec_claims"]]
    assert claims == [("80GB", "A100", "memory_size", Decimal(80), "GB"),
                      ("80GB", "H100", "memory_size", Decimal(80), "GB"),
                      ("３.３５ TB/s", "H100", "memory_bandwidth", Decimal(3350), "GB/s"),
                      ("50MB", "H100", "l2_cache", Decimal(50), "MB")]
    quantities = [(s.text, s._.spec_dimension, s._.spec_value, s._.spec_unit)
                  for s in doc.spans["spec_quantities"]]
    assert ("50MB", "bytes", Decimal("0.05"), "GB") in quantities
    assert [s.text for s in doc.spans["spec_chips"]] == ["A100", "H100", "H100"]


def test_pipe_in_batches_equals_one_by_one(nlp, texts):
    batch = [*texts.values(), SMALL, "", "no figures here"]
    piped = list(nlp.pipe(batch, batch_size=2))
    single = [nlp(t) for t in batch]
    assert [spans(d) for d in piped] == [spans(d) for d in single]
    assert [sc.doc_claims(d) for d in piped] == [specextract.extract(t) for t in batch]
    assert list(sc.extract_docs(batch, batch_size=2)) == [sc.doc_claims(d) for d in single]


def test_english_pipeline(texts):
    text = texts["050_en_mi300x_launch.txt"]
    assert list(sc.extract_docs([text], nlp=sc.build_pipeline("en"))) == [specextract.extract(text)]


def test_docs_round_trip_through_bytes(nlp):
    doc = nlp(SMALL)
    restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert sc.doc_claims(restored) == sc.doc_claims(doc)
    docbin = DocBin(store_user_data=True, docs=[doc])
    (again,) = DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab)
    assert spans(again) == spans(doc)


def test_extract_docs_needs_a_claims_component():
    with pytest.raises(ValueError, match="spec_claims"):
        sc.extract_docs(["A100"], nlp=spacy.blank("zh"))


def test_extensions_are_not_registered_again_on_reimport(user_nlp):
    names = list(sc.READERS)
    before = {n: Span.get_extension(n) for n in names}, Doc.get_extension(sc.CACHE)
    module = importlib.reload(sc)
    after = {n: Span.get_extension(n) for n in names}, Doc.get_extension(sc.CACHE)
    assert all(after[0][n] is before[0][n] for n in names) and after[1] is before[1]
    assert spacy.registry.factories.get("spec_claims") is module.make_claims
    doc = user_nlp("A100的FP32为19.5 TFLOPS")
    assert [s._.spec_value for s in doc.spans["spec_claims"]] == [Decimal("19.5")]
