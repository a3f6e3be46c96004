"""Dataclasses that write their own ``__init__`` (so that the compiled build constructs them
natively, where a generated one runs interpreted) take exactly the dataclass's fields: the
same names in the same order, the same defaults, every value kept; equality, hashing and
``dataclasses.replace`` still hold. Compiled, such an ``__init__`` has no signature to
inspect, so its parameters are read from the module's source."""
from __future__ import annotations

import ast
import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

import specextract
from specextract.check.ratios import Candidate
from specextract.check.reference import RefRow
from specextract.extract.drafts import Draft
from specextract.extract.mentions import Keyword, Mention
from specextract.extract.quantities import Quantity
from specextract.extract.segment import Span

PACKAGE = Path(specextract.__file__).parent
QUANTITY = Quantity(3, 14, Decimal("19.5"), -1, "flops", "19.5 TFLOPS", 3, 7, True, "dense")
ROW = RefRow("A100", "NVIDIA A100", "SXM4 80GB", "fp32", frozenset({"dense"}), Decimal("19.5"),
             "TFLOPS", "boost clock", "datasheet", "high")

# One value per field, in field order; fields of one type never share a value, so that two
# swapped or dropped parameters show.
SAMPLES: dict[type, tuple] = {
    Quantity: (3, 14, Decimal("19.5"), -1, "flops", "19.5 TFLOPS", 5, 9, True, "dense"),
    Draft: ("A100", "fp32", QUANTITY, Decimal("19.5"), -1, Span(0, 40), "PCIe", "~", "tensor",
            "V100", "speedup", "clause"),
    Mention: (3, 7, "A100", "SXM4", 12, True, "cpu"),
    Keyword: (3, 7, "memory_bw", "sparse", frozenset({"bandwidth"})),
    Candidate: (Decimal("19.5"), "SXM4", "boost clock", "datasheet", "high", True, ROW,
                "A100 / V100", Decimal("1.2987")),
}
CLASSES = list(SAMPLES)


def _source_init(cls: type) -> ast.FunctionDef:
    source = PACKAGE.joinpath(*cls.__module__.split(".")[1:]).with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return next(n for n in body.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_own_init_has_the_fields_names_order_and_defaults(cls):
    assert "__init__" in cls.__dict__
    args = _source_init(cls).args
    fields = dataclasses.fields(cls)
    assert [a.arg for a in args.args[1:]] == [f.name for f in fields]
    assert not (args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs)
    defaults = [ast.literal_eval(d) for d in args.defaults]
    declared = [f.default for f in fields if f.default is not dataclasses.MISSING]
    assert all(f.default_factory is dataclasses.MISSING for f in fields)
    assert len(defaults) == len(declared)
    assert all(a == b and type(a) is type(b) for a, b in zip(defaults, declared))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_own_init_keeps_every_value_by_position_and_by_keyword(cls):
    fields = dataclasses.fields(cls)
    values = SAMPLES[cls]
    assert len(values) == len(fields)
    by_position = cls(*values)
    by_keyword = cls(**{f.name: v for f, v in zip(fields, values)})
    for f, v in zip(fields, values):
        assert getattr(by_position, f.name) is v, f.name
        assert getattr(by_keyword, f.name) is v, f.name
    with pytest.raises(TypeError):
        cls(*values, values[0])


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_own_init_fills_the_defaults(cls):
    fields = dataclasses.fields(cls)
    required = [v for f, v in zip(fields, SAMPLES[cls]) if f.default is dataclasses.MISSING]
    made = cls(*required)
    for f in fields:
        if f.default is not dataclasses.MISSING:
            got = getattr(made, f.name)
            assert got == f.default and type(got) is type(f.default), f.name


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_equality_hashing_and_replace_still_hold(cls):
    fields = dataclasses.fields(cls)
    values = SAMPLES[cls]
    a, b = cls(*values), cls(*values)
    assert a == b and hash(a) == hash(b) and a is not b
    last = fields[-1].name
    other = {str: "other", Decimal: Decimal("7"), frozenset: frozenset({"x"})}[type(values[-1])]
    changed = dataclasses.replace(a, **{last: other})
    assert getattr(changed, last) == other and changed != a
    assert [getattr(changed, f.name) for f in fields[:-1]] == list(values[:-1])
