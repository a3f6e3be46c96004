"""specextract as spaCy pipeline components: thin wiring around the plain functions.

Three factories, also declared as ``spacy_factories`` entry points, so a user's own
pipeline can ``nlp.add_pipe("spec_claims")`` without importing this module:

* ``spec_quantities`` -> ``doc.spans["spec_quantities"]``; ``span._.spec_value`` (in
  ``span._.spec_unit``, the dimension's base unit), ``span._.spec_dimension``;
* ``spec_chips`` -> ``doc.spans["spec_chips"]``; ``span._.spec_entity``, ``span._.spec_variant``;
* ``spec_claims`` -> ``doc.spans["spec_claims"]``; ``span._.spec_claim`` (the
  :class:`~specextract.records.Claim`), ``span._.spec_entity``, ``span._.spec_attribute``,
  ``span._.spec_value``, ``span._.spec_unit``, ``span._.spec_variant``. Exactly the claims of
  ``specextract.extract(doc.text)``, in the same order.

The components never look at tokens: they normalize ``doc.text``, run the finders, map
normalized offsets back to the original (``Normalized.original_span``) and make spans with
``doc.char_span(..., alignment_mode="expand")``. That work is a pure function of the text,
so it is done once per doc and shared through the private ``doc._._specextract``.

Records are not stored in ``doc.user_data``: spaCy keys span extension values by character
offsets only, so two claims on the same figure ("A100和H100都是80GB"), or a claim and the
quantity under it, would overwrite each other. Each span instead carries an id
(``"specextract:claim:3"``) and the ``Span._`` getters read the record it names. The doc
stays serializable (``to_bytes``, ``DocBin``, ``nlp.pipe(n_process=...)``); after a round
trip the records are recomputed from the text on first access.

Speed: ``specextract.extract(text)`` is the fast path -- it never tokenizes. A spaCy
pipeline tokenizes first (the blank ``zh`` tokenizer makes one token per character, about
3 MB/s), so use these components when you embed specextract in your own pipeline, and
``extract`` (in a process pool for a corpus) when you only want the claims.
"""
from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from .extract.claims import extract_normalized, find_all
from .extract.drafts import Found
from .normalize.text import Normalized, normalize
from .extract.quantities import Quantity
from .records import Claim

CACHE = "_specextract"  # private Doc extension: the per-doc work below
ID_PREFIX = "specextract"
# The base unit of each quantity dimension (data/units.tsv); counts and ordinals are bare.
BASE_UNITS = {"throughput": "TFLOPS", "bytes": "GB", "bandwidth": "GB/s", "length": "nm",
              "power": "W", "frequency": "MHz", "area": "mm2", "bits": "bit", "ratio": "x",
              "percent": "%", "count": "count", "ordinal": "ordinal"}


# ---------------------------------------------------------------- the shared per-doc work

@dataclass
class DocWork:
    """Normalization, finds and claims of one doc's text, each computed on first use."""

    text: str
    norm: Normalized
    _found: Found | None = None
    _claims: list[Claim] | None = None
    checked: dict = field(default_factory=dict)   # reference path -> CheckedClaims (spacy_check)

    @property
    def found(self) -> Found:
        if self._found is None:
            self._found = find_all(self.norm.text)
        return self._found

    @property
    def claims(self) -> list[Claim]:
        # extract_normalized runs find_all itself, so a pipeline with all three components
        # finds twice (about 2x extract's time); spec_claims alone finds once.
        if self._claims is None:
            self._claims = extract_normalized(self.text, self.norm)
        return self._claims


_WORK: "weakref.WeakKeyDictionary[Doc, DocWork]" = weakref.WeakKeyDictionary()


def _doc_work(doc: Doc) -> DocWork:
    """Getter of ``doc._._specextract``: the doc's work, made once and dropped with the doc."""
    work = _WORK.get(doc)
    if work is None or len(work.text) != _text_length(doc):
        text = doc.text
        work = _WORK[doc] = DocWork(text, normalize(text))
    return work


def _text_length(doc: Doc) -> int:
    return doc[-1].idx + len(doc[-1].text_with_ws) if len(doc) else 0


def doc_work(doc: Doc) -> DocWork:
    """The shared work of ``doc`` (through its private extension)."""
    return doc._.get(CACHE)


# ---------------------------------------------------------------- records of each kind

@dataclass(frozen=True)
class Kind:
    """How one kind of record becomes a span: its records, original span and label."""

    records: Callable[[DocWork], list]
    span: Callable[[DocWork, object], tuple[int, int]]
    label: Callable[[object], str]


def base_unit(q: Quantity) -> str:
    """The unit ``q.value`` is expressed in ("" for a bare number)."""
    if q.dimension == "throughput" and q.written.endswith("OPS") and not q.written.endswith("FLOPS"):
        return "TOPS"
    return BASE_UNITS.get(q.dimension, "")


KINDS: dict[str, Kind] = {
    "quantity": Kind(lambda w: w.found.quantities,
                     lambda w, q: w.norm.original_span(q.start, q.end),
                     lambda q: q.dimension),
    "chip": Kind(lambda w: w.found.chips,
                 lambda w, m: w.norm.original_span(m.start, max(m.end, m.variant_end)),
                 lambda m: m.entity),
    "claim": Kind(lambda w: w.claims, lambda w, c: (c.start, c.end), lambda c: c.attribute),
}

