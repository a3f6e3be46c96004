"""Command line: ``specextract COMMAND``; a thin shell over the library.

Enters: the command's arguments (files, folders, globs, standard input, a store).
Inside: ``group`` (the group, its error style and help), ``commands`` (normalize, run,
export, extract, check, consensus, store recover), ``evaluate`` (eval), ``reference``
(list, show, coverage, validate), ``inputs`` (standard input, the claims CSV, the CSV
writer).
Leaves: what the library returns, as text, CSV or JSON Lines on standard output or in
files, and an exit status (non-zero when a document failed or the arguments are wrong).
"""
from __future__ import annotations

from . import commands, evaluate, reference  # noqa: F401 - they register the commands
from .group import cli

__all__ = ["cli", "main"]


def main() -> None:
    cli(prog_name="specextract")
