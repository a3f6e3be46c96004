"""Self-contradictions in linear time: the same flags as comparing every pair of claims,
a bounded cell, and a document of generated spec sentences that stays within --timeout."""
from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from collections import defaultdict
from decimal import Decimal
from itertools import combinations
from pathlib import Path

import pytest

from specextract.check.contradictions import LISTED, group_key, mention, self_contradictions
from specextract.check.rows import qualifiers_compatible, variants_compatible
from specextract.check.verdicts import within_tolerance
from specextract.records import Claim

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from hostile_inputs import spec_sentences  # noqa: E402


def pairwise(claims: list[Claim]) -> dict[int, str]:
    """The definition, one pair at a time (the former implementation): every disagreeing
    claim's mention, first mentioned first."""
    groups = defaultdict(list)
    for i, c in enumerate(claims):
        groups[group_key(c)].append(i)
    found = defaultdict(list)
    for members in groups.values():
        for i, j in combinations(members, 2):
            a, b = claims[i], claims[j]
            if not (variants_compatible(a.variant, b.variant)
                    and qualifiers_compatible(a.qualifiers, b.qualifiers)
                    and qualifiers_compatible(b.qualifiers, a.qualifiers)):
                continue
            if not (a.value.is_finite() and b.value.is_finite()):
                continue
            if within_tolerance(a.value, a.precision_exp, a.operator, b.value) or \
                    within_tolerance(b.value, b.precision_exp, b.operator, a.value):
                continue
            found[i].append(mention(b))
            found[j].append(mention(a))
    return {i: "; ".join(dict.fromkeys(t)) for i, t in found.items()}


def random_claims(rng: random.Random, n: int) -> list[Claim]:
    base = rng.choice([19.5, 1000, 2, 0.3, 80])
    out = []
    for _ in range(n):
        v = Decimal(str(round(base * rng.uniform(0.9, 1.1), rng.choice([0, 1, 2, 3]))))
        if rng.random() < 0.15:
            v = Decimal(rng.choice(["1E+3", "2000", "0", "100", "-5", "19.50"]))
        out.append(Claim("d", rng.choice(["A100", "A100", "H100"]), rng.choice(["fp32", "tdp"]),
                         v, f"{v} X", 0, 0, rng.choice(["", "", "SXM", "80GB SXM", "PCIe"]),
                         rng.choice(["=", "=", "=", "~", ">=", "<="]),
                         rng.choice(["", "", "tensor", "sparse"]), "", "",
                         rng.choice([0, 0, -1, 1, 2, 3, -2]), "", ""))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_same_claims_are_flagged_as_comparing_every_pair(seed):
    rng = random.Random(seed)
    for _ in range(300):
        claims = random_claims(rng, rng.randint(2, 12))
        expected, got = pairwise(claims), self_contradictions(claims)
        assert set(got) == set(expected)
        for i, text in got.items():
            if "more" in text:   # capped: what it names is among what the pairs find
                named = text.rsplit("; and ", 1)[0].split("; ")
                assert set(named) <= set(expected[i].split("; "))
            else:
                assert text == expected[i]


def test_a_cell_names_a_few_values_and_counts_the_rest():
    claims = [Claim("d", "A100", "fp32", Decimal(v), f"{v} TFLOPS", 0, 0, "", "=", "", "",
                    "", 0, "", "") for v in range(10, 1010, 10)]
    cells = self_contradictions(claims)
    assert len(cells) == 100
    assert cells[0].count("also says") == LISTED
    assert cells[0].endswith(f"; and {99 - LISTED} more")


def test_a_generated_800_kb_document_stays_within_its_time_and_memory(tmp_path):
    """800 KB of distinct spec sentences: bounded by --timeout 5 (generous safety limits:
    30 s, 500 MB, a claims.csv of a few MB)."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "specs.txt").write_text(spec_sentences(800_000), encoding="utf-8")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "specextract", "run", folder, "--out",
                             tmp_path / "out", "--timeout", "5", "--no-progress"],
                            capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - started
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    assert seconds < 30
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 < 500
    assert (tmp_path / "out" / "claims.csv").stat().st_size < 20e6
    if result.returncode == 1:
        assert "timeout" in result.stdout


def test_checking_counts_against_the_time_limit(tmp_path, monkeypatch):
    """A check that runs past --timeout fails the document as timeout."""
    from batchkit import make_corpus
    from specextract.batch.executors import LocalExecutor
    from specextract.batch.job import run_job
    from specextract.check import checker

    def slow(claims):
        time.sleep(5)
        return {}
    monkeypatch.setattr(checker, "self_contradictions", slow)
    corpus = make_corpus(tmp_path / "in", 1)
    lines: list[str] = []
    status = run_job([str(corpus)], tmp_path / "out", executor=LocalExecutor(),
                     progress=False, echo=lines.append, timeout=0.5)
    assert status == 1
    assert "timeout (still running after 0.5 s)" in "\n".join(lines)


def test_chip_mentions_of_a_spec_dump_are_found_in_linear_time():
    """Thousands of chip names in one document: model names are merged with the lexicon's
    mentions by position, not by comparing each with all (quadratic: 16x for 4x the text)."""
    from test_hostile import _growth
    from specextract.extract.mentions import find_chips
    from specextract.normalize import normalize
    texts = {}

    def make(n: int) -> str:
        if n not in texts:
            texts[n] = normalize(spec_sentences(n * 60)).text
        return texts[n]
    assert _growth(find_chips, make, 1500) < 8
