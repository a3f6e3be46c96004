"""``spec_check``: the checker as a spaCy component, after ``spec_claims``.

    nlp = specextract.spacy_components.build_pipeline()
    nlp.add_pipe("spec_check")                   # config: {"reference": "my_specs.csv"}
    doc = nlp(text)
    span = doc.spans["spec_claims"][0]
    span._.verdict, span._.expected, span._.diagnosis, span._.spec_checked
    html = render(doc)                           # displaCy spans coloured by verdict

The component puts the claims again in ``doc.spans["spec_checks"]``, labelled by verdict,
for displaCy. The extensions read any claim span (``spec_claims`` or ``spec_checks``); the
verdicts are computed once per doc and table, and again from the text after the doc has
been serialized (the table's path travels in ``doc.user_data``).
"""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from .codebook import APPROXIMATE, CONTRADICTED, SUPPORTED, UNVERIFIABLE
from .records import CheckedClaim
from .spacy_components import ID_PREFIX, doc_work, span_record

REFERENCE_KEY = ("specextract", "reference")
VERDICT_COLORS = {SUPPORTED: "#b7e4c7", APPROXIMATE: "#ffe8a3", CONTRADICTED: "#f4a3a3",
                  UNVERIFIABLE: "#dddddd"}
READERS = {"verdict": lambda c: c.verdict, "expected": lambda c: c.expected,
           "diagnosis": lambda c: c.diagnosis, "spec_checked": lambda c: c}


def doc_checked(doc: Doc) -> list[CheckedClaim] | None:
    """The checked claims of a doc a ``spec_check`` component has seen, else None."""
    if REFERENCE_KEY not in doc.user_data:
        return None
    path = doc.user_data[REFERENCE_KEY] or None
    work = doc_work(doc)
    if path not in work.checked:
        from .check.checker import check
        from .check.reference import load_reference
        work.checked[path] = check(work.claims, load_reference(path))
    return work.checked[path]


def span_checked(span: Span) -> CheckedClaim | None:
    """The checked claim behind a claim span, or None (not a claim span, or not checked)."""
    found = span_record(span)
    checked = doc_checked(span.doc) if found and found[0] == "claim" else None
    if checked is None:
        return None
    return checked[int(span.id_.rsplit(":", 1)[1])]


def _getter(read):
    def get(span: Span):
        checked = span_checked(span)
        return None if checked is None else read(checked)
    return get


def register_extensions() -> None:
    for name, read in READERS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, getter=_getter(read))


register_extensions()


class SpecCheck:
    """Checks the doc's claims against a reference table (default: the bundled one)."""

    def __init__(self, name: str, reference: str, spans_key: str) -> None:
        from .check.reference import load_reference
        self.name, self.reference, self.spans_key = name, reference, spans_key
        load_reference(reference or None)   # a malformed table fails when the pipe is added

    def __call__(self, doc: Doc) -> Doc:
        doc.user_data[REFERENCE_KEY] = self.reference
        spans = []
        for i, (claim, checked) in enumerate(zip(doc_work(doc).claims, doc_checked(doc))):
            span = doc.char_span(claim.start, claim.end, label=checked.verdict,
                                 alignment_mode="expand", span_id=f"{ID_PREFIX}:claim:{i}")
            if span is not None:
                spans.append(span)
        doc.spans[self.spans_key] = spans
        return doc


@Language.factory("spec_check", default_config={"reference": "", "spans_key": "spec_checks"},
                  assigns=["doc.spans", "span._.verdict", "span._.expected", "span._.diagnosis",
                           "span._.spec_checked"])
def make_check(nlp: Language, name: str, reference: str, spans_key: str) -> SpecCheck:
    """Verdicts of the doc's claims (``span._.verdict`` ...) and ``doc.spans[spans_key]``
    labelled by verdict."""
    return SpecCheck(name, reference, spans_key)


def render(doc: Doc, spans_key: str = "spec_checks", **options) -> str:
    """displaCy HTML of the checked claims, each coloured by its verdict."""
    from spacy import displacy
    opts = {"spans_key": spans_key, "colors": VERDICT_COLORS, **options}
    return displacy.render(doc, style="span", options=opts, page=False, jupyter=False)
