"""reference coverage: what the table lacks for a corpus, counted as the checker sees it."""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from batchkit import run_cli
from specextract import check
from specextract.check.coverage import coverage, render
from specextract.records import Claim

ROOT = Path(__file__).resolve().parents[1]


def claim(entity, attribute, value, baseline="", metric=""):
    return Claim(doc_id="d", entity=entity, attribute=attribute, value=Decimal(value),
                 surface=value, start=0, end=len(value), baseline=baseline, metric=metric)


def test_gaps_are_counted_by_what_the_table_lacks():
    checked = check([claim("Zeta 9", "fp32", "50"), claim("Zeta 9", "tdp", "300"),
                     claim("A100", "fp32", "19.5"),                     # judged: no gap
                     claim("A100", "mig_instances", "7"),               # has rows
                     claim("TPU v4", "die_area", "600"),                # a chip without that row
                     claim("K80", "speedup", "3", baseline="Dojo D1")])  # no ratio, no metric
    cov = coverage(checked)
    assert cov.claims == 6
    assert cov.chips == {"Zeta 9": 2}
    assert cov.attributes == {("TPU v4", "die_area"): 1}
    assert cov.ratios == {("K80", "Dojo D1", ""): 1}
    text = "\n".join(render(cov))
    assert text.startswith("4 of 6 claims unverifiable") and "Zeta 9" in text


def test_the_bundled_corpus_names_no_chip_the_table_lacks():
    result = run_cli("reference", "coverage", ROOT / "corpus", "--json")
    assert result.exit_code == 0, result.output
    gaps = json.loads(result.output)
    assert gaps["claims"] > 1000
    assert gaps["chips"] == {}, f"chips with no reference rows: {gaps['chips']}"


def test_coverage_on_the_cli_reads_files_and_folders(tmp_path):
    (tmp_path / "a.txt").write_text("Zeta 9 加速卡的 FP32 算力为 50 TFLOPS。", encoding="utf-8")
    result = run_cli("reference", "coverage", tmp_path / "a.txt")
    assert result.exit_code == 0, result.output
    assert "chips the table lacks: " in result.output
