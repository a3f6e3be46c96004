"""The sourced reference table: load, validate, look up.

``specs.csv`` (one figure per row, with source and confidence) and ``marketing_ratios.csv``
ship in ``specextract/data/reference/`` beside NOTES.md. Reference attributes reach the
codebook's names only through ``data/reference_attributes.tsv``; chip names become codebook
entities by dropping the words in ``data/reference_entities.tsv``.

    ref = load_reference()
    ref.lookup("A100", "fp16")        # RefRow records, plain and Tensor, every variant
    ref.ratios("A100", "V100")        # MarketingRatio records
    ref.version                       # sha256 of specs.csv, recorded by the batch store
    load_reference(extras=["my_rows.csv"])   # the bundled table with a user's rows on top
"""
from __future__ import annotations

from typing import Any
import csv
import hashlib
import io
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

from ..lexicon.files import data_path
from ..lexicon.lexicon import Lexicon, lexicon_or_default
from ..errors import DataFileError
from ..regex_screens import compile_pattern
from .rules import (
    AttrSpec, condition_generations, entity_key, entity_name, name_regex, parse_ratio,
    row_figures, row_problem, to_decimal,
)
from ..codebook import ATTRIBUTE_UNITS
from .names import closest_attribute, table_attribute

SPECS_COLUMNS = ("chip", "variant", "attribute", "value", "unit", "condition", "source", "confidence")
RATIO_COLUMNS = ("subject", "baseline", "ratio", "condition", "source")
DEFAULT_DIR = "reference"
RATIOS_NAME = "marketing_ratios.csv"


class ReferenceTableError(DataFileError):
    """A reference table is malformed: names the file, the 1-based line and the problem."""


@dataclass(frozen=True)
class RefRow:
    """One figure of the reference table, in codebook terms."""

    entity: str                 # codebook entity ("A100")
    chip: str                   # reference chip name ("NVIDIA A100")
    variant: str
    attribute: str              # codebook attribute
    qualifiers: frozenset[str]  # tensor / non-tensor, dense / sparse
    value: Decimal | None       # None when not_supported
    unit: str                   # codebook unit
    condition: str
    source: str
    confidence: str
    preliminary: bool = False
    not_supported: bool = False
    line: int = 0               # line in specs.csv
    derived: str = ""           # why the figure is not the row's own value ("condition", ...)


@dataclass(frozen=True)
class MarketingRatio:
    """A vendor's published ratio for a (subject, baseline) pair."""

    subject: str
    baseline: str
    subject_entity: str
    baseline_entity: str
    ratio: str
    values: tuple[Decimal, ...]
    condition: str
    source: str
    line: int


@dataclass(frozen=True)
class Reference:
    path: str
    version: str
    rows: tuple[RefRow, ...]
    marketing: tuple[MarketingRatio, ...] = ()
    ratios_version: str = ""
    extras: tuple[str, ...] = ()    # overlay tables laid on top of ``path``, in order
    ratios_path: str = ""       # the marketing_ratios.csv read ("" when none)
    _index: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for row in self.rows:
            self._index.setdefault((entity_key(row.entity), row.attribute), []).append(row)
            self._index.setdefault(entity_key(row.entity), set()).add(row.variant)
            self._index.setdefault(("*", row.attribute), []).append(row)
        for ratio in self.marketing:
            key = ("ratio", entity_key(ratio.subject_entity), entity_key(ratio.baseline_entity))
            self._index.setdefault(key, []).append(ratio)

    def knows(self, entity: str) -> bool:
        return entity_key(entity) in self._index

    def variants(self, entity: str) -> tuple[str, ...]:
        return tuple(sorted(self._index.get(entity_key(entity), ())))

    def lookup(self, entity: str, attribute: str) -> tuple[RefRow, ...]:
        """Every row of (entity, codebook attribute), preliminary ones included."""
        return tuple(self._index.get((entity_key(entity), attribute), ()))

    def attribute_rows(self, attribute: str) -> tuple[RefRow, ...]:
        """Rows of one codebook attribute for every chip (misattribution search)."""
        return tuple(self._index.get(("*", attribute), ()))

    def ratios(self, subject: str, baseline: str) -> tuple[MarketingRatio, ...]:
        return tuple(self._index.get(("ratio", entity_key(subject), entity_key(baseline)), ()))

    def memoized(self, name: str, key, compute, *args, limit: int = 10_000):
        """``compute(*args)``, remembered under ``key`` in this table's memo ``name`` (the
        checker's derived lookups: row selections, value indexes), which is emptied when it
        holds ``limit`` entries so memory stays bounded; an unhashable key is not kept."""
        cache = self._memo.setdefault(name, {})
        try:
            found = cache.get(key)
        except TypeError:
            return compute(*args)
        if found is None:
            if len(cache) >= limit:
                cache.clear()
            found = cache[key] = compute(*args)
        return found


