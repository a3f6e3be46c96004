"""Records (made for every figure) keep the dataclass's behaviour: parameters, defaults,
validation, freezing."""
from __future__ import annotations

import dataclasses
import inspect
from decimal import Decimal

import pytest

from specextract.extract.mentions import Keyword, Mention
from specextract.extract.drafts import Draft
from specextract.extract.quantities import Quantity
from specextract.records import CheckedClaim, Claim

ONE_UPDATE = [Claim, Quantity, Draft, Mention, Keyword, CheckedClaim]


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
