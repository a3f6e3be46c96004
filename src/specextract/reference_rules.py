"""Pure rules that turn one specs.csv row into checkable figures.

Nothing here reads files. ``reference.py`` feeds each raw row through
``row_problem`` (validation) and ``row_figures`` (the figures the row states, including
the values written only in its condition), and builds the records from them.
Conventions follow reference/NOTES.md: Tensor rows say ``dense``/``sparse`` first,
preliminary figures say ``preliminary`` first, ``not supported`` marks an absent feature.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

CONFIDENCES = frozenset({"high", "medium", "low"})
TEXT_UNIT = "text"
NOT_SUPPORTED = frozenset({"not supported", "none"})
TENSOR, NON_TENSOR, DENSE, SPARSE = "tensor", "non-tensor", "dense", "sparse"
# A Tensor row's condition (after an optional "preliminary ...;" head) starts with one of these.
TENSOR_CONDITION_HEADS = ("dense", "sparse", "listed value, unlabeled")

_NUM = r"(\d[\d,]*(?:\.\d+)?)"
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


@dataclass(frozen=True)
class AttrSpec:
    """One line of reference_attributes.tsv."""

    reference_attribute: str
    codebook_attribute: str
    qualifier: str
    unit_factor: Decimal
    units: frozenset[str]


@dataclass(frozen=True)
class Figure:
    """A value a row states for a codebook attribute (``value`` None: not supported)."""

    attribute: str
    qualifiers: frozenset[str]
    value: Decimal | None
    preliminary: bool
    derived: str = ""


def entity_name(chip: str, drop_words: frozenset[str]) -> str:
    """'NVIDIA GeForce RTX 4090' -> 'RTX 4090' (vendor and product-line words dropped)."""
    return " ".join(w for w in chip.split() if w not in drop_words)


def entity_key(name: str) -> str:
    """Names compare case- and space-insensitively (codebook, Entities)."""
    return "".join(name.split()).casefold()


def to_decimal(text: str) -> Decimal | None:
    """A plain number ('1,979' allowed), or None."""
    try:
        value = Decimal(text.replace(",", "").strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def is_preliminary(condition: str) -> bool:
    return condition.lower().startswith("preliminary")


def condition_body(condition: str) -> str:
    """The condition without its 'preliminary (...);' head."""
    if not is_preliminary(condition):
        return condition.strip()
    return condition.split(";", 1)[1].strip() if ";" in condition else ""


def sparsity(condition: str) -> str:
    body = condition_body(condition).lower()
    return DENSE if body.startswith(DENSE) else SPARSE if body.startswith(SPARSE) else ""


def text_value(text: str) -> tuple[Decimal | None, bool] | None:
    """A text cell as (ordinal value, not_supported), or None when it cannot be compared."""
    text = text.strip().lower()
    if text in NOT_SUPPORTED:
        return None, True
    match = _ORDINAL.match(text)
    return (Decimal(match.group(1)), False) if match else None


def condition_problem(condition: str, tensor: bool) -> str | None:
    """Why a condition is malformed, or None."""
    if condition != condition.strip():
        return "condition has leading or trailing spaces"
    if condition.count("(") != condition.count(")"):
        return "condition has unbalanced parentheses"
    if tensor and not condition_body(condition).lower().startswith(TENSOR_CONDITION_HEADS):
        return ("Tensor row's condition must start with 'dense', 'sparse' or 'listed value, "
                f"unlabeled' (after an optional 'preliminary ...;' head): {condition!r}")
    return None


def row_problem(row: dict[str, str], specs: tuple[AttrSpec, ...], units: frozenset[str]) -> str | None:
    """Why a raw specs.csv row is unusable, or None."""
    if not any(row.values()):
        return "empty row"
    for column in ("chip", "attribute", "value", "unit", "source", "confidence"):
        if not row[column].strip():
            return f"empty {column}"
    attribute, unit, value = row["attribute"], row["unit"], row["value"]
    if not specs:
        return f"unknown attribute {attribute!r} (not in reference_attributes.tsv)"
    if unit not in units:
        return f"unknown unit {unit!r}"
    allowed = specs[0].units
    if unit not in allowed:
        return f"unit {unit!r} not allowed for {attribute} (allowed: {', '.join(sorted(allowed))})"
    if unit != TEXT_UNIT and to_decimal(value) is None:
        return f"value {value!r} is not a number (unit {unit}); text is allowed only with unit 'text'"
    if unit == TEXT_UNIT and any(s.codebook_attribute for s in specs) and text_value(value) is None:
        return (f"text value {value!r} for {attribute} must be 'not supported', 'none' "
                "or an ordinal such as '3rd'")
    if row["confidence"] not in CONFIDENCES:
        return f"confidence {row['confidence']!r} is not high, medium or low"
    tensor = unit != TEXT_UNIT and any(s.qualifier == TENSOR for s in specs)
    return condition_problem(row["condition"], tensor)


def row_figures(row: dict[str, str], spec: AttrSpec) -> list[Figure]:
    """The figures one row states for one codebook attribute: its own value first,
    then values written only in its condition."""
    condition = row["condition"]
    if row["unit"] == TEXT_UNIT:
        value, absent = text_value(row["value"])  # type: ignore[misc]
    else:
        value, absent = to_decimal(row["value"]) * spec.unit_factor, False  # type: ignore[operator]
    quals = {spec.qualifier} if spec.qualifier else set()
    if spec.qualifier == NON_TENSOR:
        quals.add(DENSE)  # plain rows have no sparsity
    elif spec.qualifier == TENSOR and (kind := sparsity(condition)):
        quals.add(kind)
    own = Figure(spec.codebook_attribute, frozenset(quals), value, is_preliminary(condition))
    if absent or own.preliminary:
        return [own]
    return [own, *condition_figures(own, condition, spec)]


def _swap(quals: frozenset[str], add: str) -> frozenset[str]:
    return frozenset((quals - {DENSE, SPARSE}) | {add})


def condition_figures(own: Figure, condition: str, spec: AttrSpec) -> list[Figure]:
    """Values written only in a condition count as rows (codebook, Verdicts)."""
    attr, quals, out = own.attribute, own.qualifiers, []
    num = lambda text: to_decimal(text) * spec.unit_factor  # noqa: E731
    if spec.qualifier == TENSOR:
        for m in re.finditer(rf"\bdense {_NUM}(?![\d.])", condition):       # "(dense 494.5)"
            out.append(Figure(attr, _swap(quals, DENSE), num(m.group(1)), False, "condition"))
        for m in re.finditer(rf"{_NUM} (?:with (?:2:4 )?sparsity|sparse)\b|sparse figure {_NUM}",
                             condition):                                    # "; 624 sparse"
            out.append(Figure(attr, _swap(quals, SPARSE), num(m.group(1) or m.group(2)), False,
                              "condition"))
    if spec.qualifier:
        for m in re.finditer(rf"\b(?:preliminary|preannouncement)\b[^;()]*?\bsaid {_NUM}(?!\s*TB/s)",
                             condition):                                    # "preannouncement said 15"
            out.append(Figure(attr, quals, num(m.group(1)), True, "condition"))
    if attr == "fp32":
        for m in re.finditer(rf"FP32 matrix (?:=|also) {_NUM}", condition):  # AMD "FP32 matrix = 95.7"
            out.append(Figure(attr, frozenset({TENSOR, DENSE}), num(m.group(1)), False, "condition"))
    if attr == "fp16" and re.search(r"same for BF16|\(BF16 same\)", condition):
        out.append(Figure("bf16", quals, own.value, False, "condition"))
    if attr == "int8" and "INT8/INT4" in condition:
        out.append(Figure("int4", quals, own.value, False, "condition"))
    if attr == "fp64" and spec.qualifier == NON_TENSOR and "FP64 / FP64 Tensor Core" in condition:
        both = frozenset({TENSOR, DENSE})
        out += [Figure("fp64", both, own.value, False, "condition"),
                Figure("fp64_tensor", both, own.value, False, "condition")]
    if attr == "process_node" and re.search(r"\b4NP?\b", condition):
        # Codebook: a chip on TSMC 4N/4NP is on a 5nm-class node; 4 and 5 nm are both right.
        out.append(Figure(attr, quals, Decimal(5), False, "TSMC 4N/4NP is a 5nm-class node"))
    return out


_RATIO_X = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[x×]")
_RATIO_PCT = re.compile(r"(?<![\d.])([+-]?)(\d+(?:\.\d+)?)\s*%")


def parse_ratio(text: str) -> tuple[Decimal, ...]:
    """'up to 20x' -> (20,); '2.5x (5x sparse)' -> (2.5, 5); '+73% (1.7x)' -> (1.73, 1.7);
    '~90%' -> (0.9,)."""
    values = [Decimal(m.group(1)) for m in _RATIO_X.finditer(text)]
    for m in _RATIO_PCT.finditer(text):
        pct = Decimal(m.group(2)) / 100
        values.insert(0, 1 + pct if m.group(1) == "+" else 1 - pct if m.group(1) == "-" else pct)
    return tuple(dict.fromkeys(values))
