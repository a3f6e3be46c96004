"""Claims to rows and back: the one place a record becomes cells and cells a record.

    claim_to_row(claim)          # Claim -> {column: str}, field order, then ``unit``
    checked_to_row(checked)      # CheckedClaim -> the claim's row + the verdict's evidence
    claim_from_row(row)          # a row (strings, or typed cells) -> Claim
    checked_from_row(row)        # a row with a verdict -> CheckedClaim
    gold_row(record)             # Claim / CheckedClaim -> eval.gold.ClaimRow
    typed_row(row)               # string cells -> numbers where the column is numeric

String rows are what the store, the CSV and the batch workers carry; typed rows are
what JSON Lines, Parquet and DataFrames carry (``value``/``expected``/``deviation`` as
numbers, offsets as integers). ``claim_from_row`` reads either, so every export reads
back to the same claim, ``link`` included.
"""
from __future__ import annotations

from dataclasses import fields
from decimal import Decimal

from .codebook import ATTRIBUTE_UNITS
from .decimaltext import format_decimal
from .records import CheckedClaim, Claim

CLAIM_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Claim))
INTEGER_COLUMNS: tuple[str, ...] = ("start", "end", "precision_exp")
NUMBER_COLUMNS: tuple[str, ...] = ("value", "expected", "deviation")
CATEGORY_COLUMNS: tuple[str, ...] = ("verdict",)
EVIDENCE_COLUMNS: tuple[str, ...] = (
    "verdict", "expected", "expected_variant", "expected_condition", "deviation",
    "diagnosis", "source", "confidence", "self_contradiction")


def _text(value: object) -> str:
    """A field as a row cell: strings as they are, None as "", anything else str()."""
    if value.__class__ is str:
        return value  # type: ignore[return-value]
    return "" if value is None else str(value)


def claim_to_row(claim: Claim) -> dict[str, str]:
    """The claim's fields as strings, in field order, then ``unit`` (built directly:
    ``dataclasses.asdict`` deep-copies every field)."""
    return {
        "doc_id": _text(claim.doc_id), "entity": _text(claim.entity),
        "attribute": _text(claim.attribute), "value": format_decimal(claim.value),
        "surface": _text(claim.surface), "start": str(claim.start), "end": str(claim.end),
        "variant": _text(claim.variant), "operator": _text(claim.operator),
        "qualifier": _text(claim.qualifier), "baseline": _text(claim.baseline),
        "metric": _text(claim.metric), "precision_exp": _text(claim.precision_exp),
        "sentence": _text(claim.sentence), "link": _text(claim.link),
        "unit": ATTRIBUTE_UNITS[claim.attribute],
    }


def checked_to_row(checked: CheckedClaim) -> dict[str, str]:
    """The claim's row, then the verdict and its evidence (EVIDENCE_COLUMNS), as strings."""
    row = claim_to_row(checked.claim)
    row["verdict"] = checked.verdict
    row["expected"] = format_decimal(checked.expected)
    row["expected_variant"] = checked.expected_variant
    row["expected_condition"] = checked.expected_condition
    row["deviation"] = "" if checked.deviation is None else f"{checked.deviation:.4f}"
    row["diagnosis"] = checked.diagnosis
    row["source"] = checked.source
    row["confidence"] = checked.confidence
    row["self_contradiction"] = checked.self_contradiction
    return row


def record_to_row(record: Claim | CheckedClaim) -> dict[str, str]:
    return checked_to_row(record) if isinstance(record, CheckedClaim) else claim_to_row(record)


def _cell(row: dict, column: str) -> str:
    """A cell as text whatever carried it: None/NaN (a missing value) as ""; a float that
    holds an integer ("3.0" from a DataFrame) as "3"."""
    value = row.get(column, "")
    if value.__class__ is str:
        return value
    if value is None:
        return ""
    if isinstance(value, float):
        if value != value:
            return ""
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def _int(row: dict, column: str, default: int = 0) -> int:
    text = _cell(row, column)
    return int(text) if text else default


def claim_from_row(row: dict) -> Claim:
    """The Claim a row describes (the inverse of claim_to_row; reads typed rows too). Every
    field in order, so the first bad cell raises; a missing ``precision_exp`` is the place of
    the value's last written digit."""
    value = _cell(row, "value")
    number = Decimal(value)
    start, end = _int(row, "start"), _int(row, "end")
    exp = _cell(row, "precision_exp")
    return Claim(_cell(row, "doc_id"), _cell(row, "entity"), _cell(row, "attribute"), number,
                 _cell(row, "surface"), start, end, _cell(row, "variant"),
                 _cell(row, "operator") or "=", _cell(row, "qualifier"), _cell(row, "baseline"),
                 _cell(row, "metric"), int(exp) if exp else _written_exp(value),
                 _cell(row, "sentence"), _cell(row, "link"))


def _written_exp(digits: str) -> int:
    from .extract.numbers import significant_exp
    return significant_exp(digits)


def checked_from_row(row: dict) -> CheckedClaim:
    """The CheckedClaim a row with a verdict describes (the inverse of checked_to_row)."""
    expected, deviation = _cell(row, "expected"), _cell(row, "deviation")
    return CheckedClaim(
        claim_from_row(row), _cell(row, "verdict"), Decimal(expected) if expected else None,
        _cell(row, "expected_variant"), _cell(row, "expected_condition"),
        float(deviation) if deviation else None, _cell(row, "diagnosis"), _cell(row, "source"),
        _cell(row, "confidence"), _cell(row, "self_contradiction"))


def record_from_row(row: dict) -> Claim | CheckedClaim:
    """A CheckedClaim when the row has a verdict, else a Claim."""
    return checked_from_row(row) if _cell(row, "verdict") else claim_from_row(row)


def gold_row(record: Claim | CheckedClaim):
    """The record as an eval.gold.ClaimRow (a bare Claim has no verdict)."""
    from .eval.gold import ClaimRow
    claim = record.claim if isinstance(record, CheckedClaim) else record
    checked = record if isinstance(record, CheckedClaim) else None
    return ClaimRow(
        doc_id=claim.doc_id, entity=claim.entity, variant=claim.variant,
        attribute=claim.attribute, value=claim.value, unit=claim.unit,
        operator=claim.operator, qualifier=claim.qualifier, baseline=claim.baseline,
        metric=claim.metric, surface=claim.surface,
        verdict=checked.verdict if checked else "",
        expected=checked.expected if checked else None)


def number(text: str) -> int | float | None:
    """A plain decimal cell as a JSON/Parquet number: "" -> None, "80" -> 80, "19.5" -> 19.5
    (float's shortest repr gives back the written digits)."""
    if text is None or text == "":
        return None
    if isinstance(text, (int, float)):
        return text
    return float(text) if any(c in text for c in ".eE") else int(text)


def typed_row(row: dict) -> dict:
    """A string row with its numeric columns as numbers (None when empty)."""
    out = dict(row)
    for column in INTEGER_COLUMNS + NUMBER_COLUMNS:
        if column in out:
            out[column] = number(out[column])
    return out
