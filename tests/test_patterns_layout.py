"""Fixed patterns live in one place per folder: a folder's patterns.py where it has one
(README: the structural patterns of a stage), else a single module. Patterns built at run
time from the lexicon (an f-string or a variable as the pattern) are not counted."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import specextract

PACKAGE = Path(specextract.__file__).resolve().parent
RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall",
            "finditer"}
# modules whose fixed patterns have not moved yet -> why; remove an entry once moved
NOT_MOVED_YET = {
}


def fixed_pattern_lines(path: Path) -> list[int]:
    """Lines of ``re.<call>(LITERAL, ...)`` (or ``compile_screened(LITERAL, ...)`` and
    ``compile_pattern(LITERAL, ...)``, see regex_screens) in a module: a pattern fixed in
    the code."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        if (isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in RE_CALLS) or (
                    isinstance(node.func, ast.Name)
                    and node.func.id in ("compile_screened", "compile_pattern")):
            first = node.args[0]
            if isinstance(first, ast.Constant) or (
                    isinstance(first, ast.JoinedStr)
                    and all(isinstance(v, ast.Constant) for v in first.values)):
                lines.append(node.lineno)
    return lines


def modules_with_fixed_patterns() -> dict[str, list[str]]:
    """Folder -> its modules that compile fixed patterns (package-relative paths)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name not in NOT_MOVED_YET and fixed_pattern_lines(path):
            found[str(Path(name).parent)].append(name)
    return dict(found)


def test_the_scan_sees_fixed_patterns():
    assert len(fixed_pattern_lines(PACKAGE / "extract" / "patterns.py")) > 50
    assert not fixed_pattern_lines(PACKAGE / "extract" / "quantities.py")


def test_fixed_patterns_are_in_one_module_per_folder():
    found = modules_with_fixed_patterns()
    assert {"check", "extract", "ingest", "normalize", "output"} <= set(found)
    for folder, modules in found.items():
        has_patterns = (PACKAGE / folder / "patterns.py").exists()
        expected = [f"{folder}/patterns.py"] if has_patterns else modules[:1]
        assert modules == expected, f"{folder}: fixed patterns in {modules}"


def test_modules_not_moved_yet_still_hold_patterns():
    """An entry whose module no longer compiles fixed patterns is stale: remove it."""
    stale = [name for name in NOT_MOVED_YET if not fixed_pattern_lines(PACKAGE / name)]
    assert not stale, f"patterns moved, remove from NOT_MOVED_YET: {stale}"
