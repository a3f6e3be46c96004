"""Prose figures reconsidered from the words around them (after linking).

Two rules, each keyed to words of ``context_words.tsv``:

* a Tensor Core generation whose ordinal names something else ("第四代Tensor Core和第三代RT
  Core": the 第三代 is the RT Core's) is dropped;
* a figure right after a label that names no claim ("显存频率:1215MHz", "纹理单元 160"), or a
  count right before one ("80个光线追踪核心"), is dropped: a shorter keyword near it
  ("频率", "核心") would otherwise give it an attribute;
* a bandwidth read as the memory's whose clause speaks of a GPU-to-GPU link and not of
  memory or PCIe ("600 GB per second in GPU-to-GPU bandwidth", "互联速率为每秒400GB") is the
  NVLink bandwidth, when NVLink is named in the sentence or shortly before it; a clause that
  only compares ("低于A100的每秒600GB") speaks of the link of the clause before it.
"""
from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from ..lexicon.lexicon import Lexicon
from ..regex_screens import compile_screened
from .drafts import Draft, Found
from .patterns import (COMPARE_START, NOUN_AFTER, RELABEL_CLAUSE_BREAK as CLAUSE_BREAK,
                       RELABEL_COUNT_GAP as COUNT_GAP, RELABEL_LABEL_GAP as LABEL_GAP,
                       TENSOR_AFTER)

LINK_WINDOW = 300  # how far before the sentence a named NVLink still counts
MAX_LABEL_GAP = 6


def _words(lex: Lexicon, kind: str) -> re.Pattern:
    words = sorted((r["word"] for r in lex.of_kind("context_words.tsv", kind)), key=len, reverse=True)
    return compile_screened("|".join(re.escape(w).replace(r"\ ", r"\s*+") for w in words),
                            re.IGNORECASE)


def _patterns(lex: Lexicon) -> dict[str, re.Pattern]:
    return {kind: _words(lex, kind) for kind in ("no_claim_label", "interconnect", "link_name",
                                                 "other_bandwidth")}


def relabel(found: Found, drafts: list[Draft]) -> list[Draft]:
    """``drafts`` (prose) with no-claim labels' figures dropped and link bandwidths renamed."""
    words = found.lexicon.built(_patterns)
    out = []
    for d in drafts:
        if _blocked(found.text, d, words["no_claim_label"]) or _other_generation(found.text, d):
            continue
        if d.attribute == "memory_bandwidth" and _link_bandwidth(found.text, d, words):
            d = replace(d, attribute="nvlink_bandwidth")
        out.append(d)
    return out


def base_clocks(drafts: list[Draft]) -> list[Draft]:
    """``drafts`` without the base clocks: a chip's clock given beside a lower, unlabelled one
    ("核心频率 765 MHz" above "Turbo频率 1410 MHz") is its base clock, no claim."""
    boost: dict[tuple, Decimal] = {}
    for d in drafts:
        if d.attribute == "boost_clock" and "boost" in d.qualifier:
            key = (d.entity, d.variant)
            boost[key] = min(boost.get(key, d.value), d.value)
    if not boost:
        return drafts
    return [d for d in drafts if not (d.attribute == "boost_clock" and "boost" not in d.qualifier
                                      and d.value < boost.get((d.entity, d.variant), 0))]


def names_no_claim(found: Found, start: int, end: int) -> bool:
    """Does text[start:end] (a table label) name what is no claim ("主频(MHz)", "显存频率")?"""
    return found.lexicon.built(_patterns)["no_claim_label"].search(found.text, start, end) is not None


def _blocked(text: str, d: Draft, labels: re.Pattern) -> bool:
    """Is the figure right after a no-claim label, or a count right before one?"""
    q = d.quantity
    lead = text[max(0, q.start - 24):q.start].rpartition("\n")[2]  # (this line only)
    for m in labels.finditer(lead):
        gap = lead[m.end():]
        if len(gap) <= MAX_LABEL_GAP and LABEL_GAP.fullmatch(gap):
            return True
    if q.dimension in ("count", "bare"):
        spaces = COUNT_GAP.match(text, q.end)
        return spaces is not None and labels.match(text, spaces.end()) is not None
    return False


def _other_generation(text: str, d: Draft) -> bool:
    """Is a Tensor Core generation's ordinal followed by the name of another part?"""
    end = d.quantity.end
    return (d.attribute == "tensor_core_gen" and NOUN_AFTER.match(text, end) is not None
            and TENSOR_AFTER.match(text, end) is None)


def _clause(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """The clause of text[start:end] within [lo, hi)."""
    before = [m.end() for m in CLAUSE_BREAK.finditer(text, lo, start)]
    after = CLAUSE_BREAK.search(text, end, hi)
    return (before[-1] if before else lo), (after.start() if after else hi)


def _link_bandwidth(text: str, d: Draft, words: dict[str, re.Pattern]) -> bool:
    q = d.quantity
    lo, hi = _clause(text, q.start, q.end, d.sentence.start, d.sentence.end)
    if lo > d.sentence.start and COMPARE_START.match(text, lo):
        lo = _clause(text, lo - 1, lo - 1, d.sentence.start, d.sentence.end)[0]  # "…为每秒400GB，低于A100的每秒600GB"
    if not words["interconnect"].search(text, lo, hi) or words["other_bandwidth"].search(text, lo, hi):
        return False
    return words["link_name"].search(text, max(0, d.sentence.start - LINK_WINDOW), hi) is not None
