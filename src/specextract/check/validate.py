"""Every problem of a reference table, each with its line and column (``reference validate``).

``load_reference`` stops at the first problem; ``table_problems`` reads the whole file and
lists them all, so a table can be fixed in one pass:

    for p in table_problems("my_specs.csv"):
        print(p)        # my_specs.csv, row 7, column attribute: unknown attribute 'memroy' ...
"""
from __future__ import annotations

from typing import Any
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataFileError
from .reference import (
    SPECS_COLUMNS, _duplicate_problem, _read_bytes, _read_frame, attribute_specs, load_reference,
    with_hint,
)
from .names import table_attribute
from .rules import row_problem

# a problem's first words -> the column it is about
PROBLEM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("empty row", ""), ("empty ", ""), ("unknown attribute", "attribute"),
    ("unknown unit", "unit"), ("unit ", "unit"), ("value ", "value"), ("text value", "value"),
    ("confidence", "confidence"), ("condition", "condition"), ("Tensor row's condition", "condition"),
    ("contradicts line", "value"),
)


@dataclass(frozen=True)
class Problem:
    path: str
    line: int | None
    column: str
    message: str

    def __str__(self) -> str:
        where = self.path + (f", row {self.line}" if self.line is not None else "")
        return where + (f", column {self.column}" if self.column else "") + f": {self.message}"


def problem_column(message: str) -> str:
    """The column a row problem is about ("empty source" -> "source")."""
    for head, column in PROBLEM_COLUMNS:
        if message.startswith(head):
            return column or (message.split()[1] if head == "empty " else "")
    return ""


def table_problems(path: str | Path) -> list[Problem]:
    """Every problem of specs.csv at ``path`` (a file or the folder holding it), in file
    order; a file that cannot be read as the table's CSV gives that one problem. When the
    rows are all sound, the load itself (marketing ratios included) is checked too."""
    specs = Path(path)
    if specs.is_dir():
        specs = specs / "specs.csv"
    try:
        records = _read_frame(_read_bytes(specs), specs, SPECS_COLUMNS)
    except DataFileError as exc:
        return [Problem(exc.path, exc.row, "", exc.problem)]
    groups = attribute_specs()
    units = frozenset(u for group in groups.values() for s in group for u in s.units)
    problems: list = []
    seen: dict[tuple, Any] = {}
    for index, raw in enumerate(records):
        line = index + 2
        raw = {**raw, "attribute": table_attribute(raw["attribute"])}
        message = (row_problem(raw, groups.get(raw["attribute"], ()), units)
                   or _duplicate_problem(raw, line, seen))
        if message:
            problems.append(Problem(str(specs), line, problem_column(message),
                                    with_hint(message, raw)))
    if not problems:
        try:
            load_reference(specs)
        except DataFileError as exc:
            problems.append(Problem(exc.path, exc.row, "", exc.problem))
    return problems
