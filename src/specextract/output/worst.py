"""The few worst wrong figures of a store, for the end of ``specextract run``.

    A100 fp32 15 TFLOPS → 19.5 (misattributed: V100's), 3 documents

"Worst" is furthest from the reference (by ratio, so 10x too small counts as much as 10x
too large); one line per chip, attribute and value, however many documents state it.

The figures are tallied from the contradicted claims as ``queries.contradicted_claims``
streams them, chip after chip: the report reads that stream anyway, so ``run`` takes the
worst figures from the report's pass (:class:`WorstTally`) instead of reading the claims
again. Memory holds one chip's figures and the ``n`` worst so far: for each figure its
place, the four fields its line shows and its documents, with one string per document
and value (a chip's figures grow with the store: 9.7 MB for the chip with the most
contradicted claims among 10,000 bench articles, 26.8 MB when each kept its whole row).
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..rows import number
from ..store import queries
from .patterns import OWNER, RATIO_HEAD

SHOWN = 5


@dataclass(frozen=True)
class WrongFigure:
    entity: str
    attribute: str
    value: str
    unit: str
    expected: str
    diagnosis: str
    documents: int

    def __str__(self) -> str:
        unit = ("" if self.unit in ("count", "ordinal") else "x" if self.unit == "x"
                else f" {self.unit}")
        why = short_diagnosis(self.diagnosis)
        docs = f", {self.documents} documents" if self.documents > 1 else ""
        return (f"{self.entity} {self.attribute} {self.value}{unit} → {self.expected or '?'}"
                f"{f' ({why})' if why else ''}{docs}")


def short_diagnosis(diagnosis: str) -> str:
    """The first reason, short: "misattributed: V100's", "magnitude: 10x too large"."""
    first = diagnosis.split("; ")[0].strip()
    label, _, rest = first.partition(": ")
    if not rest:
        return label
    owner = OWNER.search(rest)
    if owner:
        return f"{label}: {owner['owner']}'s {owner['attribute']}" if label == "wrong precision" \
            else f"{label}: {owner['owner']}'s"
    rest = RATIO_HEAD.sub("", rest).split(" (")[0].split(" against ")[0]
    return f"{label}: {rest}" if len(rest) <= 40 else label


def severity(value: str, expected: str) -> float:
    """How far a figure is from the reference: |ln(value / expected)| (0 when unknown)."""
    v, e = number(value), number(expected)
    if not v or not e or v <= 0 or e <= 0:
        return 0.0
    return abs(math.log(v / e))


class WorstTally:
    """The ``n`` worst contradicted figures of the claims fed to it (``tapped``), which
    come chip after chip (``queries.contradicted_claims`` order), and how many there were.

    A figure is one (chip, attribute, value, baseline, metric); its unit, expected value
    and diagnosis are those of its first claim as claims are listed (doc_id, path, seq),
    its documents the distinct doc_ids stating it. Ranked furthest from the reference
    first (``severity``), then most documents, chip, first seen."""

    def __init__(self, n: int = SHOWN) -> None:
        self.n = n
        self.total = 0
        self._entity: str | None = None
        # one chip's figures: [place, what its first claim tells (_told), its doc_id, or
        # a set of doc_ids once a second document states it]; the chip with the most
        # wrong figures holds about one in ten of a store's
        self._figures: dict[tuple[str, str, str, str], list] = {}
        self._same: dict[str, str] = {}   # one string per name and value the chip's hold
        self._worst: list[tuple] = []

    def tapped(self, stream: Iterable[tuple]) -> Iterator[tuple]:
        """``stream`` (contradicted_claims' tuples) as it is, each claim tallied on the way."""
        for item in stream:
            self.add(item[0], item[2], item[3])
            yield item

    def add(self, entity: str, claim: dict, place: tuple) -> None:
        if entity != self._entity:
            self._close_chip()
            self._entity = entity
        self.total += 1
        key = (claim["attribute"], claim["value"], claim["baseline"], claim["metric"])
        figure = self._figures.get(key)
        doc_id = self._same.setdefault(claim["doc_id"], claim["doc_id"])
        if figure is None:
            self._figures[key] = [self._place(place, doc_id), self._told(claim), doc_id]
            return
        docs = figure[2]
        if isinstance(docs, set):
            docs.add(doc_id)
        elif docs != doc_id:   # a second document: a set from now on
            figure[2] = {docs, doc_id}
        if place < figure[0]:
            figure[0], figure[1] = self._place(place, doc_id), self._told(claim)

    def _place(self, place: tuple, doc_id: str) -> tuple:
        """``place`` with its names as the chip's figures already hold them (one string
        per document, not one per claim; ``doc_id`` is the place's, so held)."""
        given, _, path, seq = place
        return given, doc_id, self._same.setdefault(path, path), seq

    def _told(self, claim: dict) -> tuple[str, str, str, str]:
        """What a figure's line reads of its first claim (attribute, unit, expected,
        diagnosis): not the whole row (its sentence, surface, source, ...), which a chip's
        figures would otherwise all hold until the chip ends."""
        same = self._same
        return (same.setdefault(claim["attribute"], claim["attribute"]),
                same.setdefault(claim["unit"], claim["unit"]),
                same.setdefault(claim["expected"], claim["expected"]), claim["diagnosis"])

    def _close_chip(self) -> None:
        """Rank the current chip's figures among the worst so far (a figure's place is
        unique, so the ranking never compares further)."""
        if not self._figures:
            return
        entity = self._entity
        ranked = [(-severity(value, told[2]), -len(docs) if isinstance(docs, set) else -1,
                   entity, place, value, told)
                  for (_, value, _, _), (place, told, docs) in self._figures.items()]
        ranked += self._worst
        self._worst = heapq.nsmallest(self.n, ranked)
        self._figures, self._same = {}, {}

    def figures(self) -> list[WrongFigure]:
        """The worst figures, worst first (after every claim was fed)."""
        self._close_chip()
        return [WrongFigure(entity, attribute, value, unit, expected, diagnosis, -documents)
                for _, documents, entity, _, value, (attribute, unit, expected, diagnosis)
                in self._worst]


def worst_figures(store, n: int = SHOWN) -> tuple[list[WrongFigure], int]:
    """The ``n`` worst contradicted figures of an open store, and how many claims are
    contradicted in all."""
    tally = WorstTally(n)
    for entity, _kind, claim, place in queries.contradicted_claims(store.conn):
        tally.add(entity, claim, place)
    return tally.figures(), tally.total


def worst_text(store, db_path: str, n: int = SHOWN, tally: WorstTally | None = None) -> str:
    """The lines ``run`` ends with: the worst figures and the command that exports all
    (``tally``: from the report's pass over the store, if it made one)."""
    figures, total = (tally.figures(), tally.total) if tally is not None \
        else worst_figures(store, n)
    if not total:
        return "no wrong figures found"
    lines = [f"worst of {total} wrong figures (claim → reference):"]
    lines += [f"  {f}" for f in figures]
    lines.append(f"all of them: specextract export --db {db_path} --verdict contradicted "
                 "-o wrong.csv")
    return "\n".join(lines)
