"""Article text -> claim records: normalize, find, link, map back to the original.

``extract(text, doc_id)`` is the whole stage as one pure function. The finders work on
the normalized text; every claim's ``start``/``end`` point into the ORIGINAL text through
the normalization map, and ``surface == text[start:end]``.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .mentions import Keyword, find_chips, find_keywords, find_qualifiers
from .drafts import Draft, Found
from .prose import link_prose
from ..normalize.text import Normalized, normalize
from .legends import apply_legends
from .quantities import RANGE_JOIN, Quantity, find_quantities, units_of
from .relabel import base_clocks, relabel
from ..records import Claim
from .tables import link_tables
from .patterns import FIGURE_HINT, LATIN_OR_DIGIT, TABLE_RULE, TABLE_RULE_STARTS, match_at


def active_regions(text: str) -> list[tuple[int, int]]:
    """Lines that may hold a figure, each with the line before it (a table's header).

    Labels and numbers are only looked for here: most of an article's prose holds no
    figure, and chips are looked for everywhere (the topic of a later sentence)."""
    regions: list[tuple[int, int]] = []
    pos, previous = 0, None
    for line in text.split("\n"):
        end = pos + len(line)
        if FIGURE_HINT.search(line):
            start = previous[0] if previous else pos
            if regions and regions[-1][1] >= start - 1:
                regions[-1] = (regions[-1][0], end)
            else:
                regions.append((start, end))
        if line.strip() and not (previous and match_at(TABLE_RULE, TABLE_RULE_STARTS, line)):
            previous = (pos, end)  # a "|---|" rule keeps the header above it as "previous"
        pos = end + 1
    return regions


def find_all(text: str, lexicon: Lexicon | None = None) -> Found:
    """Chips, keywords, qualifiers and quantities of normalized ``text``."""
    lexicon = lexicon_or_default(lexicon)
    regions = active_regions(text)
    chips = find_chips(text, lexicon)
    taken = sorted((c.start, max(c.end, c.variant_end)) for c in chips)
    keywords = [k for k in find_keywords(text, regions, lexicon) if not _overlaps(k.start, k.end, taken)]
    qualifiers = [q for q in find_qualifiers(text, regions, lexicon) if not _overlaps(q.start, q.end, taken)]
    # chip names and Latin labels are blanked out before numbers are read, so that a
    # label run into a figure ("FP647.8", "Memory128 GB", "Matrix95.7") gives the figure
    masked = _mask(text, sorted([(c.start, c.end) for c in chips]
                                + [(k.start, k.end) for k in keywords + qualifiers
                                   if text[k.start:k.start + 1] in LATIN_OR_DIGIT
                                   and k.attribute not in ("pcie_gen", "-")]))
    labels = [(k.start, k.dims) for k in keywords]
    quantities = apply_legends(text, find_quantities(masked, regions, lexicon, labels), keywords,
                               units_of(lexicon))
    quantities = _unpair_labelled(quantities, keywords, masked)
    return Found(text, masked, chips, keywords, qualifiers, quantities, lexicon)


def _unpair_labelled(quantities: list[Quantity], keywords: list[Keyword],
                     masked: str) -> list[Quantity]:
    """'148 TFLOPS FP16 / 296 TFLOPS', '96 GB HBM3 ~4.0 TB/s': a label between two figures
    (blanked out in ``masked`` when the figures were read) makes them two figures of their
    own, not the halves of a dense / sparse pair or the ends of a range."""
    starts = [k.start for k in keywords]
    out = list(quantities)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if bisect_left(starts, a.end) == bisect_left(starts, b.start) or "\n" in masked[a.end:b.start]:
            continue  # no label between them (or two lines: the halves of two pairs)
        if (a.pair and b.pair) or (a.is_range and RANGE_JOIN.match(masked, a.end, b.start)):
            out[i], out[i + 1] = (replace(a, pair="", is_range=False),
                                  replace(b, pair="", is_range=False))
    return out


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Does [start, end) overlap one of the sorted, non-overlapping ``spans``?"""
    i = bisect_left(spans, (end,))
    return i > 0 and spans[i - 1][1] > start


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the sorted ``spans`` replaced by spaces (same length)."""
    if not spans:
        return text
    pieces, pos = [], 0
    for s, e in spans:
        if e <= pos:
            continue
        s = max(s, pos)
        pieces.append(text[pos:s])
        pieces.append(" " * (e - s))
        pos = e
    pieces.append(text[pos:])
    return "".join(pieces)


def extract_normalized(original: str, norm: Normalized, doc_id: str = "",
                       lexicon: Lexicon | None = None) -> list[Claim]:
    """Claims of a document whose normalization is already known."""
    found = find_all(norm.text, lexicon)
    table_drafts, table_spans = link_tables(found)
    drafts = base_clocks(table_drafts + relabel(found, link_prose(found, table_spans)))
    return dedupe(_to_claim(d, original, norm, doc_id) for d in drafts)


def extract(text: str, doc_id: str = "", lexicon: Lexicon | None = None) -> list[Claim]:
    """Spec claims in an article's text (any script), with offsets into ``text``;
    ``lexicon`` (a :class:`~specextract.lexicon.Lexicon`) replaces the bundled data files."""
    return extract_normalized(text, normalize(text, lexicon), doc_id, lexicon)


def _to_claim(d: Draft, original: str, norm: Normalized, doc_id: str) -> Claim:
    q = d.quantity
    start, end = norm.original_span(q.start, q.end)
    s_start, s_end = norm.original_span(d.sentence.start, d.sentence.end)
    return Claim(doc_id=doc_id, entity=d.entity, attribute=d.attribute, value=d.value,
                 surface=original[start:end], start=start, end=end, variant=d.variant,
                 operator=d.operator, qualifier=d.qualifier, baseline=d.baseline,
                 metric=d.metric, precision_exp=d.precision_exp,
                 sentence=" ".join(original[s_start:s_end].split())[:500], link=d.link)


def dedupe(claims) -> list[Claim]:
    """One claim per codebook key, the first occurrence kept, in text order."""
    seen, out = set(), []
    for c in sorted(claims, key=lambda c: (c.start, c.end)):
        key = c.key()
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
