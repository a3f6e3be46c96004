"""Which reference rows a claim is judged against (codebook, "Which reference rows apply").

- A named variant narrows the rows to that variant ("80GB SXM4" matches "SXM4 80GB"; a word
  that no variant of the chip uses, such as "HBM3", is ignored; a variant the chip does not
  have at all falls back to every variant, with a note; a special edition's does not: it
  is a product of its own, unverifiable until the reference lists it).
- Precision attributes see plain and Tensor rows; tensor / non-tensor / dense / sparse narrow
  them, and when that leaves nothing every row applies and the qualifier is reported wrong.
- ``compute`` sees every precision's rows of the chip.
- Preliminary rows never apply; they are kept apart for the diagnosis.
"""
from __future__ import annotations

from functools import lru_cache

from dataclasses import dataclass

from .reference import Reference, RefRow
from ..codebook import (EDITION_VARIANT, FULL_DIE_VARIANT, PRECISION_ATTRIBUTES,
                        THROUGHPUT_ATTRIBUTES)
from .patterns import VARIANT_GB, VARIANT_TOKEN

COMPUTE = "compute"
COMPUTE_ATTRIBUTES: tuple[str, ...] = tuple(sorted(PRECISION_ATTRIBUTES))
OPPOSITE = {"tensor": "non-tensor", "non-tensor": "tensor", "dense": "sparse", "sparse": "dense"}


@dataclass(frozen=True)
class Selection:
    rows: tuple[RefRow, ...]            # applicable, final figures
    preliminary: tuple[RefRow, ...]     # same chip/variant, preliminary figures
    notes: tuple[str, ...] = ()
    qualifier_wrong: str = ""
    known_chip: bool = True


@lru_cache(maxsize=4096)
def variant_tokens(text: str) -> tuple[str, ...]:
    """'SXM4 80GB' -> ('sxm4', '80gb'); '80 GB' and '80G' -> '80gb'."""
    text = VARIANT_GB.sub(r"\1gb", text.lower())
    return tuple(VARIANT_TOKEN.findall(text))


def token_match(a: str, b: str) -> bool:
    """Equal, or a form-factor word against its numbered form ('sxm' ~ 'sxm4')."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and short.isalpha() and long_.startswith(short)


def variant_filter(variant: str, rows: tuple[RefRow, ...],
                   known: tuple[str, ...]) -> tuple[tuple[RefRow, ...], str]:
    """Rows of the named variant, and a note when the name was not usable."""
    if not variant.strip() or variant == FULL_DIE_VARIANT:   # a die is its chip (codebook)
        return rows, ""
    known_tokens = {t for v in known for t in variant_tokens(v)}
    wanted = [t for t in variant_tokens(variant) if any(token_match(t, k) for k in known_tokens)]
    if not wanted:
        if variant == EDITION_VARIANT:
            return (), f"variant {variant!r}: a product of its own, not in the reference"
        return rows, f"variant {variant!r} not in the reference; judged against every variant"
    keep = tuple(r for r in rows
                 if all(any(token_match(w, t) for t in variant_tokens(r.variant)) for w in wanted))
    return keep, ""


def variants_compatible(a: str, b: str) -> bool:
    """Could two variant names mean the same card (either empty, or one's words in the other)?"""
    ta, tb = variant_tokens(a), variant_tokens(b)
    if not ta or not tb:
        return True
    short, long_ = sorted((ta, tb), key=len)
    return all(any(token_match(s, t) for t in long_) for s in short)


def qualifiers_compatible(row_quals: frozenset[str], wanted: frozenset[str]) -> bool:
    return not any(OPPOSITE[q] in row_quals for q in wanted if q in OPPOSITE)


def attribute_rows(ref: Reference, entity: str, attribute: str) -> tuple[RefRow, ...]:
    if attribute == COMPUTE:
        return tuple(r for a in COMPUTE_ATTRIBUTES for r in ref.lookup(entity, a)
                     if not r.not_supported)
    return ref.lookup(entity, attribute)


SELECT_CACHE_SIZE = 20_000


def select_rows(ref: Reference, entity: str, attribute: str, variant: str = "",
                qualifiers: frozenset[str] = frozenset()) -> Selection:
    """The rows a claim about (entity, attribute, variant, qualifiers) is judged against
    (a Selection is immutable: computed once per table and arguments)."""
    # (unhashable qualifiers, a set, are computed every time)
    return ref.memoized("select_rows", (entity, attribute, variant, qualifiers), _select_rows,
                        ref, entity, attribute, variant, qualifiers, limit=SELECT_CACHE_SIZE)


def _select_rows(ref: Reference, entity: str, attribute: str, variant: str,
                 qualifiers: frozenset[str]) -> Selection:
    if not ref.knows(entity):
        return Selection((), (), (f"unknown chip {entity!r}",), known_chip=False)
    rows, note = variant_filter(variant, attribute_rows(ref, entity, attribute),
                                ref.variants(entity))
    notes = (note,) if note else ()
    final = tuple(r for r in rows if not r.preliminary)
    early = tuple(r for r in rows if r.preliminary)
    wanted = frozenset(q for q in qualifiers if q in OPPOSITE)
    if not wanted or attribute not in THROUGHPUT_ATTRIBUTES or not final:
        return Selection(final, early, notes)
    narrowed = tuple(r for r in final if qualifiers_compatible(r.qualifiers, wanted))
    if narrowed:
        return Selection(narrowed, early, notes)
    if "non-tensor" in wanted:  # a shader-rate figure with no plain row to judge it by
        return Selection((), (), notes + (f"no non-tensor {attribute} row for {entity}",))
    wrong = (f"qualifier wrong: {entity} has no {'/'.join(sorted(wanted))} {attribute} figure; "
             "judged against every row")
    return Selection(final, early, notes + (wrong,), qualifier_wrong=wrong)