_CACHE: dict[tuple[str, str, str, str, bool], Reference] = {}
OVERLAY_MARK = "[overlay: {name}]"


def load_reference(path: str | Path | None = None,
                   extras: tuple[str | Path, ...] | list[str | Path] = ()) -> Reference:
    """Load and validate the reference table (default: the bundled one); cached per content.

    ``path`` is specs.csv or the folder holding it; marketing_ratios.csv is read from
    the same folder when present, else (for ``path`` itself, not for ``extras``) the
    bundled one is; ``Reference.ratios_path`` says which. Each of ``extras`` is a
    table of the same format laid on top, in order (see :func:`overlay`). Raises
    ReferenceTableError naming file, line and problem.
    """
    base = _load_one(path, bundled_ratios=True)
    for extra in extras:
        base = overlay(base, _load_one(extra, bundled_ratios=False))
    return base


def overlay(base: Reference, top: Reference) -> Reference:
    """``base`` with ``top``'s rows on it: where both have figures for the same chip,
    variant, attribute and qualifiers (preliminary apart from final), ``top``'s win; its
    vendor ratios win for the same pair. Rows from ``top`` say so in their source
    ("[overlay: my_rows.csv]"), so every verdict shows which table judged it."""
    name = Path(top.path).name
    mark = OVERLAY_MARK.format(name=name)
    mine = [replace(r, source=f"{r.source} {mark}".strip()) for r in top.rows]
    covered = {_overlay_key(r) for r in mine}
    rows = tuple(mine) + tuple(r for r in base.rows if _overlay_key(r) not in covered)
    pairs = {(entity_key(m.subject_entity), entity_key(m.baseline_entity)) for m in top.marketing}
    marketing = tuple(replace(m, source=f"{m.source} {mark}".strip()) for m in top.marketing) \
        + tuple(m for m in base.marketing
                if (entity_key(m.subject_entity), entity_key(m.baseline_entity)) not in pairs)
    version = hashlib.sha256(f"{base.version}+{top.version}".encode()).hexdigest()
    ratios = hashlib.sha256(f"{base.ratios_version}+{top.ratios_version}".encode()).hexdigest() \
        if top.ratios_version else base.ratios_version
    return Reference(base.path, version, rows, marketing, ratios, base.extras + (top.path,),
                     ratios_path=base.ratios_path)


def _overlay_key(row: RefRow) -> tuple:
    return (entity_key(row.entity), row.variant, row.attribute, row.qualifiers, row.preliminary)


def _load_one(path: str | Path | None, *, bundled_ratios: bool) -> Reference:
    """One table (specs.csv and the ratios beside it, else with ``bundled_ratios`` the
    bundled ratios), validated and cached per content."""
    specs = Path(path) if path is not None else data_path(f"{DEFAULT_DIR}/specs.csv")
    if specs.is_dir():
        specs = specs / "specs.csv"
    ratios = specs.with_name(RATIOS_NAME)
    if not ratios.is_file() and bundled_ratios:
        ratios = data_path(f"{DEFAULT_DIR}/{RATIOS_NAME}")
    data = _read_bytes(specs)
    ratio_data = _read_bytes(ratios) if ratios.is_file() else b""
    key = (str(specs.resolve()), _sha256(data), _sha256(ratio_data), str(ratios.resolve()),
           bundled_ratios)
    if key not in _CACHE:
        rows = build_rows(_read_frame(data, specs, SPECS_COLUMNS), str(specs))
        marketing = build_ratios(_read_frame(ratio_data, ratios, RATIO_COLUMNS), str(ratios),
                                 {row.entity for row in rows}) if ratio_data else ()
        _CACHE[key] = Reference(str(specs), key[1], tuple(rows), tuple(marketing),
                                key[2] if ratio_data else "",
                                ratios_path=str(ratios) if ratio_data else "")
    return _CACHE[key]


