"""Reference tables: figures that are not positive finite numbers are refused with row and
column; a specs.csv given alone is judged with the bundled marketing ratios, and the run
says which tables judged."""
from __future__ import annotations

import shutil

import pytest

from batchkit import make_corpus, run_cli
from specextract.check.reference import load_reference
from specextract.errors import DataFileError
from specextract.lexicon.files import data_path

HEADER = "chip,variant,attribute,value,unit,condition,source,confidence\n"
ROW = 'NVIDIA A100,80GB SXM4,fp32,{},TFLOPS,non-tensor,https://example.org/a,high\n'
BAD = {"negative": "-19.5", "zero": "0", "huge-exponent": "1e400",
       "5000-digits": "9" * 5000, "underscore": "1_9.5", "full-width": "\uff11\uff19.\uff15",
       "arabic-indic": "\u0661\u0669.\u0665", "infinity": "Infinity", "plus": "+19.5"}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_figure_that_is_not_a_positive_number_is_refused(tmp_path, case):
    path = tmp_path / "specs.csv"
    path.write_text(HEADER + ROW.format("19.5").replace("fp32", "fp64") + ROW.format(BAD[case]),
                    encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_reference(path)
    assert info.value.row == 3
    assert info.value.problem.startswith("value ")
    result = run_cli("reference", "validate", path)
    assert result.exit_code == 1
    assert f"{path}, row 3, column value: value " in result.output


@pytest.mark.parametrize("value", ["19.5", "1,979", "208000000000", "0.3"])
def test_plain_figures_are_accepted(tmp_path, value):
    path = tmp_path / "specs.csv"
    path.write_text(HEADER + ROW.format(f'"{value}"'), encoding="utf-8")
    assert len(load_reference(path).rows) >= 1


def test_a_zero_count_is_a_figure(tmp_path):
    """The bundled table says the A100 has 0 RT cores: zero is allowed for counts."""
    path = tmp_path / "specs.csv"
    path.write_text(HEADER + "NVIDIA A100,80GB SXM4,rt_cores,0,count,,https://example.org/a,"
                    "high\n", encoding="utf-8")
    load_reference(path)


def test_a_copy_of_the_bundled_specs_judges_alike(tmp_path):
    copy = tmp_path / "mine" / "specs.csv"
    copy.parent.mkdir()
    shutil.copy(data_path("reference/specs.csv"), copy)
    ref = load_reference(copy)
    bundled = load_reference()
    assert ref.ratios_version == bundled.ratios_version and ref.marketing
    corpus = make_corpus(tmp_path / "in", 3)
    a = run_cli("run", corpus, "--out", tmp_path / "a", "--no-progress")
    b = run_cli("run", corpus, "--out", tmp_path / "b", "--no-progress", "--reference", copy)
    assert a.exit_code == b.exit_code == 0
    assert (tmp_path / "a" / "claims.csv").read_bytes() == (tmp_path / "b" / "claims.csv").read_bytes()
    assert f"reference: {copy}; marketing ratios: " in b.output
    assert "(bundled)" in b.output


def test_ratios_beside_the_table_are_used(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(data_path("reference/specs.csv"), folder / "specs.csv")
    (folder / "marketing_ratios.csv").write_text("subject,baseline,ratio,condition,source\n",
                                                 encoding="utf-8")
    ref = load_reference(folder / "specs.csv")
    assert ref.marketing == () and ref.ratios_path == str(folder / "marketing_ratios.csv")
    result = run_cli("reference", "validate", folder / "specs.csv")
    assert f"marketing ratios: {folder / 'marketing_ratios.csv'}\n" in result.output
