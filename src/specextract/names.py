"""File names as text a person can read safely: control characters (a newline, an
escape sequence) and invisible format characters (bidi overrides that reorder what is
shown) spelled out as backslash escapes.

    printable("a\\u202egpj.txt") -> "a\\\\u202egpj.txt"
"""
from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every non-printable character written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
