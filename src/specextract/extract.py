"""Article text -> claim records: normalize, find, link, map back to the original.

``extract(text, doc_id)`` is the whole stage as one pure function. The finders work on
the normalized text; every claim's ``start``/``end`` point into the ORIGINAL text through
the normalization map, and ``surface == text[start:end]``.
"""
from __future__ import annotations

import re

from .lexicon import find_chips, find_keywords, find_qualifiers
from .linking import Draft, Found, link_prose
from .normalize import Normalized, normalize
from .quantities import find_quantities
from .records import Claim
from .tables import link_tables

LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")


def find_all(text: str) -> Found:
    """Chips, keywords, qualifiers and quantities of normalized ``text``."""
    chips = find_chips(text)
    taken = [(c.start, max(c.end, c.variant_end)) for c in chips]
    keywords = [k for k in find_keywords(text) if not _overlaps(k.start, k.end, taken)]
    qualifiers = [q for q in find_qualifiers(text) if not _overlaps(q.start, q.end, taken)]
    # chip names and Latin labels are blanked out before numbers are read, so that a
    # label run into a figure ("FP647.8", "Memory128 GB", "Matrix95.7") gives the figure
    masked = _mask(text, [(c.start, c.end) for c in chips]
                   + [(k.start, k.end) for k in keywords + qualifiers
                      if LATIN_OR_DIGIT.match(text, k.start) and k.attribute != "pcie_gen"])
    quantities = find_quantities(masked)
    return Found(text, masked, chips, keywords, qualifiers, quantities)


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def extract_normalized(original: str, norm: Normalized, doc_id: str = "") -> list[Claim]:
    """Claims of a document whose normalization is already known."""
    found = find_all(norm.text)
    table_drafts, table_spans = link_tables(found)
    drafts = table_drafts + link_prose(found, table_spans)
    return dedupe(_to_claim(d, original, norm, doc_id) for d in drafts)


def extract(text: str, doc_id: str = "") -> list[Claim]:
    """Spec claims in an article's text (any script), with offsets into ``text``."""
    return extract_normalized(text, normalize(text), doc_id)


def _to_claim(d: Draft, original: str, norm: Normalized, doc_id: str) -> Claim:
    q = d.quantity
    start, end = norm.original_span(q.start, q.end)
    s_start, s_end = norm.original_span(d.sentence.start, d.sentence.end)
    return Claim(doc_id=doc_id, entity=d.entity, attribute=d.attribute, value=d.value,
                 surface=original[start:end], start=start, end=end, variant=d.variant,
                 operator=d.operator, qualifier=d.qualifier, baseline=d.baseline,
                 metric=d.metric, precision_exp=d.precision_exp,
                 sentence=" ".join(original[s_start:s_end].split())[:500])


def dedupe(claims) -> list[Claim]:
    """One claim per codebook key, the first occurrence kept, in text order."""
    seen, out = set(), []
    for c in sorted(claims, key=lambda c: (c.start, c.end)):
        key = c.key()
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
