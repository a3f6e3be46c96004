"""Frozen record types that flow between the stages.

document -> (normalize) -> quantities -> mentions -> Claim -> (check) -> CheckedClaim

Every record that points into an article keeps ``start``/``end`` (half-open, into
the ORIGINAL text) and the ``surface`` found there.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
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


def one_update_init(cls: type) -> type:
    """Give a frozen dataclass an ``__init__`` that fills the instance dict in one
    ``update`` and then runs ``__post_init__``: the same parameters (names, order,
    defaults); equality, hashing, ``dataclasses.replace``, pickling and the frozen guard
    are the dataclass's. (The dataclass's own sets each field through
    ``object.__setattr__``: a Claim cost 26k instructions to build, 11k so; the check
    stage builds one Claim and one CheckedClaim per claim.) Plain fields only."""
    params, defaults = [], {}
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: one_update_init takes plain fields only")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    names = [f.name for f in dataclasses.fields(cls)]
    body = [f"    self.__dict__.update({', '.join(f'{n}={n}' for n in names)})"]
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    namespace: dict = {}
    exec(source, defaults, namespace)  # noqa: S102 - source built from the field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


@one_update_init
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
        """The claim's fields as strings, then ``unit`` (:func:`specextract.rows.claim_to_row`)."""
        return _rows.claim_to_row(self)


@one_update_init
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
        """The claim's row and the verdict's evidence (:func:`specextract.rows.checked_to_row`)."""
        return _rows.checked_to_row(self)


def _claim_property(name: str) -> property:
    def get(self: CheckedClaim):
        return getattr(self.claim, name)
    get.__name__ = name
    return property(get, doc=f"The claim's ``{name}`` (read-only).")


# A checked claim reads like its claim: ``c.entity``, ``c.value``, ``c.unit`` (``c.claim`` too).
CLAIM_ATTRIBUTES: tuple[str, ...] = tuple(f.name for f in fields(Claim)) + ("unit", "qualifiers")
for _name in CLAIM_ATTRIBUTES:
    setattr(CheckedClaim, _name, _claim_property(_name))
del _name

from . import rows as _rows  # noqa: E402 - the conversions, which import the records above