# Span extension -> {kind: how to read it off that kind's record}
READERS: dict[str, dict[str, Callable]] = {
    "spec_value": {"quantity": lambda q: q.value, "claim": lambda c: c.value},
    "spec_unit": {"quantity": base_unit, "claim": lambda c: c.unit},
    "spec_dimension": {"quantity": lambda q: q.dimension},
    "spec_entity": {"chip": lambda m: m.entity, "claim": lambda c: c.entity},
    "spec_variant": {"chip": lambda m: m.variant, "claim": lambda c: c.variant},
    "spec_attribute": {"claim": lambda c: c.attribute},
    "spec_claim": {"claim": lambda c: c},
}


def span_record(span: Span) -> tuple[str, object] | None:
    """(kind, record) behind a span made by these components, else None."""
    parts = span.id_.split(":") if span.id else ()
    if len(parts) != 3 or parts[0] != ID_PREFIX or parts[1] not in KINDS:
        return None
    records = KINDS[parts[1]].records(doc_work(span.doc))
    index = int(parts[2])
    return (parts[1], records[index]) if index < len(records) else None


def _reader(readers: dict[str, Callable]) -> Callable[[Span], object]:
    def get(span: Span) -> object:
        found = span_record(span)
        if found is None or found[0] not in readers:
            return None
        return readers[found[0]](found[1])
    return get


def register_extensions() -> None:
    """Register the Doc and Span extensions, once (safe to call again)."""
    if not Doc.has_extension(CACHE):
        Doc.set_extension(CACHE, getter=_doc_work)
    for name, readers in READERS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, getter=_reader(readers))


register_extensions()


# ---------------------------------------------------------------- components

class SpecSpans:
    """Puts one kind of specextract record into ``doc.spans[spans_key]``."""

    def __init__(self, name: str, kind: str, spans_key: str):
        self.name, self.kind, self.spans_key = name, kind, spans_key

    def __call__(self, doc: Doc) -> Doc:
        work, kind = doc_work(doc), KINDS[self.kind]
        spans = []
        for i, record in enumerate(kind.records(work)):
            start, end = kind.span(work, record)
            span = doc.char_span(start, end, label=kind.label(record), alignment_mode="expand",
                                 span_id=f"{ID_PREFIX}:{self.kind}:{i}")
            if span is None:  # cannot happen for a non-empty span of visible text
                warnings.warn(f"{self.name}: no tokens for {self.kind} at {start}:{end}")
                continue
            spans.append(span)
        doc.spans[self.spans_key] = spans
        return doc


def _assigns(kind: str) -> list[str]:
    return ["doc.spans"] + [f"span._.{name}" for name, r in READERS.items() if kind in r]


@Language.factory("spec_quantities", default_config={"spans_key": "spec_quantities"},
                  assigns=_assigns("quantity"))
def make_quantities(nlp: Language, name: str, spans_key: str) -> SpecSpans:
    """Quantities (number + unit) in ``doc.spans[spans_key]``."""
    return SpecSpans(name, "quantity", spans_key)


@Language.factory("spec_chips", default_config={"spans_key": "spec_chips"},
                  assigns=_assigns("chip"))
def make_chips(nlp: Language, name: str, spans_key: str) -> SpecSpans:
    """Chip mentions (with their variant) in ``doc.spans[spans_key]``."""
    return SpecSpans(name, "chip", spans_key)


@Language.factory("spec_claims", default_config={"spans_key": "spec_claims"},
                  assigns=_assigns("claim"))
def make_claims(nlp: Language, name: str, spans_key: str) -> SpecSpans:
    """Spec claims, as ``specextract.extract(doc.text)``, in ``doc.spans[spans_key]``."""
    return SpecSpans(name, "claim", spans_key)


# ---------------------------------------------------------------- pipelines

def build_pipeline(lang: str = "zh") -> Language:
    """A blank pipeline (no model to download) with a sentencizer and the three components.

    ``lang="zh"`` uses spaCy's character segmenter; ``"en"`` or ``"xx"`` suit English."""
    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    for factory in ("spec_quantities", "spec_chips", "spec_claims"):
        nlp.add_pipe(factory)
    return nlp


@lru_cache(maxsize=4)
def _claims_pipeline(lang: str) -> Language:
    nlp = spacy.blank(lang)
    nlp.add_pipe("spec_claims")
    return nlp


def doc_claims(doc: Doc, spans_key: str = "spec_claims") -> list[Claim]:
    """The claims a ``spec_claims`` component put on ``doc``."""
    return [span._.spec_claim for span in doc.spans[spans_key]]


def extract_docs(texts: Iterable[str], nlp: Language | None = None,
                 batch_size: int = 64) -> Iterator[list[Claim]]:
    """Claims of each text, through ``nlp.pipe``; the same as ``map(specextract.extract, texts)``.

    ``nlp`` is any pipeline with a ``spec_claims`` component (default: blank ``zh`` with
    only that component). This path pays for tokenization; ``specextract.extract`` is
    faster when the claims are all you need."""
    nlp = nlp if nlp is not None else _claims_pipeline("zh")
    spans_key = _claims_key(nlp)  # checked now, not at the first next()
    return (doc_claims(doc, spans_key) for doc in nlp.pipe(texts, batch_size=batch_size))


def _claims_key(nlp: Language) -> str:
    for name in nlp.pipe_names:
        if nlp.get_pipe_meta(name).factory == "spec_claims":
            return nlp.get_pipe(name).spans_key
    raise ValueError("the pipeline has no spec_claims component; "
                     "add one with nlp.add_pipe('spec_claims')")
