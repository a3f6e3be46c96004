"""One :class:`Lexicon` object: every data file the stages read, declared and loaded once.

    lex = Lexicon.load()                                   # the bundled data/
    lex = Lexicon.load(chips="my_chips.tsv")               # a user's own chips.tsv
    specextract.extract(text, lexicon=lex)

``DATA_FILES`` declares each file: the columns it must have and, for files with a
``kind`` column (or another column naming a kind), the kinds the code reads; a row of any
other kind is an error, so data and code cannot drift apart. What the stages build from
the rows (compiled regexes, tables) is kept on the object that built it
(:meth:`Lexicon.built`), so two lexicons never share a cache.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from threading import RLock
from typing import Any

from ..errors import DataFileError
from .files import data_path, read_tsv


@dataclass(frozen=True)
class DataFile:
    """What a data file must hold: its columns and, in ``kind_column``, the kinds read;
    ``optional`` columns are read as empty cells when a file lacks them."""

    columns: tuple[str, ...]
    kind_column: str = ""
    kinds: frozenset[str] = frozenset()
    optional: tuple[str, ...] = ()


DATA_FILES: dict[str, DataFile] = {
    "attributes.tsv": DataFile(("keyword", "attribute", "qualifier", "dims")),
    "chips.tsv": DataFile(("entity", "alias", "context"), optional=("note", "doc_context")),
    "chip_families.tsv": DataFile(("words", "canonical", "class", "code", "join", "prefix"),
                                  "class", frozenset({"accelerator", "soc", "cpu"})),
    "context_words.tsv": DataFile(("word", "kind"), "kind", frozenset({
        "no_claim_label", "interconnect", "link_name", "other_bandwidth"})),
    "cues.tsv": DataFile(("cue", "kind", "value"), "kind", frozenset({
        "op_before", "op_after", "compare", "predecessor", "increase", "decrease", "exclude",
        "generic_metric", "unit_part", "difference", "difference_after", "other_link",
        "network_after", "carry", "not_gain", "whole_chip", "question"})),
    "error_hints.tsv": DataFile(("hint", "pattern")),
    "normalize_chars.tsv": DataFile(("action", "codepoints"), "action",
                                    frozenset({"delete", "keep", "space"})),
    "number_chars.tsv": DataFile(("action", "codepoints"), "action",
                                 frozenset({"zero", "group", "mark", "bidi"})),
    "pinyin_noise.tsv": DataFile(("syllable",)),
    "plausible.tsv": DataFile(("attribute", "min", "max")),
    "predecessors.tsv": DataFile(("kind", "name", "chip"), "kind",
                                 frozenset({"predecessor", "architecture"})),
    "qualifiers.tsv": DataFile(("keyword", "qualifier")),
    "reference_attributes.tsv": DataFile(("reference_attribute", "codebook_attribute",
                                          "qualifier", "unit_factor", "reference_units")),
    "reference_entities.tsv": DataFile(("word",)),
    "units.tsv": DataFile(("alias", "dimension", "factor", "written", "case"), "case",
                          frozenset({"any", "exact"})),
    "unit_bases.tsv": DataFile(("unit", "dimension", "factor", "prefixes", "spellings", "case"),
                               "case", frozenset({"any", "exact"})),
    "unit_prefixes.tsv": DataFile(("symbol", "word", "chinese", "exponent")),
    "variants.tsv": DataFile(("pattern", "canonical")),
    "zh_hant_terms.tsv": DataFile(("term", "mainland")),
}


@dataclass(eq=False)
class Lexicon:
    """The rows of every declared data file, from ``data/`` or from files a user names."""

    paths: dict[str, Path]
    _rows: dict[str, tuple[dict[str, str], ...]] = field(default_factory=dict, repr=False)
    made: dict[tuple, Any] = field(default_factory=dict, repr=False)  # built(), by its key
    _lock: RLock = field(default_factory=RLock, repr=False)

    @classmethod
    def load(cls, folder: str | Path | None = None, **files: str | Path) -> Lexicon:
        """The bundled files, or those of ``folder``; ``chips="x.tsv"`` replaces one file
        (keyword: the file name without ``.tsv``)."""
        paths = {}
        for name in DATA_FILES:
            own = files.pop(name.removesuffix(".tsv"), None)
            paths[name] = Path(own) if own else (Path(folder) / name if folder else data_path(name))
        if files:
            raise TypeError(f"no such data files: {sorted(files)}")
        return cls(paths)

    def rows(self, name: str) -> tuple[dict[str, str], ...]:
        """Rows of a declared file, checked against its declaration (read once)."""
        if name not in self._rows:
            self._rows[name] = tuple(self._read(name))
        return self._rows[name]

    def _read(self, name: str) -> list[dict[str, str]]:
        spec = DATA_FILES[name]
        rows = read_tsv(self.paths[name], spec.columns)
        for row in rows:
            for column in spec.optional:
                row.setdefault(column, "")
        if spec.kind_column:
            for row in rows:
                if row[spec.kind_column] not in spec.kinds:
                    raise DataFileError(str(self.paths[name]), int(row["_line"]),
                                        f"{spec.kind_column} {row[spec.kind_column]!r} is "
                                        f"none of {sorted(spec.kinds)}")
        return rows

    def of_kind(self, name: str, kind: str) -> list[dict[str, str]]:
        """Rows of ``name`` whose kind column says ``kind`` (a declared kind)."""
        spec = DATA_FILES[name]
        assert kind in spec.kinds, (name, kind)
        return [r for r in self.rows(name) if r[spec.kind_column] == kind]

    def built(self, build: Callable[..., Any], *args: Any) -> Any:
        """``build(self, *args)``, made once per lexicon (compiled regexes, tables) and
        kept in ``made`` under ``(build, *args)`` (where ``lexicon.made.built`` finds it
        from compiled code without a call into this class)."""
        key = (build, *args)
        try:
            return self.made[key]
        except KeyError:
            pass
        with self._lock:
            if key not in self.made:
                self.made[key] = build(self, *args)
        return self.made[key]


_DEFAULT: list[Lexicon] = []


def default_lexicon() -> Lexicon:
    """The bundled lexicon, loaded on first use."""
    if not _DEFAULT:
        _DEFAULT.append(Lexicon.load())
    return _DEFAULT[0]


def lexicon_or_default(lexicon: Lexicon | None) -> Lexicon:
    return lexicon if lexicon is not None else default_lexicon()
