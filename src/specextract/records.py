"""Frozen record types that flow between the stages.

document -> (normalize) -> quantities -> mentions -> Claim -> (check) -> CheckedClaim

Every record that points into an article keeps ``start``/``end`` (half-open, into
the ORIGINAL text) and the ``surface`` found there.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from decimal import Decimal

from .codebook import ATTRIBUTE_UNITS, OPERATORS, QUALIFIERS, VERDICTS


@dataclass(frozen=True)
class Document:
    """One article as read from disk."""

    doc_id: str
    path: str
    encoding: str
    format: str
    text: str


def _text(value: object) -> str:
    """A field as a row cell: strings as they are, None as "", anything else str()."""
    if value.__class__ is str:
        return value  # type: ignore[return-value]
    return "" if value is None else str(value)


def format_decimal(value: Decimal | None) -> str:
    """A plain decimal with no exponent and no trailing zeros ("19.5", "54200000000").
    Remembered per value for nonzero finite Decimals (equal ones print alike; zero's sign
    is printed): the same figures come up claim after claim."""
    if value.__class__ is Decimal and value and value.is_finite():
        return _plain_remembered(value)  # type: ignore[arg-type]
    return "" if value is None else _plain(value)


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


_plain_remembered = lru_cache(maxsize=10_000)(_plain)


@dataclass(frozen=True)
class Claim:
    """One spec claim in the codebook's sense.

    ``value`` is in the attribute's canonical unit; ``precision_exp`` is the power of
    ten of the last significant digit as written, in that unit ("19.5 TFLOPS" -> -1,
    "540亿" transistors -> 9, "2 TB/s" -> 3 in GB/s).
    """

    doc_id: str
    entity: str
    attribute: str
    value: Decimal
    surface: str
    start: int
    end: int
    variant: str = ""
    operator: str = "="
    qualifier: str = ""
    baseline: str = ""
    metric: str = ""
    precision_exp: int = 0
    sentence: str = ""
    link: str = ""  # how the chip was found (extract's LINKS); empty when not known

    def __post_init__(self) -> None:
        if self.attribute not in ATTRIBUTE_UNITS:
            raise ValueError(f"unknown attribute {self.attribute!r}")
        if self.operator not in OPERATORS:
            raise ValueError(f"unknown operator {self.operator!r}")
        for q in filter(None, self.qualifier.split(";")):
            if q not in QUALIFIERS:
                raise ValueError(f"unknown qualifier {q!r}")
        if not isinstance(self.value, Decimal):
            object.__setattr__(self, "value", Decimal(str(self.value)))
        if not (0 <= self.start <= self.end):
            raise ValueError(f"bad span {self.start}:{self.end}")

    @property
    def unit(self) -> str:
        return ATTRIBUTE_UNITS[self.attribute]

    @property
    def qualifiers(self) -> frozenset[str]:
        return frozenset(filter(None, self.qualifier.split(";")))

    def key(self) -> tuple:
        """The codebook's per-document uniqueness key."""
        return (self.doc_id, self.entity, self.attribute, self.value.normalize(),
                self.baseline, self.metric)

    def as_row(self) -> dict[str, str]:
        """The claim's fields as strings, in field order, then ``unit`` (built directly:
        ``dataclasses.asdict`` deep-copies every field; ``start``/``end`` are numbers, as
        __post_init__ compares them)."""
        return {
            "doc_id": _text(self.doc_id), "entity": _text(self.entity),
            "attribute": _text(self.attribute), "value": format_decimal(self.value),
            "surface": _text(self.surface), "start": str(self.start), "end": str(self.end),
            "variant": _text(self.variant), "operator": _text(self.operator),
            "qualifier": _text(self.qualifier), "baseline": _text(self.baseline),
            "metric": _text(self.metric), "precision_exp": _text(self.precision_exp),
            "sentence": _text(self.sentence), "link": _text(self.link),
            "unit": ATTRIBUTE_UNITS[self.attribute],
        }


@dataclass(frozen=True)
class CheckedClaim:
    """A claim with its verdict and the evidence behind it."""

    claim: Claim
    verdict: str
    expected: Decimal | None = None
    expected_variant: str = ""
    expected_condition: str = ""
    deviation: float | None = None
    diagnosis: str = ""
    source: str = ""
    confidence: str = ""
    self_contradiction: str = ""
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    def as_row(self) -> dict[str, str]:
        row = self.claim.as_row()
        row["verdict"] = self.verdict
        row["expected"] = format_decimal(self.expected)
        row["expected_variant"] = self.expected_variant
        row["expected_condition"] = self.expected_condition
        row["deviation"] = "" if self.deviation is None else f"{self.deviation:.4f}"
        row["diagnosis"] = self.diagnosis
        row["source"] = self.source
        row["confidence"] = self.confidence
        row["self_contradiction"] = self.self_contradiction
        return row