def tables_text(ref: Reference) -> str:
    """Which tables judge: 'reference: specs.csv PATH; marketing ratios: PATH (bundled)'."""
    bundled = data_path(f"{DEFAULT_DIR}/{RATIOS_NAME}")
    if not ref.ratios_path:
        ratios = "none (an empty marketing_ratios.csv beside the table)"
    else:
        same = Path(ref.ratios_path).resolve() == Path(bundled).resolve()
        beside = Path(ref.ratios_path).parent.resolve() == Path(ref.path).parent.resolve()
        ratios = ref.ratios_path + (" (bundled)" if same and not beside else "")
    overlays = "".join(f" + {extra}" for extra in ref.extras)
    return f"reference: {ref.path}{overlays}; marketing ratios: {ratios}"


def attribute_specs(lexicon: Lexicon | None = None) -> dict[str, tuple[AttrSpec, ...]]:
    """reference attribute -> its lines in reference_attributes.tsv."""
    specs: dict[str, list[AttrSpec]] = {}
    for r in lexicon_or_default(lexicon).rows("reference_attributes.tsv"):
        where, line = "reference_attributes.tsv", int(r["_line"])
        if r["codebook_attribute"] and r["codebook_attribute"] not in ATTRIBUTE_UNITS:
            raise DataFileError(where, line, f"unknown codebook attribute {r['codebook_attribute']!r}")
        factor = to_decimal(r["unit_factor"] or "1")
        if factor is None:
            raise DataFileError(where, line, f"unit_factor {r['unit_factor']!r} is not a number")
        units = frozenset(u.strip() for u in r["reference_units"].split(",") if u.strip())
        specs.setdefault(r["reference_attribute"], []).append(
            AttrSpec(r["reference_attribute"], r["codebook_attribute"], r["qualifier"], factor, units))
    return {k: tuple(v) for k, v in specs.items()}


def drop_words(lexicon: Lexicon | None = None) -> frozenset[str]:
    return frozenset(r["word"] for r in lexicon_or_default(lexicon).rows("reference_entities.tsv"))


def build_rows(frame: list[dict[str, str]], where: str) -> list[RefRow]:
    """Validate every raw row (``frame``: the records of _read_frame, or a DataFrame of
    strings) and turn it into RefRow records (derived figures last)."""
    specs, words = attribute_specs(), drop_words()
    units = frozenset(u for group in specs.values() for s in group for u in s.units)
    own: list[RefRow] = []
    derived: list[RefRow] = []
    seen: dict[tuple, Any] = {}
    records = _records(frame)
    names = frozenset(n for raw in records if raw.get("chip", "").strip()
                      for n in (raw["chip"].strip(), entity_name(raw["chip"], words)) if n)
    for index, raw in enumerate(records):
        line = index + 2
        raw = {**raw, "attribute": table_attribute(raw["attribute"])}  # codebook names too
        group = specs.get(raw["attribute"], ())
        problem = row_problem(raw, group, units) or _duplicate_problem(raw, line, seen)
        if problem:
            raise ReferenceTableError(where, line, with_hint(problem, raw))
        entity = entity_name(raw["chip"], words)
        for spec in (s for s in group if s.codebook_attribute):
            for fig in row_figures(raw, spec):
                row = RefRow(entity, raw["chip"], raw["variant"], fig.attribute, fig.qualifiers,
                             fig.value, ATTRIBUTE_UNITS[fig.attribute], raw["condition"],
                             raw["source"], raw["confidence"], fig.preliminary,
                             fig.value is None, line, fig.derived)
                (derived if fig.derived else own).append(row)
        for fig in condition_generations(raw, entity, names):
            derived.append(RefRow(entity, raw["chip"], raw["variant"], fig.attribute,
                                  fig.qualifiers, fig.value, ATTRIBUTE_UNITS[fig.attribute],
                                  raw["condition"], raw["source"], raw["confidence"],
                                  fig.preliminary, False, line, fig.derived))
    unique: dict[tuple, RefRow] = {}
    for row in own + derived:
        unique.setdefault((entity_key(row.entity), row.variant, row.attribute, row.qualifiers,
                           row.value, row.preliminary, row.not_supported), row)
    return list(unique.values())


