"""No regular expression of the package takes more than linear time.

Every pattern specextract compiles (collected by running the package, see regexkit.py)
is fed its worst cases: long runs of what its loops repeat, with and without what leads
into them, and of single characters it names. Scanning (``finditer``: a match tried at
every position, the way the extractor uses its patterns) must grow linearly: four times
the input may take at most eight times as long (linear: 4, quadratic: 16), measured from
the first size where the scan takes 5 ms. Sizes grow from 400 characters, so that a
catastrophic pattern fails in seconds instead of hanging the suite. Known offenders in
modules this suite does not own are strict xfails naming the pattern (for the lead).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import specextract

from regexkit import as_subject, attack_units, collect_patterns, scan_time

SCREEN = 400            # characters: which inputs are worst for a pattern
START, CAP = 400, 64_000     # quadratic at 64,000 characters would take seconds
MEASURABLE = 0.005      # seconds: below this, timer noise dominates the ratio
GROWTH, MAX_RATIO = 4, 8.0
SLOW_AT_START = 0.25    # seconds for START characters: super-linear beyond doubt

# (module, the pattern's exact source) -> why it is super-linear; for the lead to fix.
KNOWN_SUPERLINEAR: dict[tuple[str, str], str] = {}  # none left; add (module, source): why

PATTERNS = collect_patterns()


def _known(pattern, where: str) -> str | None:
    module = where.split(":")[0]
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    return KNOWN_SUPERLINEAR.get((module, source))


def _params():
    for i, (pattern, where) in enumerate(PATTERNS):
        reason = _known(pattern, where)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(pattern, where, id=f"{where}#{i}", marks=marks)


def growth(pattern, unit: str) -> tuple[float, int, float, float]:
    """(t(GROWTH n) / t(n), n, t(n), t(GROWTH n)) at the first n where the scan is
    measurable (1.0 when it never is, up to CAP characters)."""
    n = START
    t1 = scan_time(pattern, as_subject(pattern, unit, n))
    if t1 > SLOW_AT_START:
        return float("inf"), n, t1, t1
    while t1 < MEASURABLE and n < CAP:
        n *= 2
        t1 = scan_time(pattern, as_subject(pattern, unit, n))
    if t1 < MEASURABLE:
        return 1.0, n, t1, t1
    t2 = scan_time(pattern, as_subject(pattern, unit, GROWTH * n))
    return t2 / t1, n, t1, t2


def test_patterns_were_collected():
    modules = {where.split(":")[0] for _, where in PATTERNS}
    assert len(PATTERNS) > 50
    built_at_run_time = {"extract/quantities", "extract/mentions", "extract/prose",
                         "normalize/text", "normalize/numerals"}
    fixed = {f"{folder}/patterns" for folder in ("check", "extract", "ingest", "normalize",
                                                 "output")}
    assert built_at_run_time | fixed <= modules


def test_only_the_package_own_patterns_are_collected():
    """A checkout in a folder named specextract, with its venv inside, still collects only
    patterns compiled by files of the package itself (not of spaCy, pydantic, rich ...)."""
    package = Path(specextract.__file__).resolve().parent
    own = {path.relative_to(package).with_suffix("").as_posix()
           for path in package.rglob("*.py")}
    assert {where.split(":")[0] for _, where in PATTERNS} <= own


@pytest.mark.parametrize("pattern,where", list(_params()))
def test_pattern_scans_in_linear_time(pattern, where):
    units = attack_units(pattern)
    screened = sorted(units, key=lambda u: scan_time(pattern, as_subject(pattern, u, SCREEN)),
                      reverse=True)[:3]
    for unit in screened:
        ratio, n, t1, t2 = growth(pattern, unit)
        if MAX_RATIO <= ratio < float("inf") and t1 < 0.5:  # noise? measure once more
            ratio = min(ratio, growth(pattern, unit)[0])
        assert ratio < MAX_RATIO, (
            f"{where}: {pattern.pattern[:200]!r} on {unit[:40]!r} x {n // len(unit)}: "
            f"{t1 * 1000:.1f} ms" + ("" if t2 == t1 else
                                     f", {GROWTH} times as long: {t2 * 1000:.1f} ms"))


def test_known_offenders_still_exist():
    """An entry whose pattern the package no longer compiles is stale: remove it."""
    sources = {(where.split(":")[0], p.pattern) for p, where in PATTERNS}
    stale = [key for key in KNOWN_SUPERLINEAR if key not in sources]
    assert not stale, f"fixed or changed, remove from KNOWN_SUPERLINEAR: {stale}"
