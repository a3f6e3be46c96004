"""Records (made for every figure) keep the dataclass's behaviour: parameters, defaults,
validation, freezing."""
from __future__ import annotations

import dataclasses
import inspect
from decimal import Decimal

import pytest

from specextract.records import CheckedClaim, Claim

# Quantity, Draft, Mention and Keyword write their own __init__: tests/test_compiled_inits.py.
ONE_UPDATE = [Claim, CheckedClaim]


@pytest.mark.parametrize("cls", ONE_UPDATE, ids=lambda c: c.__name__)
def test_init_takes_the_fields_in_order_with_their_defaults(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)


def test_claim_is_still_frozen_validated_and_replaceable():
    claim = Claim("d", "A100", "fp32", 19.5, "19.5 TFLOPS", 3, 14, precision_exp=-1)
    assert claim.value == Decimal("19.5") and isinstance(claim.value, Decimal)
    assert list(vars(claim)) == [f.name for f in dataclasses.fields(Claim)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        claim.start = 4  # type: ignore[misc]
    with pytest.raises(ValueError):
        Claim("d", "A100", "no_such_attribute", Decimal(1), "1", 0, 1)
    with pytest.raises(ValueError):
        Claim("d", "A100", "fp32", Decimal(1), "1", 5, 1)
    moved = dataclasses.replace(claim, start=4, end=15)
    assert (moved.start, moved.end, moved.surface) == (4, 15, claim.surface)
    assert claim == Claim(**vars(claim)) and hash(claim) == hash(Claim(**vars(claim)))


def test_checked_claim_is_still_frozen_validated_and_replaceable():
    claim = Claim("d", "A100", "fp32", Decimal("19.5"), "19.5 TFLOPS", 3, 14)
    checked = CheckedClaim(claim, "supported", expected=Decimal("19.5"), notes=("n",))
    assert list(vars(checked)) == [f.name for f in dataclasses.fields(CheckedClaim)]
    assert CheckedClaim(claim, "contradicted").notes == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        checked.verdict = "contradicted"  # type: ignore[misc]
    with pytest.raises(ValueError):
        CheckedClaim(claim, "no such verdict")
    flagged = dataclasses.replace(checked, self_contradiction="also says 20")
    assert (flagged.self_contradiction, flagged.expected) == ("also says 20", Decimal("19.5"))
    assert checked == CheckedClaim(**vars(checked))
    assert hash(checked) == hash(CheckedClaim(**vars(checked)))


def test_format_decimal_writes_the_normalized_digits_in_plain_notation() -> None:
    """Plain notation, no trailing zeros after the point, whatever form the Decimal holds
    (a value written plainly is read off its own text; the others are normalized)."""
    import random
    from specextract.decimaltext import format_decimal

    def normalized(value: Decimal) -> str:
        text = format(value.normalize(), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text or "0"
    fixed = ["-0.00", "0.00", "100", "-12.30", "19.5", "1E+2", "0.000001", "1E-7", "5.000",
             "123456789012345678901234567.5", "1.00000000000000000000000000001", "0E-5",
             "Infinity", "NaN"]
    assert format_decimal(Decimal("19.50")) == "19.5" and format_decimal(None) == ""
    rng = random.Random(7)
    values = [Decimal(t) for t in fixed] + [
        Decimal(rng.choice("-+") + str(rng.randrange(10 ** rng.randrange(1, 33)))).scaleb(
            rng.randrange(-40, 10)) for _ in range(20_000)]
    for value in values:
        assert format_decimal(value) == normalized(value), value
