"""The few worst wrong figures of a store, for the end of ``specextract run``.

    A100 fp32 15 TFLOPS → 19.5 (misattributed: V100's), 3 documents

"Worst" is furthest from the reference (by ratio, so 10x too small counts as much as 10x
too large); one line per chip, attribute and value, however many documents state it.

SQLite groups the contradicted claims into figures (``queries.wrong_figures``: one row per
figure, with its first claim's expected value and diagnosis, and its documents); only the
``n`` worst are held, so memory does not grow with the store.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Iterator
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


def worst_figures(store, n: int = SHOWN) -> tuple[list[WrongFigure], int]:
    """The ``n`` worst contradicted figures of an open store, and how many claims are
    contradicted in all."""
    total = 0

    def ranked() -> Iterator[tuple]:
        """Worst first: furthest, then most documents, chip, first listed (``first`` is
        unique, so ranks never compare further)."""
        nonlocal total
        for row in queries.wrong_figures(store.conn):
            total += row[4]
            yield -severity(row[2], row[7]), -row[3], row[0], row[5], row
    return [WrongFigure(entity, attribute, value, unit, expected, diagnosis, documents)
            for *_, (entity, attribute, value, documents, _, _, unit, expected, diagnosis)
            in heapq.nsmallest(n, ranked())], total


def worst_text(store, db_path: str, n: int = SHOWN,
               found: tuple[list[WrongFigure], int] | None = None) -> str:
    """The lines ``run`` ends with: the worst figures and the command that exports all
    (``found``: what worst_figures gave, if another process worked it out)."""
    figures, total = found if found is not None else worst_figures(store, n)
    if not total:
        return "no wrong figures found"
    lines = [f"worst of {total} wrong figures (claim → reference):"]
    lines += [f"  {f}" for f in figures]
    lines.append(f"all of them: specextract export --db {db_path} --verdict contradicted "
                 "-o wrong.csv")
    return "\n".join(lines)
