"""What a lexicon has built, found from compiled code without a call into the Lexicon class.

``Lexicon`` stays a Python class (users may subclass it), so each ``lex.built(...)`` from a
compiled module runs a Python frame; the per-figure rules ask for the same few patterns
hundreds of times per document. :func:`built` looks in the lexicon's ``made`` table
first and calls ``Lexicon.built`` only for what is not made yet.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .lexicon import Lexicon


def built(lex: Lexicon, build: Callable[..., Any], *args: Any) -> Any:
    """``lex.built(build, *args)``: the same object, found in ``lex.made`` once made."""
    found = lex.made.get((build, *args))
    return found if found is not None else lex.built(build, *args)
