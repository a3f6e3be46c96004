"""The user's names for chips and attributes, resolved to the reference table's.

    resolve_chip("昇腾910B", ref)       # -> "Ascend 910B" (full names, aliases, any script)
    table_attribute("memory_size")      # -> "memory_capacity" (codebook name -> table name)
    closest_attribute("memroy_size")    # -> "memory_size" (for "did you mean")

One attribute vocabulary from the user's side: wherever the table's own attribute names
are read (specs.csv, the CLI), the codebook's names are accepted too, when a codebook name
stands for exactly one of the table's attributes.
"""
from __future__ import annotations

import difflib
from functools import lru_cache

from ..codebook import ATTRIBUTES
from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .rules import entity_key


@lru_cache(maxsize=4)
def _attribute_aliases(lexicon: Lexicon) -> dict[str, str]:
    table: dict[str, set[str]] = {}
    own = set()
    for r in lexicon.rows("reference_attributes.tsv"):
        own.add(r["reference_attribute"])
        if r["codebook_attribute"]:
            table.setdefault(r["codebook_attribute"], set()).add(r["reference_attribute"])
    return {name: next(iter(refs)) for name, refs in table.items()
            if name not in own and len(refs) == 1}


def table_attribute(name: str, lexicon: Lexicon | None = None) -> str:
    """The table's attribute a name stands for: the table's own names as they are, a
    codebook name for the one table attribute it answers ("memory_size" -> "memory_capacity");
    anything else unchanged (and rejected where it is checked)."""
    return _attribute_aliases(lexicon_or_default(lexicon)).get(name, name)


def attribute_names(lexicon: Lexicon | None = None) -> list[str]:
    """Every accepted attribute name: the table's own, then the codebook's."""
    lexicon = lexicon_or_default(lexicon)
    own = [r["reference_attribute"] for r in lexicon.rows("reference_attributes.tsv")]
    return list(dict.fromkeys(own + list(ATTRIBUTES)))


def closest_attribute(name: str, lexicon: Lexicon | None = None) -> str | None:
    """The accepted attribute name most like ``name`` ("memroy_size" -> "memory_size")."""
    found = difflib.get_close_matches(name.strip().lower(), attribute_names(lexicon), n=1,
                                      cutoff=0.6)
    return found[0] if found else None


def resolve_chip(name: str, entities, lexicon: Lexicon | None = None) -> str | None:
    """The reference entity ``name`` means, among ``entities`` (codebook names such as
    "H100"): the entity itself, a full name ("NVIDIA H100"), or any alias the extractor
    knows ("昇腾910B", "輝達 V100", "RTX4090"); None when none of them."""
    by_key = {entity_key(e): e for e in entities}
    if entity_key(name) in by_key:
        return by_key[entity_key(name)]
    from ..extract.mentions import find_chips
    from ..normalize.text import normalize
    for mention in find_chips(normalize(name).text, lexicon_or_default(lexicon)):
        if entity_key(mention.entity) in by_key:
            return by_key[entity_key(mention.entity)]
    return None


def closest_chips(name: str, entities, n: int = 3) -> list[str]:
    """Reference entities spelled most like ``name`` (for "did you mean")."""
    keys = {entity_key(e): e for e in entities}
    return [keys[k] for k in difflib.get_close_matches(entity_key(name), list(keys), n=n,
                                                       cutoff=0.5)]
