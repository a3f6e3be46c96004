"""The compiled-pattern cache: programs kept on disk build the very patterns a fresh
compile builds (CPython's patterns compare equal only with equal programs), and a missing,
damaged or rejected entry costs a fresh compile, never a wrong pattern or a failed run."""
from __future__ import annotations

import marshal
import re
from pathlib import Path

import pytest

from specextract import programcache, regex_screens
from specextract.programcache import ProgramCache
from specextract.regex_screens import compile_pattern, compile_screened

SAMPLES = [
    (r"(?i:A100|H100|MI300X)(?![A-Za-z0-9])", 0),
    (r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>TFLOPS|GB/s|W)", 0),
    (r"显存\s*(?:容量)?\s*(\d+)\s*GB", 0),
    (r"(?<![A-Za-z])(?:first|second|third)\s+generation", re.IGNORECASE),
    ("\n  (?: 比 | 相比 | 较 )  # comparison words\n", re.VERBOSE),
]
TEXTS = ["The A100 has 312 TFLOPS at 400 W, 2039 GB/s.", "H100显存容量 80GB，比A100 快。",
         "Third Generation NVLink, mi300x, first generation", ""]


def fresh(tmp_path: Path, monkeypatch, name: str = "c") -> ProgramCache:
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    cache = ProgramCache(name, regex_screens.__file__)
    monkeypatch.setattr(regex_screens, "PROGRAMS", cache)
    return cache


