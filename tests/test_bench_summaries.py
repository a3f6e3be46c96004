"""The benchmark's pure summaries: sampling profiles (bench/sampling.py), their before/after
table (bench/profile_diff.py) and the ratios and verdicts of bench/bench.py's Targets."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench  # noqa: E402
import profile_diff  # noqa: E402
import sampling  # noqa: E402

FOLDED = """\
main (specextract/cli/__init__.py:15);run (specextract/batch/run.py:40);walk (specextract/extract/prose.py:10);walk (specextract/extract/prose.py:10) 6
main (specextract/cli/__init__.py:15);run (specextract/batch/run.py:40) 3
main (specextract/cli/__init__.py:15);_compile (/usr/lib/python3.11/site-packages/regex/regex.py:449) 1
 2
"""


def test_frame_key_splits_function_file_and_line():
    assert sampling.frame_key("Sentence.link (specextract/extract/prose.py:30)") == (
        "Sentence.link", "specextract/extract/prose.py:30")
    assert sampling.frame_key("_run_code (<frozen runpy>:65)") == ("_run_code", "<frozen runpy>:65")
    assert sampling.frame_key("f (/work/x/src/specextract/a.py:3)") == ("f", "specextract/a.py:3")
    assert sampling.frame_key("f (a.py)") == ("f", "a.py")
    assert sampling.frame_key("bare") == ("bare", "")


def test_parse_folded_keeps_counts_and_frameless_samples():
    stacks = sampling.parse_folded(FOLDED + "no count here\n")
    assert [n for _, n in stacks] == [6, 3, 1, 2]
    assert len(stacks[0][0]) == 4 and stacks[3][0] == []


def test_summarize_folded_counts_self_and_inclusive_once_per_sample():
    s = sampling.summarize_folded(FOLDED)
    assert s["total"] == 12
    self_ = {(r["function"], r["file"]): r["count"] for r in s["self"]}
    incl = {(r["function"], r["file"]): r["count"] for r in s["inclusive"]}
    walk = ("walk", "specextract/extract/prose.py:10")
    assert self_[walk] == 6 and incl[walk] == 6          # recursive frame counted once
    assert self_[("run", "specextract/batch/run.py:40")] == 3
    assert incl[("run", "specextract/batch/run.py:40")] == 9
    assert incl[("main", "specextract/cli/__init__.py:15")] == 10
    assert self_[("_compile", "regex/regex.py:449")] == 1
    assert self_[sampling.NO_FRAME] == 2
    assert s["self"][0]["function"] == "walk" and s["self"][0]["share"] == 0.5
    assert [r["count"] for r in s["inclusive"]] == sorted(
        (r["count"] for r in s["inclusive"]), reverse=True)


def test_summarize_folded_keeps_the_largest():
    s = sampling.summarize_folded(FOLDED, keep=2)
    assert [r["function"] for r in s["self"]] == ["walk", "run"]


MODULES = ["specextract.rows", "specextract.check.rows", "specextract.extract.claims",
           "specextract.extract.figurelinks", "specextract.lexicon.trie"]
NATIVE = """\
main (specextract/cli/__init__.py:15);CPyPy_claims___find_all (__native_x.c:10);CPyDef_claims___find_all (__native_x.c:20);sre_ucs2_match (libpython3.11.so.1.0) 4
main (specextract/cli/__init__.py:15);CPyDef_claims___find_all (__native_x.c:20);CPyDef_figurelinks___FigureLinks____figure (__native_x.c:30);Py_DECREF (object.h:537) 3
main (specextract/cli/__init__.py:15);CPyDef_trie___scan_gen_____mypyc_generator_helper__ (__native_x.c:40) 2
main (specextract/cli/__init__.py:15);put (specextract/store/db.py:9);sqlite3VdbeExec (libsqlite3.so.0) 1
0x7f00 (libc.so.6);gc_collect_main (libpython3.11.so.1.0) 1
"""


def test_compiled_prefixes_are_the_shortest_suffix_no_other_module_shares():
    prefixes = sampling.compiled_prefixes(MODULES)
    assert prefixes["claims___"] == "specextract/extract/claims.py"
    assert prefixes["specextract___rows___"] == "specextract/rows.py"
    assert prefixes["check___rows___"] == "specextract/check/rows.py"
    assert len(prefixes) == len(MODULES)


def test_compiled_function_names_methods_generators_and_unknown_symbols():
    prefixes = sampling.compiled_prefixes(MODULES)
    assert sampling.compiled_function("CPyDef_figurelinks___FigureLinks____figure", prefixes) == (
        "FigureLinks._figure", "specextract/extract/figurelinks.py (compiled)")
    assert sampling.compiled_function("CPyDef_specextract___rows___claim_to_row", prefixes) == (
        "claim_to_row", "specextract/rows.py (compiled)")
    assert sampling.compiled_function("CPyDef_trie___scan_gen_____mypyc_generator_helper__",
                                      prefixes) == ("scan (generator)",
                                                    "specextract/lexicon/trie.py (compiled)")
    assert sampling.compiled_function("CPyDef_other___f", prefixes) == ("CPyDef_other___f",
                                                                          "(compiled)")


def test_native_frames_fold_into_the_code_that_called_them():
    s = sampling.summarize_folded(NATIVE, compiled=MODULES)
    assert s["total"] == 11
    self_ = {(r["function"], r["file"]): r["count"] for r in s["self"]}
    incl = {(r["function"], r["file"]): r["count"] for r in s["inclusive"]}
    find_all = ("find_all", "specextract/extract/claims.py (compiled)")
    assert self_[find_all] == 4 and incl[find_all] == 7   # its wrapper is the same frame
    assert self_[("FigureLinks._figure", "specextract/extract/figurelinks.py (compiled)")] == 3
    assert self_[("scan (generator)", "specextract/lexicon/trie.py (compiled)")] == 2
    assert self_[("put", "specextract/store/db.py:9")] == 1
    assert self_[sampling.NO_FRAME] == 1                   # C frames only
    assert not any(f.startswith(("CPy", "sre_", "Py_")) for f, _ in incl)
    native = {r["what"]: r["count"] for r in s["native"]}
    assert native == {"regular expressions": 4, "SQLite": 1, "garbage collector": 1,
                      "Python runtime (objects, reference counts, dicts, strings)": 3}


def test_a_profile_without_c_frames_has_no_native_table():
    assert "native" not in sampling.summarize_folded(FOLDED)


def test_summarize_pstats_uses_self_and_cumulative_time():
    stats = {("/r/src/specextract/a.py", 5, "f"): (1, 1, 0.5, 2.0, {}),
             ("/r/src/specextract/a.py", 9, "g"): (3, 3, 1.5, 1.5, {}),
             ("~", 0, "<method 'disable' of '_lsprof.Profiler' objects>"): (1, 1, 9.0, 9.0, {})}
    s = sampling.summarize_pstats(stats)
    assert s["unit"] == "seconds" and s["total"] == 2.0
    assert [(r["function"], r["file"], r["count"]) for r in s["self"]] == [
        ("g", "specextract/a.py:9", 1.5), ("f", "specextract/a.py:5", 0.5)]
    assert s["inclusive"][0]["function"] == "f" and s["inclusive"][0]["share"] == 1.0


def summary(**shares: float) -> dict:
    rows = [{"function": f, "file": "m.py:1", "count": v, "share": v}
            for f, v in sorted(shares.items(), key=lambda kv: -kv[1])]
    return {"unit": "samples", "total": 1, "rate": 1, "bytes": 1e6, "tool": "t",
            "self": rows, "inclusive": rows}


def test_side_by_side_lists_the_top_of_either_run():
    old, new = summary(a=0.5, b=0.3, c=0.1), summary(b=0.6, d=0.2)
    rows = sampling.side_by_side(old, new, "self", 2)
    assert [(r["function"], r["before"], r["after"]) for r in rows] == [
        ("b", 0.3, 0.6), ("a", 0.5, None), ("d", None, 0.2)]


def test_profile_diff_reads_results_json(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"sampling_profile": summary(a=0.5, b=0.25)}))
    new.write_text(json.dumps(summary(a=0.25)))
    text = "\n".join(profile_diff.diff_tables(profile_diff.load_summary(old),
                                              profile_diff.load_summary(new), 5))
    assert "| `a` | m.py:1 | 50.0% | 25.0% | 0.500 | 0.250 |" in text
    assert "| `b` | m.py:1 | 25.0% | - | 0.250 | - |" in text


def result_with(pipeline_s: float, opencc_s: float, wall_s: float, nbytes: int = 2_000_000):
    return {"labels": ["1k", "10k"], "corpora": {"1k": {"bytes": nbytes}},
            "stages": {"bytes": nbytes, "pipeline_s": pipeline_s,
                       "stages": {"opencc_t2s": {"seconds": opencc_s}}},
            "throughput": {"1k": {"1 process": {"valid": True, "median_wall_s": wall_s}}}}


def test_opencc_ratios_are_time_per_byte_over_opencc_time_per_byte():
    ratios = bench.opencc_ratios(result_with(pipeline_s=3.0, opencc_s=0.2, wall_s=5.0), "1k")
    assert ratios == {"pipeline": pytest.approx(15.0), "run": pytest.approx(25.0)}
    target = bench.opencc_target(result_with(3.0, 0.2, 5.0), "1k")
    assert target["ok"] is False and target["measured"].startswith("25.0x")
    assert bench.opencc_target(result_with(3.0, 0.2, 3.9), "1k")["ok"] is True


def test_eval_target_verdicts():
    base = {"target": "eval-dev", "baseline_file": "bench/eval_dev_baseline.txt",
            "overall_line": "overall 1", "baseline_overall_line": "overall 1"}
    assert bench.eval_target({**base, "absent": True, "first_line": "no dev set"})["ok"] is None
    assert bench.eval_target({**base, "absent": False, "unchanged": True})["ok"] is True
    assert bench.eval_target({**base, "absent": False, "unchanged": False})["ok"] is False


def _claims_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    import csv
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["doc_id", "entity", "variant", "attribute", "value",
                                               "qualifier", "baseline", "verdict", "start",
                                               "link", "diagnosis", "sentence"])
        writer.writeheader()
        for row in rows:
            writer.writerow({"variant": "", "qualifier": "", "baseline": "", "link": "clause",
                             "diagnosis": "", **row})
    return path


def test_flags_diff_lists_the_flags_a_change_removes_and_adds(tmp_path, capsys):
    import flags_diff
    wrong = {"doc_id": "a", "entity": "H100", "attribute": "fp32", "value": "15",
             "verdict": "contradicted", "start": "40", "sentence": "H100 的 FP32 为 15 TFLOPS。"}
    fixed = {**wrong, "verdict": "unverifiable"}
    kept = {"doc_id": "a", "entity": "V100", "attribute": "process_node", "value": "16",
            "verdict": "contradicted", "start": "5", "sentence": "V100 采用 16nm 工艺。"}
    new = {"doc_id": "b", "entity": "A100", "attribute": "tdp", "value": "250",
           "verdict": "contradicted", "start": "0", "sentence": "A100 SXM 功耗 250W。"}
    before = _claims_csv(tmp_path / "before.csv", [kept, wrong])
    after = _claims_csv(tmp_path / "after.csv", [kept, fixed, new])
    removed, added = flags_diff.diff(flags_diff.read_claims(before), flags_diff.read_claims(after))
    assert [r["entity"] for r in removed] == ["H100"] and [r["entity"] for r in added] == ["A100"]
    assert flags_diff.main([str(before), str(after)]) == 0
    out = capsys.readouterr().out
    assert "claims 2 -> 3; contradicted 2 -> 2 (removed 1, added 1)" in out
    assert "a: H100 fp32 15 [clause]" in out and "b: A100 tdp 250" in out
    assert "V100" not in out  # a flag both runs raise is no change


def test_find_keys_finds_python_and_compiled_functions():
    stats = {("/r/src/specextract/batch/run.py", 230, "checked_rows"): (),
             ("~", 0, "<built-in method specextract.extract.claims.extract_normalized>"): (),
             ("~", 0, "<method 'normalize' of 'decimal.Decimal' objects>"): (),
             ("/r/src/specextract/other/claims.py", 5, "extract_normalized"): ()}
    assert bench.find_keys(stats, "specextract/batch/run.py", "checked_rows") == [
        ("/r/src/specextract/batch/run.py", 230, "checked_rows")]
    assert bench.find_keys(stats, "specextract/extract/claims.py", "extract_normalized") == [
        ("~", 0, "<built-in method specextract.extract.claims.extract_normalized>")]
    assert bench.find_keys(stats, "specextract/normalize/text.py", "normalize") == []
