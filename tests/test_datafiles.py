"""Every bundled data file loads, and every pattern built from them compiles."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from specextract.extract import cues, quantities
from specextract.extract import mentions as lexicon
from specextract.extract import prose as linking
from specextract.normalize import script
from specextract.lexicon.files import data_path, read_tsv
from specextract.check.reference import load_reference
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
            "bits", "ratio", "percent"}
    for row in read_tsv(DATA / "units.tsv"):
        assert row["dimension"] in dims, row
        info = quantities.unit_info(row["alias"])
        assert info is not None and info[0] == row["dimension"], row


def test_chip_contexts_compile():
    for row in read_tsv(DATA / "chips.tsv"):
        for column in ("context", "doc_context"):
            if row.get(column):
                re.compile(row[column])


@pytest.mark.parametrize("build", [
    quantities.quantity_pattern, quantities.ordinal_pattern, normalize.noise_pattern,
    lambda: lexicon._chip_lexicon()[0], lambda: lexicon._keyword_lexicon()[0],
    lambda: lexicon._qualifier_lexicon()[0], script._term_pattern,
], ids=["quantities", "ordinals", "noise", "chips", "keywords", "qualifiers", "hant-terms"])
def test_patterns_compile(build):
    assert build() is not None


@pytest.mark.parametrize("kind", sorted({r["kind"] for r in read_tsv(DATA / "cues.tsv")}))
def test_cue_patterns_compile(kind):
    assert cues.cue_pattern(kind).pattern


def test_reference_and_predecessors_agree():
    ref = load_reference()
    predecessor, architecture = linking.relations()
    for chip, earlier in predecessor.items():
        assert ref.knows(chip) and ref.knows(earlier), (chip, earlier)
    for chip in architecture.values():
        assert ref.knows(chip), chip