def no_parsing(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("parsed although the program was kept")
    monkeypatch.setattr(regex_screens._parser, "parse", refuse)


def test_cache_folder_follows_the_variable_and_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv(programcache.VARIABLE, "off")
    assert programcache.cache_folder() is None
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    assert programcache.cache_folder() == tmp_path
    monkeypatch.delenv(programcache.VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert programcache.cache_folder() == tmp_path / "xdg" / "specextract"


def test_no_home_folder_means_no_cache(monkeypatch):
    monkeypatch.delenv(programcache.VARIABLE, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def homeless():
        raise RuntimeError("Could not determine home directory.")
    monkeypatch.setattr(programcache.Path, "home", staticmethod(homeless))
    assert programcache.cache_folder() is None
    assert ProgramCache("h", regex_screens.__file__).path() is None


def test_kept_programs_build_equal_patterns_without_parsing(tmp_path, monkeypatch):
    cache = fresh(tmp_path, monkeypatch)
    compiled = {s: compile_pattern(s, f) for s, f in SAMPLES}
    screened = {s: compile_screened(s, f) for s, f in SAMPLES}
    cache.save()
    assert cache.path() is not None and cache.path().is_file()
    fresh(tmp_path, monkeypatch)           # another process: the same file, read afresh
    no_parsing(monkeypatch)
    for source, flags in SAMPLES:
        again = compile_pattern(source, flags)
        assert again == compiled[source]     # same source, flags and program
        assert again.groupindex == compiled[source].groupindex
        assert [again.findall(t) for t in TEXTS] == [compiled[source].findall(t) for t in TEXTS]
        assert compile_screened(source, flags) == screened[source]


def test_every_pattern_an_extraction_compiles_comes_back_equal(tmp_path, monkeypatch):
    from specextract.extract.claims import extract
    from specextract.lexicon.lexicon import Lexicon
    cache = fresh(tmp_path, monkeypatch)
    lex = Lexicon.load()                   # its own patterns, built through this cache
    extract("A100 的 FP32 为 19.5 TFLOPS；H100 has 80 GB HBM3 at 3.35 TB/s.", "d", lexicon=lex)
    kept = {k: v for k, v in cache._load().items() if k[0] == "program"}
    assert len(kept) > 20
    for (_, source, flags), program in kept.items():
        assert regex_screens._from_program(source, program) == \
            regex_screens._from_program(source, regex_screens._program(
                flags, regex_screens._parser.parse(source, flags)))


def test_a_rejected_program_is_compiled_afresh_and_replaced(tmp_path, monkeypatch):
    cache = fresh(tmp_path, monkeypatch)
    source, flags = SAMPLES[1]
    good = compile_pattern(source, flags)
    bogus = (32, [17, 99999, 1, 1], 0, {}, (None,))
    cache.put("program", source, flags, bogus)
    assert compile_pattern(source, flags) == good
    assert cache.get("program", source, flags) != bogus


def flipped_program_byte() -> bytes:
    """A file whose one byte of one program's code differs from what was written, and
    still reads as a program (of another pattern) but for the digest."""
    word = 0x1A2B3C4D
    packed = bytearray(programcache.pack({("program", "x", 0): (32, [17, word], 0, {},
                                                                  (None,))}))
    at = packed.index(word.to_bytes(4, "little"))
    packed[at] ^= 1
    _, _, payload = marshal.loads(bytes(packed))
    assert marshal.loads(payload)[0][1][1] == [17, word ^ 1]
    return bytes(packed)


@pytest.mark.parametrize("content", [b"", b"not marshal", marshal.dumps((99, b"", b"")),
                                     marshal.dumps("a string"), flipped_program_byte()])
def test_a_damaged_or_foreign_file_reads_as_empty(tmp_path, monkeypatch, content):
    source, flags = SAMPLES[0]
    expected = compile_pattern(source, flags)
    cache = fresh(tmp_path, monkeypatch)
    cache.path().parent.mkdir(parents=True, exist_ok=True)
    cache.path().write_bytes(content)
    assert cache._load() == {}
    assert compile_pattern(source, flags) == expected
    assert cache.get("program", source, flags) is not None   # compiled and kept anew


def test_an_unwritable_folder_is_left_alone(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = fresh(blocker / "sub", monkeypatch)
    compile_pattern(*SAMPLES[0])
    cache.save()                            # no exception, nothing written
    assert not (blocker / "sub").exists()


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv(programcache.VARIABLE, "off")
    cache = ProgramCache("c", regex_screens.__file__)
    monkeypatch.setattr(regex_screens, "PROGRAMS", cache)
    assert compile_pattern(*SAMPLES[2]).findall("显存容量 80 GB") == ["80"]
    cache.save()
    assert list(tmp_path.iterdir()) == []


def test_a_changed_owner_source_uses_another_file(tmp_path, monkeypatch):
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    owner = tmp_path / "owner.py"
    owner.write_text("A = 1\n")
    first = ProgramCache("c", str(owner)).path()
    owner.write_text("A = 2\n")
    assert ProgramCache("c", str(owner)).path() != first


def test_the_script_class_table_comes_back_equal(tmp_path, monkeypatch):
    import numpy as np

    from specextract.normalize import script
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    tables = ProgramCache("s", script.__file__)
    monkeypatch.setattr(script, "TABLES", tables)
    script._char_classes.cache_clear()
    built = script._char_classes()
    tables.save()
    monkeypatch.setattr(script, "TABLES", ProgramCache("s", script.__file__))

    def refuse():
        raise AssertionError("built although the table was kept")
    monkeypatch.setattr(script, "_built_char_classes", refuse)
    script._char_classes.cache_clear()
    try:
        assert np.array_equal(script._char_classes(), built)
        assert script.detect_script("記憶體頻寬與電晶體數量") == "zh-Hant"
    finally:
        script._char_classes.cache_clear()


def test_a_kept_table_of_the_wrong_size_is_built_afresh(tmp_path, monkeypatch):
    from specextract.normalize import script
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    tables = ProgramCache("s", script.__file__)
    monkeypatch.setattr(script, "TABLES", tables)
    version = f"opencc {getattr(script.opencc, '__version__', '')}"
    tables.put("table", version, 0, b"\x00" * 10)
    script._char_classes.cache_clear()
    try:
        assert len(script._char_classes()) == 0x10000
        assert len(tables.get("table", version, 0)) == 0x10000
    finally:
        script._char_classes.cache_clear()


def test_a_batch_document_writes_the_new_patterns_before_the_process_ends(tmp_path, monkeypatch):
    from specextract.batch.run import process_task
    from specextract.batch.tasks import DocumentTask
    cache = fresh(tmp_path, monkeypatch)
    compile_pattern(r"(?i:kept\s+before\s+exit)\d*", 0)
    assert not cache.path().exists()
    article = tmp_path / "a.txt"
    article.write_text("A100 的 FP32 为 19.5 TFLOPS。", encoding="utf-8")
    result = process_task(DocumentTask(path=str(article)))
    assert result["status"] == "ok"
    kept = programcache.read_entries(cache.path())
    assert ("program", r"(?i:kept\s+before\s+exit)\d*", 0) in kept


def test_saving_keeps_what_another_process_wrote_meanwhile(tmp_path, monkeypatch):
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    first, second = (ProgramCache("m", regex_screens.__file__) for _ in range(2))
    first.put("screen", "a", 0, "")
    second.put("screen", "b", 0, "")
    first.save()
    second.save()
    assert set(programcache.read_entries(first.path())) == {("screen", "a", 0), ("screen", "b", 0)}


def test_a_file_past_its_size_keeps_only_what_this_process_used(tmp_path, monkeypatch):
    monkeypatch.setenv(programcache.VARIABLE, str(tmp_path))
    earlier, later = (ProgramCache("s", regex_screens.__file__) for _ in range(2))
    earlier.put("screen", "old", 0, "x" * 5000)
    earlier.save()
    monkeypatch.setattr(programcache, "MAX_BYTES", 4000)
    later.put("screen", "new", 0, "y")
    later.save()
    assert set(programcache.read_entries(later.path())) == {("screen", "new", 0)}


SEEDED_RUN = """
from specextract.check.reference import load_reference
from specextract.batch.run import checked_rows
from specextract.extract.claims import extract
ref = load_reference()
for text in {texts!r}:
    checked_rows(extract(text, "d"), ref)
"""


def test_a_run_compiles_the_same_sources_whatever_the_hash_seed(tmp_path):
    # a pattern built from a set in its iteration order would get a new source, a new
    # entry and a save in every process
    import os
    import subprocess
    import sys
    texts = TEXTS + ["RTX 4090 的 FP32 为 82.6 TFLOPS，是 RTX 3090 的 2 倍。",
                     "| GPU | Memory |\n|---|---|\n| H100 SXM | 80 GB HBM3 |"]
    env = {**os.environ, programcache.VARIABLE: str(tmp_path)}
    kept = []
    for seed in ("1", "2"):
        subprocess.run([sys.executable, "-c", SEEDED_RUN.format(texts=texts)], check=True,
                       env={**env, "PYTHONHASHSEED": seed})
        files = sorted(tmp_path.glob("patterns-*.marshal"))
        assert len(files) == 1
        kept.append(set(programcache.read_entries(files[0])))
    assert kept[0] and kept[1] == kept[0]
