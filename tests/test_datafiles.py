"""Every bundled data file loads, and every pattern built from them compiles."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from specextract.extract import cues, quantities
from specextract.extract import mentions as lexicon
from specextract.extract import drafts as linking
from specextract.normalize import script
import specextract
from specextract.eval import error_analysis
from specextract.lexicon import DATA_FILES, Lexicon
from specextract.errors import DataFileError
from specextract.lexicon.files import data_path, read_tsv
from specextract.lexicon.units import unit_rows
from specextract.check.reference import attribute_specs, drop_words, load_reference
from specextract.codebook import ATTRIBUTES, QUALIFIERS

normalize = importlib.import_module("specextract.normalize.text")  # the module, not the function
DATA = Path(data_path("chips.tsv")).parent
TSV_FILES = sorted(p.name for p in DATA.glob("*.tsv"))


@pytest.mark.parametrize("name", TSV_FILES)
def test_tsv_loads_with_header_comment(name):
    text = (DATA / name).read_text(encoding="utf-8")
    assert text.startswith("#"), f"{name} needs a header comment saying what it holds"
    assert read_tsv(DATA / name), f"{name} has no rows"


def test_attribute_keywords_name_codebook_attributes():
    for row in read_tsv(DATA / "attributes.tsv"):
        assert row["attribute"] in ATTRIBUTES or row["attribute"] == "-", row
        assert row["qualifier"] in ("",) + QUALIFIERS, row


def test_qualifier_words_name_codebook_qualifiers():
    for row in read_tsv(DATA / "qualifiers.tsv"):
        assert row["qualifier"] in QUALIFIERS, row


def test_plausible_ranges_cover_every_attribute():
    names = {r["attribute"] for r in read_tsv(DATA / "plausible.tsv")}
    assert names == set(ATTRIBUTES)


def test_unit_aliases_resolve_to_a_dimension():
    dims = {"throughput", "bytes", "bandwidth", "length", "power", "frequency", "area",
            "bits", "ratio", "percent", "efficiency"}
    for row in unit_rows(LEX):
        assert row["dimension"] in dims, row
        info = quantities.unit_info(row["alias"])
        assert info is not None and info[0] == row["dimension"], row


def test_chip_contexts_compile():
    for row in read_tsv(DATA / "chips.tsv"):
        for column in ("context", "doc_context"):
            if row.get(column):
                re.compile(row[column])


LEX = Lexicon.load()


@pytest.mark.parametrize("build", [
    lambda: quantities.units_of(LEX).quantity, quantities.ordinal_pattern,
    lambda: normalize.noise_pattern(LEX),
    lambda: LEX.built(lexicon.chip_lexicon)[0], lambda: LEX.built(lexicon.keyword_lexicon)[0],
    lambda: LEX.built(lexicon.qualifier_lexicon)[0], lambda: LEX.built(script.term_pattern),
], ids=["quantities", "ordinals", "noise", "chips", "keywords", "qualifiers", "hant-terms"])
def test_patterns_compile(build):
    assert build() is not None


@pytest.mark.parametrize("kind", sorted({r["kind"] for r in read_tsv(DATA / "cues.tsv")}))
def test_cue_patterns_compile(kind):
    assert cues.cue_pattern(LEX, kind).pattern


def test_reference_and_predecessors_agree():
    ref = load_reference()
    predecessor, architecture = LEX.built(linking.relations)
    for chip, earlier in predecessor.items():
        assert ref.knows(chip) and ref.knows(earlier), (chip, earlier)
    for chip in architecture.values():
        assert ref.knows(chip), chip


def test_every_data_file_is_declared_and_every_declared_file_exists():
    assert set(TSV_FILES) == set(DATA_FILES)


@pytest.mark.parametrize("name", sorted(n for n, d in DATA_FILES.items() if d.kind_column))
def test_every_declared_kind_is_in_the_data(name):
    spec = DATA_FILES[name]
    assert {r[spec.kind_column] for r in LEX.rows(name)} == spec.kinds


class RecordingLexicon(Lexicon):
    """A lexicon that notes which files and kinds the stages ask it for."""

    def __init__(self, paths):
        super().__init__(paths)
        self.read, self.kinds = set(), set()

    def rows(self, name):
        self.read.add(name)
        return super().rows(name)

    def of_kind(self, name, kind):
        self.kinds.add((name, kind))
        return super().of_kind(name, kind)


CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def test_every_declared_file_and_kind_is_read():
    lex = RecordingLexicon(Lexicon.load().paths)
    for path in sorted(CORPUS.glob("*.txt")):
        text = specextract.read_document(path).text
        specextract.extract(text, lexicon=lex)
    attribute_specs(lex), drop_words(lex)   # what load_reference reads beside the table
    error_analysis.hints(lex)               # what `eval --errors` reads
    assert lex.read == set(DATA_FILES)
    selected = {(n, k) for n, d in DATA_FILES.items() if d.kind_column in ("kind",)
                for k in d.kinds}
    assert selected <= lex.kinds


def test_a_user_lexicon_replaces_one_file(tmp_path):
    chips = tmp_path / "chips.tsv"
    chips.write_text("# one chip\nentity\talias\tcontext\nZ9\tZetta 9\t\n", encoding="utf-8")
    lex = Lexicon.load(chips=chips)
    text = "Zetta 9 的显存为 96GB。"
    assert [(c.entity, c.value) for c in specextract.extract(text, lexicon=lex)] == [("Z9", 96)]
    assert specextract.extract(text) == []


def test_optional_columns_of_a_user_file_read_as_empty(tmp_path):
    """chips.tsv's note and doc_context may be left out of a user's file: its rows read
    them as empty, and an edition word beside the chip (which reads the notes) works."""
    chips = tmp_path / "chips.tsv"
    chips.write_text("entity\talias\tcontext\nZ9\tZetta 9\t\n", encoding="utf-8")
    lex = Lexicon.load(chips=chips)
    assert (lex.rows("chips.tsv")[0]["note"], lex.rows("chips.tsv")[0]["doc_context"]) == ("", "")
    claims = specextract.extract("特供版 Zetta 9 的显存为 96GB。", lexicon=lex)
    assert [(c.entity, c.value) for c in claims] == [("Z9", 96)]


def test_unit_table_from_prefixes_is_the_listed_table():
    """Prefixes x base units plus the listed exceptions make exactly the table that listed
    every spelling (tests/cases/units_listed.tsv, the units.tsv before prefixes)."""
    listed = read_tsv(Path(__file__).parent / "cases" / "units_listed.tsv")
    before, now = quantities.units_from_rows(listed), quantities.units_of(LEX)
    assert {k: (d, str(f), w) for k, (d, f, w) in now.table.items()} == \
        {k: (d, str(f), w) for k, (d, f, w) in before.table.items()}
    assert now.alternation == before.alternation


def test_unit_base_with_unknown_prefix_is_an_error(tmp_path):
    bases = tmp_path / "unit_bases.tsv"
    bases.write_text("unit\tdimension\tfactor\tprefixes\tspellings\tcase\n"
                     "B\tbytes\t1e-9\tX\tB\tany\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="unit_bases.tsv.*prefix 'X'"):
        unit_rows(Lexicon.load(unit_bases=bases))


@pytest.mark.parametrize("text,found", [
    ("fp32 和 FP32 与 Fp32", ["fp32", "FP32", "Fp32"]),   # any case, with no re.IGNORECASE
    ("实测：超频后", ["实测", "超频"]),
    ("xfp32 afp32", []),                                  # after a letter: inside a word
    ("1.4GHzfp32 7nmFP32 80GB/sfp32", ["fp32", "FP32", "fp32"]),   # right after a unit
])
def test_word_trie_matches_any_case_by_itself(text, found):
    from specextract.lexicon.trie import trie_regex
    pattern = re.compile(trie_regex(["FP32", "实测", "超频"]))
    assert not pattern.flags & re.IGNORECASE
    assert [m.group() for m in pattern.finditer(text)] == found


def test_a_lookup_key_drops_every_white_space_character_regex_s_matches():
    """squash splits at str.split()'s white space: the characters ``\\s`` matches."""
    from specextract.lexicon.trie import squash
    every = "".join(map(chr, range(0x3001))) + "Ab C\u3000D\u205fE"
    assert squash(every) == re.sub(r"\s+", "", every).lower()
    assert squash(" RTX\u00a04090 ") == "rtx4090"


def test_what_a_lexicon_built_is_found_in_its_table_once_made():
    from specextract.extract.cues import _cue_pattern
    from specextract.lexicon import Lexicon
    from specextract.lexicon.made import built
    lex = Lexicon.load()
    assert (_cue_pattern, "exclude", "") not in lex.made
    first = built(lex, _cue_pattern, "exclude", "")   # made by Lexicon.built
    assert lex.made[(_cue_pattern, "exclude", "")] is first
    assert built(lex, _cue_pattern, "exclude", "") is first is lex.built(_cue_pattern, "exclude", "")
    assert built(Lexicon.load(), _cue_pattern, "exclude", "") is not first   # per lexicon
