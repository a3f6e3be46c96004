"""The command line from the user's side (issue 14): help, errors, standard input, the end
of ``run``, ``reference list / show / validate``."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from batchkit import make_corpus, run_cli
from specextract.cli import cli

ROOT = Path(__file__).resolve().parents[1]
ARTICLE = "NVIDIA A100 的 FP32 为 15 TFLOPS，FP64 为 97 TFLOPS。\n"


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=stdin)


def every_command(group: click.Group = cli, path: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from every_command(command, path + (name,))


@pytest.mark.parametrize("path,command", list(every_command()),
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_every_help_is_complete_and_uncut(path, command):
    result = invoke(*path, "--help")
    cut = [l for l in result.output.splitlines()
           if l.rstrip().endswith("...") and not l.startswith("Usage:")]
    assert result.exit_code == 0 and not cut, result.output
    assert command.help and "Example:" in result.output or isinstance(command, click.Group)
    for param in command.params:
        if isinstance(param, click.Option) and param.name not in ("help", "version"):
            assert param.help, f"{' '.join(path)} {param.opts} has no help"
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            first = sub.help.split("\n\n")[0].split(".")[0].split()[-1]
            assert first in result.output, (name, first)


def test_top_help_lists_whole_first_sentences():
    out = invoke("--help").output
    assert "claims.csv and a report." in out and "as codebook CSV rows." in " ".join(out.split())


@pytest.mark.parametrize("args,code", [
    (("export", "--db", "x.db", "--verdict", "wrong"), 2),
    (("export", "--db", "nope.db"), 2),
    (("nosuch",), 2),
    (("run",), 2),
    (("run", "-"), 2),
    (("check", "missing.csv"), 1),
    (("reference", "show", "H1OO"), 1),
    (("normalize", "missing.txt"), 1),
])
def test_one_error_style(args, code, tmp_path):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("specextract: error: "), result.output
    assert "Traceback" not in result.output and "Usage:" not in result.output


def test_did_you_mean_a_chip():
    assert "did you mean H100?" in invoke("reference", "show", "H1OO").output


def test_dash_reads_standard_input():
    normalized = invoke("normalize", "-", stdin=ARTICLE)
    assert normalized.exit_code == 0 and "A100" in normalized.output
    extracted = invoke("extract", "-", stdin=ARTICLE)
    assert extracted.exit_code == 0 and ",A100,,fp32,15," in extracted.output
    checked = invoke("check", "-", stdin=extracted.output)
    assert checked.exit_code == 0 and "contradicted" in checked.output
    assert ",clause," in checked.output or ",possessive," in checked.output   # link kept
    bad = invoke("check", "-", stdin="doc_id,entity\nx,y\n")
    assert bad.exit_code == 1 and bad.output.startswith("specextract: error: <stdin>, row 1")


def test_check_output_has_one_writer(tmp_path):
    target = tmp_path / "checked.csv"
    extracted = invoke("extract", "-", stdin=ARTICLE).output
    assert invoke("check", "-", "-o", target, stdin=extracted).exit_code == 0
    assert target.read_text(encoding="utf-8") == invoke("check", "-", stdin=extracted).output


def test_dash_output_is_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where a file named "-" would land
    extracted = invoke("extract", "-", stdin=ARTICLE).output
    assert invoke("extract", "-", "-o", "-", stdin=ARTICLE).output == extracted
    assert invoke("check", "-", "-o", "-", stdin=extracted).output == \
        invoke("check", "-", stdin=extracted).output
    run_cli("run", make_corpus(tmp_path / "corpus", 2), "--out", tmp_path / "out")
    db = tmp_path / "out" / "specextract.db"
    exported = invoke("export", "--db", db, "-o", "-")
    assert exported.exit_code == 0 and exported.output == invoke("export", "--db", db).output
    assert invoke("export", "--db", db, "--format", "parquet", "-o", "-").exit_code == 2
    assert not (tmp_path / "-").exists()


def test_run_ends_with_the_worst_figures_and_the_export_command(tmp_path):
    corpus = make_corpus(tmp_path / "corpus", 3)
    (corpus / "wrong.txt").write_text(ARTICLE, encoding="utf-8")
    result = run_cli("run", corpus, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    tail = result.output.splitlines()
    start = next(i for i, l in enumerate(tail) if l.startswith("worst of "))
    figures = tail[start + 1:-1]
    assert 0 < len(figures) <= 5
    assert "  A100 fp64 97 TFLOPS → 9.7 (magnitude: 10x too large)" in figures
    assert any(l.startswith("  A100 fp32 15 TFLOPS → 19.5 (misattributed: V100's)")
               for l in figures), figures
    db = tmp_path / "out" / "specextract.db"
    assert tail[-1] == (f"all of them: specextract export --db {db} --verdict contradicted "
                        "-o wrong.csv")
    exported = run_cli("export", "--db", db, "--verdict", "contradicted")
    total = int(tail[start].split()[2])
    assert len(exported.stdout.splitlines()) - 1 == total


def test_reference_list_names_chips_variants_and_rows():
    result = invoke("reference", "list")
    assert result.exit_code == 0
    a100 = next(l for l in result.output.splitlines() if l.startswith("A100 "))
    assert "NVIDIA A100" in a100 and "80GB SXM4" in a100 and "40GB PCIe" in a100
    assert int(a100.split()[3]) > 10
    assert result.output.splitlines()[-1].endswith("rows")


@pytest.mark.parametrize("name", ["H100", "NVIDIA H100", "nvidia  h100", "Hopper H100"])
def test_reference_show_accepts_full_names_and_aliases(name):
    result = invoke("reference", "show", name, "--attribute", "memory_size")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "H100 (NVIDIA H100)"
    assert lines[1].split()[:1] == ["attribute"] and "SXM5 80GB" in lines[1]   # variants as columns
    assert lines[2].startswith("memory_size") and "80 GB [" in lines[2]
    assert "sources:" in lines and any(l.startswith("[1] http") for l in lines)


def test_reference_show_chinese_alias_and_table_attribute_name():
    by_alias = invoke("reference", "show", "昇腾910B")
    assert by_alias.exit_code == 0 and by_alias.output.startswith("Ascend 910B (Huawei Ascend 910B)")
    table_name = invoke("reference", "show", "A100", "--attribute", "memory_capacity").output
    assert table_name == invoke("reference", "show", "A100", "--attribute", "memory_size").output
    wrong = invoke("reference", "show", "A100", "--attribute", "memroy_size")
    assert wrong.exit_code == 2 and "did you mean 'memory_size'?" in wrong.output


BAD_TABLE = """chip,variant,attribute,value,unit,condition,source,confidence
NVIDIA X1,,memroy_size,80,GB,,https://example.org,high
NVIDIA X1,,memory_size,80,GB,,https://example.org,high
NVIDIA X1,,tdp,300,W,,,high
NVIDIA X1,,tdp,300,W,,https://example.org,great
NVIDIA X1,,transistors,54200000000,count,,https://example.org,high
"""


def test_reference_validate_reports_every_problem_with_row_and_column(tmp_path):
    path = tmp_path / "specs.csv"
    path.write_text(BAD_TABLE, encoding="utf-8")
    result = invoke("reference", "validate", path)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[:3] == [
        f"{path}, row 2, column attribute: unknown attribute 'memroy_size' (not in "
        "reference_attributes.tsv); did you mean 'memory_size'?",
        f"{path}, row 4, column source: empty source",
        f"{path}, row 5, column confidence: confidence 'great' is not high, medium or low"]
    assert lines[3] == f"specextract: error: 3 problem(s) in {path}"
    piped = invoke("reference", "validate", "-", stdin=BAD_TABLE)
    assert piped.output.splitlines()[0].startswith("<stdin>, row 2, column attribute")


def test_reference_tables_accept_the_codebooks_attribute_names(tmp_path):
    from specextract import load_reference
    path = tmp_path / "specs.csv"
    path.write_text("\n".join(BAD_TABLE.splitlines()[i] for i in (0, 2, 5)) + "\n", encoding="utf-8")
    assert invoke("reference", "validate", path).output.startswith("ok: 2 rows")
    ref = load_reference(path)
    assert {r.attribute for r in ref.lookup("X1", "memory_size")} == {"memory_size"}
    assert [r.value for r in ref.lookup("X1", "transistors")] == [54200000000]


@pytest.mark.slow
def test_install_shows_no_deprecation_warnings(tmp_path):
    """Building the package from pyproject.toml warns about nothing deprecated."""
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w",
                          str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "deprecat" not in (out.stdout + out.stderr).lower()