def with_hint(problem: str, raw: dict[str, str]) -> str:
    """An unknown attribute's problem, with the closest accepted name."""
    if problem.startswith("unknown attribute"):
        hint = closest_attribute(raw["attribute"])
        if hint:
            return f"{problem}; did you mean {hint!r}?"
    return problem


def _duplicate_problem(raw: dict, line: int, seen: dict) -> str | None:
    key = (raw["chip"], raw["variant"], raw["attribute"], raw["condition"])
    if key in seen and not _same_value(seen[key][1], raw["value"]):
        first, value = seen[key]
        return (f"contradicts line {first}: same chip, variant, attribute and condition "
                f"but value {raw['value']!r} vs {value!r}")
    seen.setdefault(key, (line, raw["value"]))
    return None


def _same_value(a: str, b: str) -> bool:
    x, y = to_decimal(a), to_decimal(b)
    return x == y if x is not None and y is not None else a.strip() == b.strip()


def build_ratios(frame: list[dict[str, str]], where: str,
                 entities: set[str]) -> list[MarketingRatio]:
    names = [(name, compile_pattern(name_regex(name), re.IGNORECASE))
             for name in sorted(entities, key=len, reverse=True)]
    out = []
    for index, raw in enumerate(_records(frame)):
        line = index + 2
        values = parse_ratio(raw["ratio"])
        if not any(raw.values()):
            raise ReferenceTableError(where, line, "empty row")
        if not values:
            raise ReferenceTableError(where, line, f"ratio {raw['ratio']!r} has no 'Nx' or 'N%' figure")
        if not raw["source"].strip():
            raise ReferenceTableError(where, line, "empty source")
        out.append(MarketingRatio(raw["subject"], raw["baseline"], _find_entity(raw["subject"], names),
                                  _find_entity(raw["baseline"], names), raw["ratio"], values,
                                  raw["condition"], raw["source"], line))
    return out


def _find_entity(text: str, names: list[tuple[str, re.Pattern]]) -> str:
    """The first reference entity named in free text ('H100 SXM (dense FP16)' -> 'H100');
    ``names``: (entity, the pattern finding it as a word), longest name first."""
    best = None
    for name, pattern in names:
        m = pattern.search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), name)
    return best[1] if best else ""


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ReferenceTableError(str(path), None, f"cannot read: {exc.strerror or exc}") from None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _records(frame) -> list[dict[str, str]]:
    return frame if isinstance(frame, list) else frame.to_dict("records")


def _read_frame(data: bytes, path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """The CSV as records of strings, keyed by the header; one record per line after the
    header (line = index + 2): a blank line is a record of empty cells, a short line's
    missing cells are empty, blank lines at the end are dropped. (The csv module, not
    pandas: the batch workers that load the table need nothing else.)"""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReferenceTableError(str(path), None, f"not a readable CSV: {exc}") from None
    if "\x00" in text:
        raise ReferenceTableError(str(path), None, "not a readable CSV: binary data (NUL bytes)")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        if not header:
            raise ReferenceTableError(str(path), 1, "not a readable CSV: no columns to parse")
        missing = [c for c in columns if c not in header]
        extra = [c for c in header if c not in columns]
        if missing or extra:
            problem = f"missing columns {missing}" if missing else f"unexpected columns {extra}"
            raise ReferenceTableError(str(path), 1, problem)
        records = []
        for cells in reader:
            if len(cells) > len(header):
                raise ReferenceTableError(str(path), reader.line_num,
                                     f"not a readable CSV: expected {len(header)} fields, "
                                     f"saw {len(cells)}")
            records.append(dict(zip(header, cells + [""] * (len(header) - len(cells)))))
    except csv.Error as exc:
        raise ReferenceTableError(str(path), reader.line_num,
                             f"not a readable CSV: {exc}") from None
    while records and not any(records[-1].values()):
        records.pop()  # blank lines at the end of the file
    for index, raw in enumerate(records):
        if any("\n" in cell or "\r" in cell for cell in raw.values()):
            raise ReferenceTableError(str(path), index + 2, "line break inside a field")
    return records
