"""A user's rows on top of the bundled reference table (--reference-extra)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from specextract import check
from specextract.check.reference import ReferenceTableError, load_reference
from specextract.records import Claim

HEADER = "chip,variant,attribute,value,unit,condition,source,confidence\n"


def claim(entity, attribute, value, exp=0):
    return Claim(doc_id="d", entity=entity, attribute=attribute, value=Decimal(value),
                 surface=value, start=0, end=len(value), precision_exp=exp)


def write(path, rows: str):
    path.write_text(HEADER + rows, encoding="utf-8")
    return path


def test_overlay_rows_win_where_they_overlap_and_say_so(tmp_path):
    base = load_reference()
    [before] = check([claim("A100", "tdp", "999")], base)
    assert before.verdict == "contradicted"
    mine = write(tmp_path / "my_rows.csv",
                 "NVIDIA A100,80GB SXM4,tdp,999,W,,Vendor brief 2026 (https://example.org/a100),high\n"
                 "Zeta Z9,OAM 64GB,fp32,50,TFLOPS,,Zeta Z9 datasheet (https://example.org/z9),high\n")
    ref = load_reference(extras=[mine])
    assert ref.extras == (str(mine),) and ref.version != base.version
    [a100, z9] = check([claim("A100", "tdp", "999"), claim("Zeta Z9", "fp32", "50")], ref)
    assert a100.verdict == "supported" and "[overlay: my_rows.csv]" in a100.source
    assert z9.verdict == "supported" and "[overlay: my_rows.csv]" in z9.source
    tdp_rows = [r for r in ref.lookup("A100", "tdp") if r.variant == "80GB SXM4"]
    assert [r.value for r in tdp_rows] == [Decimal("999")]          # the bundled 400 W is hidden
    assert any(r.variant == "40GB PCIe" for r in ref.lookup("A100", "tdp"))  # others stay
    [other] = check([claim("H100", "fp32", "67")], ref)
    assert other.verdict == "supported" and "overlay" not in other.source


def test_overlays_stack_in_order(tmp_path):
    first = write(tmp_path / "first.csv", "Zeta Z9,OAM 64GB,fp32,50,TFLOPS,,Z9 brief (https://example.org/1),high\n")
    second = write(tmp_path / "second.csv", "Zeta Z9,OAM 64GB,fp32,55,TFLOPS,,Z9 datasheet (https://example.org/2),high\n")
    ref = load_reference(extras=[first, second])
    assert [r.value for r in ref.lookup("Zeta Z9", "fp32")] == [Decimal("55")]


def test_a_malformed_overlay_names_its_file_and_row(tmp_path):
    bad = write(tmp_path / "bad.csv", "Zeta Z9,OAM 64GB,fp32,fast,TFLOPS,,Z9 brief,high\n")
    with pytest.raises(ReferenceTableError, match=r"bad\.csv.*2"):
        load_reference(extras=[bad])


@pytest.mark.parametrize("workers", [0, 2])
def test_a_batch_run_checks_against_the_overlay_in_every_process(tmp_path, workers):
    from specextract.batch.executors import LocalExecutor, PoolExecutor
    from specextract.batch.job import run_job
    import csv
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(4):
        (corpus / f"a{i}.txt").write_text("NVIDIA A100 的功耗为 999W。\n", encoding="utf-8")
    mine = write(tmp_path / "my_rows.csv",
                 "NVIDIA A100,,tdp,999,W,,Vendor brief 2026 (https://example.org/a100),high\n")
    executor = PoolExecutor(workers) if workers else LocalExecutor()
    code = run_job([str(corpus)], tmp_path / "out", executor=executor, progress=False,
                   echo=lambda s: None, reference_extra=[str(mine)])
    assert code == 0
    rows = list(csv.DictReader((tmp_path / "out" / "claims.csv").open(encoding="utf-8")))
    assert len(rows) == 4 and {r["verdict"] for r in rows} == {"supported"}
    assert all("[overlay: my_rows.csv]" in r["source"] for r in rows)


def test_reference_extra_on_the_cli(tmp_path):
    import csv
    from batchkit import run_cli
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("NVIDIA A100 的功耗为 999W。\n", encoding="utf-8")
    mine = write(tmp_path / "my_rows.csv",
                 "NVIDIA A100,,tdp,999,W,,Vendor brief 2026 (https://example.org/a100),high\n")
    assert run_cli("run", corpus, "--out", tmp_path / "plain", "--no-progress").exit_code == 0
    result = run_cli("run", corpus, "--out", tmp_path / "out", "--no-progress",
                     "--reference-extra", mine)
    assert result.exit_code == 0, result.output
    plain = list(csv.DictReader((tmp_path / "plain" / "claims.csv").open(encoding="utf-8")))
    [row] = list(csv.DictReader((tmp_path / "out" / "claims.csv").open(encoding="utf-8")))
    assert plain[0]["verdict"] == "contradicted"
    assert row["verdict"] == "supported" and "[overlay: my_rows.csv]" in row["source"]
    shown = run_cli("reference", "show", "A100", "--attribute", "tdp", "--reference-extra", mine)
    assert "999" in shown.output and "overlay: my_rows.csv" in shown.output
    bad = write(tmp_path / "bad.csv", "NVIDIA A100,,tdp,lots,W,,brief,high\n")
    failed = run_cli("run", corpus, "--out", tmp_path / "bad_out", "--reference-extra", bad)
    assert failed.exit_code == 2 and "bad.csv" in failed.output
