"""Command line: ``specextract COMMAND``; a thin shell over the library.

``group`` (the group, its error style and help), ``commands`` (normalize, run, export,
extract, check, consensus, store recover), ``evaluate`` (eval), ``reference`` (list, show,
validate), ``inputs`` (standard input, the claims CSV, the CSV writer).
"""
from __future__ import annotations

from . import commands, evaluate, reference  # noqa: F401 - they register the commands
from .group import cli

__all__ = ["cli", "main"]


def main() -> None:
    cli(prog_name="specextract")
