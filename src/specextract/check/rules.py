"""Pure rules that turn one specs.csv row into checkable figures.

Nothing here reads files. ``reference.py`` feeds each raw row through
``row_problem`` (validation) and ``row_figures`` (the figures the row states, including
the values written only in its condition), and builds the records from them.
Conventions follow reference/NOTES.md: Tensor rows say ``dense``/``sparse`` first,
preliminary figures say ``preliminary`` first, ``not supported`` marks an absent feature.
"""
from __future__ import annotations

from functools import lru_cache

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..lexicon.lexicon import Lexicon, default_lexicon
from ..regex_screens import compile_pattern
from .patterns import (BF16_SAME, CONFLICT, CUES, DENSE_FIGURE, FP32_MATRIX, FUNCTION_WORD,
                       GEN_AFTER, GEN_EN, GEN_ZH, LABEL, ORDINAL_TEXT, ORDINAL_WORDS,
                       OWN_SOURCE, PRELIMINARY_SAID, RATIO_PCT, RATIO_X, REFERENCE_NUMBER,
                       SPACED_DASH, SPARSE_FIGURE, TENSOR_BEFORE, TENSOR_NEXT, TSMC_4N,
                       WORD_NEXT)

CONFIDENCES = frozenset({"high", "medium", "low"})
TEXT_UNIT = "text"
NOT_SUPPORTED = frozenset({"not supported", "none"})
TENSOR, NON_TENSOR, DENSE, SPARSE = "tensor", "non-tensor", "dense", "sparse"
# A Tensor row's condition (after an optional "preliminary ...;" head) starts with one of these.
TENSOR_CONDITION_HEADS = ("dense", "sparse", "listed value, unlabeled")


@dataclass(frozen=True)
class AttrSpec:
    """One line of reference_attributes.tsv."""

    reference_attribute: str
    codebook_attribute: str
    qualifier: str
    unit_factor: Decimal
    units: frozenset[str]


@dataclass(frozen=True)
class Figure:
    """A value a row states for a codebook attribute (``value`` None: not supported)."""

    attribute: str
    qualifiers: frozenset[str]
    value: Decimal | None
    preliminary: bool
    derived: str = ""


def entity_name(chip: str, drop_words: frozenset[str]) -> str:
    """'NVIDIA GeForce RTX 4090' -> 'RTX 4090' (vendor and product-line words dropped)."""
    return " ".join(w for w in chip.split() if w not in drop_words)


@lru_cache(maxsize=4096)
def entity_key(name: str) -> str:
    """Names compare case- and space-insensitively (codebook, Entities)."""
    return "".join(name.split()).casefold()


def to_decimal(text: str) -> Decimal | None:
    """A plain number ('1,979' allowed), or None."""
    try:
        value = Decimal(text.replace(",", "").strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


MAX_DIGITS = 24
ZERO_UNITS = frozenset({"count"})     # a chip may have none of something (RT cores)


def value_problem(text: str, unit: str) -> str | None:
    """Why ``text`` is not a usable reference figure in ``unit`` (a positive, finite
    number as people write it; zero only for counts), or None."""
    plain = text.strip()
    if not REFERENCE_NUMBER.fullmatch(plain):
        return (f"value {text!r} is not a number the table accepts (a positive "
                "number in digits 0-9, an optional decimal point, thousands commas; no sign, "
                "exponent or other "
                f"digits; text is allowed only with unit 'text', not {unit})")
    digits = sum(ch.isdigit() for ch in plain)
    if digits > MAX_DIGITS:
        return f"value of {digits} digits (at most {MAX_DIGITS})"
    if Decimal(plain.replace(",", "")) == 0 and unit not in ZERO_UNITS:
        return f"value {text!r} is zero (a figure in {unit} must be positive)"
    return None


def is_preliminary(condition: str) -> bool:
    return condition.lower().startswith("preliminary")


def condition_body(condition: str) -> str:
    """The condition without its 'preliminary (...);' head."""
    if not is_preliminary(condition):
        return condition.strip()
    return condition.split(";", 1)[1].strip() if ";" in condition else ""


def sparsity(condition: str) -> str:
    body = condition_body(condition).lower()
    return DENSE if body.startswith(DENSE) else SPARSE if body.startswith(SPARSE) else ""


def text_value(text: str) -> tuple[Decimal | None, bool] | None:
    """A text cell as (ordinal value, not_supported), or None when it cannot be compared."""
    text = text.strip().lower()
    if text in NOT_SUPPORTED:
        return None, True
    match = ORDINAL_TEXT.match(text)
    return (Decimal(match.group(1)), False) if match else None


def condition_problem(condition: str, tensor: bool) -> str | None:
    """Why a condition is malformed, or None."""
    if condition != condition.strip():
        return "condition has leading or trailing spaces"
    if condition.count("(") != condition.count(")"):
        return "condition has unbalanced parentheses"
    if tensor and not condition_body(condition).lower().startswith(TENSOR_CONDITION_HEADS):
        return ("Tensor row's condition must start with 'dense', 'sparse' or 'listed value, "
                f"unlabeled' (after an optional 'preliminary ...;' head): {condition!r}")
    return None


def row_problem(row: dict[str, str], specs: tuple[AttrSpec, ...], units: frozenset[str]) -> str | None:
    """Why a raw specs.csv row is unusable, or None."""
    if not any(row.values()):
        return "empty row"
    for column in ("chip", "attribute", "value", "unit", "source", "confidence"):
        if not row[column].strip():
            return f"empty {column}"
    attribute, unit, value = row["attribute"], row["unit"], row["value"]
    if not specs:
        return f"unknown attribute {attribute!r} (not in reference_attributes.tsv)"
    if unit not in units:
        return f"unknown unit {unit!r}"
    allowed = specs[0].units
    if unit not in allowed:
        return f"unit {unit!r} not allowed for {attribute} (allowed: {', '.join(sorted(allowed))})"
    if unit != TEXT_UNIT and (problem := value_problem(value, unit)):
        return problem
    if unit == TEXT_UNIT and any(s.codebook_attribute for s in specs) and text_value(value) is None:
        return (f"text value {value!r} for {attribute} must be 'not supported', 'none' "
                "or an ordinal such as '3rd'")
    if row["confidence"] not in CONFIDENCES:
        return f"confidence {row['confidence']!r} is not high, medium or low"
    tensor = unit != TEXT_UNIT and any(s.qualifier == TENSOR for s in specs)
    return condition_problem(row["condition"], tensor)


def row_figures(row: dict[str, str], spec: AttrSpec) -> list[Figure]:
    """The figures one row states for one codebook attribute: its own value first,
    then values written only in its condition."""
    condition = row["condition"]
    if row["unit"] == TEXT_UNIT:
        value, absent = text_value(row["value"])  # type: ignore[misc]
    else:
        value, absent = to_decimal(row["value"]) * spec.unit_factor, False  # type: ignore[operator]
    quals = {spec.qualifier} if spec.qualifier else set()
    if spec.qualifier == NON_TENSOR:
        quals.add(DENSE)  # plain rows have no sparsity
    elif spec.qualifier == TENSOR and (kind := sparsity(condition)):
        quals.add(kind)
    own = Figure(spec.codebook_attribute, frozenset(quals), value, is_preliminary(condition))
    if absent or own.preliminary:
        return [own]
    return [own, *condition_figures(own, condition, spec)]


def _swap(quals: frozenset[str], add: str) -> frozenset[str]:
    return frozenset((quals - {DENSE, SPARSE}) | {add})


def condition_figures(own: Figure, condition: str, spec: AttrSpec) -> list[Figure]:
    """Values written only in a condition count as rows (codebook, Verdicts)."""
    attr, quals, out = own.attribute, own.qualifiers, []
    num = lambda text: to_decimal(text) * spec.unit_factor  # type: ignore[operator]  # noqa: E731  (the patterns match numbers)
    if spec.qualifier == TENSOR:
        for m in DENSE_FIGURE.finditer(condition):                          # "(dense 494.5)"
            out.append(Figure(attr, _swap(quals, DENSE), num(m.group(1)), False, "condition"))
        for m in SPARSE_FIGURE.finditer(condition):                         # "; 624 sparse"
            out.append(Figure(attr, _swap(quals, SPARSE), num(m.group(1) or m.group(2)), False,
                              "condition"))
    if spec.qualifier:
        for m in PRELIMINARY_SAID.finditer(condition):              # "preannouncement said 15"
            out.append(Figure(attr, quals, num(m.group(1)), True, "condition"))
    if attr == "fp32":
        for m in FP32_MATRIX.finditer(condition):                     # AMD "FP32 matrix = 95.7"
            out.append(Figure(attr, frozenset({TENSOR, DENSE}), num(m.group(1)), False, "condition"))
    if attr == "fp16" and BF16_SAME.search(condition):
        out.append(Figure("bf16", quals, own.value, False, "condition"))
    if attr == "int8" and "INT8/INT4" in condition:
        out.append(Figure("int4", quals, own.value, False, "condition"))
    if attr == "fp64" and spec.qualifier == NON_TENSOR and "FP64 / FP64 Tensor Core" in condition:
        both = frozenset({TENSOR, DENSE})
        out += [Figure("fp64", both, own.value, False, "condition"),
                Figure("fp64_tensor", both, own.value, False, "condition")]
    if attr == "process_node" and TSMC_4N.search(condition):
        # Codebook: a chip on TSMC 4N/4NP is on a 5nm-class node; 4 and 5 nm are both right.
        out.append(Figure(attr, quals, Decimal(5), False, "TSMC 4N/4NP is a 5nm-class node"))
    return out


def parse_ratio(text: str) -> tuple[Decimal, ...]:
    """'up to 20x' -> (20,); '2.5x (5x sparse)' -> (2.5, 5); '+73% (1.7x)' -> (1.73, 1.7);
    '~90%' -> (0.9,)."""
    values = [Decimal(m.group(1)) for m in RATIO_X.finditer(text)]
    for m in RATIO_PCT.finditer(text):
        pct = Decimal(m.group(2)) / 100
        values.insert(0, 1 + pct if m.group(1) == "+" else 1 - pct if m.group(1) == "-" else pct)
    return tuple(dict.fromkeys(values))


# ---- Tensor Core generations written in a condition ("3rd gen", "third-generation", "第三代") ----

GENERATION = "tensor_core_gen"
# Reference attributes whose conditions speak of the Tensor Cores themselves: a bare
# "3rd gen" there is their generation. Elsewhere the ordinal must name Tensor Cores.
TENSOR_CORE_ATTRIBUTES = frozenset({"tensor_cores", "tensor_core_generation"})


def dies(lex: Lexicon) -> tuple[dict[str, str], re.Pattern | None]:
    """(die name, lower case -> chip, a pattern finding them): the aliases chips.tsv marks
    with the note ``die`` (codebook, Entities: GA100 is the A100), built once per lexicon."""
    table = {r["alias"].casefold(): r["entity"] for r in lex.rows("chips.tsv")
             if r.get("note", "").strip() == "die"}
    if not table:
        return table, None
    names = "|".join(re.escape(n) for n in sorted(table, key=len, reverse=True))
    return table, compile_pattern(rf"(?<![\w])(?:{names})(?![\w])", re.IGNORECASE)


_ORDINAL_WORDS = {w: i for i, w in enumerate(ORDINAL_WORDS, 1)}
_ZH_DIGITS = {c: i for i, c in enumerate("一二三四五六七八九", 1)}
_OPENERS, _CLOSERS = "([（【", ")]）】"
_SEPARATORS = ";,；，。、"


def _segments(text: str) -> list[tuple[str, str]]:
    """A condition cut into clauses: (clause, lead). Separators (; , 。 and spaced dashes)
    end a clause; a parenthesis is a clause of its own, with ``lead`` the text of the clause
    it sits in up to the opening bracket (its own text keeps a blank in its place)."""
    text = SPACED_DASH.sub(";", text)
    stack: list[tuple[list[list[str]], str]] = [([[]], "")]
    out: list[tuple[str, str]] = []
    for ch in text:
        clauses = stack[-1][0]
        if ch in _OPENERS:
            lead = "".join(clauses[-1])
            clauses[-1].append(" ")
            stack.append(([[]], lead))
        elif ch in _CLOSERS and len(stack) > 1:
            done, lead = stack.pop()
            out += [("".join(c), lead) for c in done]
        elif ch in _SEPARATORS:
            clauses.append([])
        else:
            clauses[-1].append(ch)
    for done, lead in reversed(stack):
        out += [("".join(c), lead) for c in done]
    return [(c, lead) for c, lead in out if c.strip()]


def name_regex(name: str) -> str:
    """A regex of ``name`` as a whole chip name ("A100" not in "A1000" or "GA100-")."""
    return rf"(?<![\w-]){re.escape(name)}(?![\w])"


@lru_cache(maxsize=4)
def _names_pattern(names: frozenset[str]) -> re.Pattern | None:
    """A pattern finding any of ``names`` as a whole word, longest first (None for no
    names); built once per table instead of once per condition."""
    if not names:
        return None
    ordered = sorted(names, key=lambda n: (-len(n), n))   # one source whatever the set's order
    return compile_pattern("|".join(name_regex(n) for n in ordered if n))


def _other_card(text: str, own: frozenset[str], names: frozenset[str]) -> bool:
    """Does the text name a chip other than the row's own: a chip of the table, a codebook
    die (GA100 is the A100), or a model-like label ('A40:', "A40's")?"""
    own_keys = {entity_key(o) for o in own if o}
    known = _names_pattern(names)
    if known is not None and any(entity_key(m.group(0)) not in own_keys
                                 for m in known.finditer(text)):
        return True
    die_chips, die_pattern = default_lexicon().built(dies)
    for die in die_pattern.findall(text) if die_pattern else ():
        if entity_key(die_chips[die.casefold()]) not in own_keys:
            return True
    for m in LABEL.finditer(text):
        label = entity_key(m.group(1))
        if label not in own_keys and not any(k.endswith(label) for k in own_keys) \
                and entity_key(die_chips.get(label, "")) not in own_keys:
            return True
    return False


def _ordinal(match: re.Match) -> int | None:
    groups = match.groupdict()
    if groups.get("num"):
        return int(groups["num"])
    if groups.get("word"):
        return _ORDINAL_WORDS[groups["word"].lower()]
    if groups.get("zh"):
        zh = groups["zh"]
        return int(zh) if zh.isdigit() else _ZH_DIGITS[zh]
    return None


def _clause_ordinals(clause: str, lead: str, tensor_row: bool) -> list[int]:
    """Tensor Core generations a clause states: 'Nth gen' / '第N代' naming Tensor Cores (or
    bare, on a Tensor Core row), or 'Tensor Cores Gen N'. Another noun after the ordinal
    ('3rd-gen RT cores', '2nd-gen Transformer Engine', 'third-gen NVLink') is not one."""
    found = [int(m.group("num")) for m in GEN_AFTER.finditer(clause)]
    for regex in (GEN_EN, GEN_ZH):
        for m in regex.finditer(clause):
            rest = clause[m.end():].lstrip(" -–")
            before = (lead if not clause[:m.start()].strip() else clause[:m.start()])
            if TENSOR_NEXT.match(rest) or TENSOR_BEFORE.search(before):
                named = True
            elif rest and WORD_NEXT.match(rest) and not FUNCTION_WORD.match(rest):
                continue                                   # another component's generation
            else:
                named = False
            value = _ordinal(m)
            if value and (named or tensor_row):
                found.append(value)
    return found


def condition_generations(row: dict[str, str], entity: str,
                          names: frozenset[str] = frozenset()) -> list[Figure]:
    """Tensor Core generations written in a row's condition, as ``tensor_core_gen`` figures
    (codebook: a value written only in a row's condition counts as a row).

    Only the chip's own figures count: nothing from a preliminary or absent row, from a
    condition that reports a conflict, or from a clause that credits the ordinal to another
    card, another source, a preliminary state or a base clock. A clause that gives two
    different generations is ambiguous and gives none. ``names``: every chip name in the
    table, to recognise other cards."""
    condition = row.get("condition", "")
    if "gen" not in condition.lower() and "代" not in condition:
        return []   # every generation pattern needs one of them (most conditions have neither)
    value = row.get("value", "").strip().lower()
    if is_preliminary(condition) or value in NOT_SUPPORTED:
        return []
    if CONFLICT.search(condition):
        return []
    tensor_row = row.get("attribute", "") in TENSOR_CORE_ATTRIBUTES
    own = frozenset({entity, row.get("chip", "")})
    out: list[Figure] = []
    for clause, lead in _segments(condition):
        values = set(_clause_ordinals(clause, lead, tensor_row))
        if len(values) != 1:
            continue
        text = OWN_SOURCE.sub(" ", clause)
        if any(cue.search(text) for cue in CUES.values()) or _other_card(clause, own, names) \
                or _other_card(lead, own, names):
            continue
        out.append(Figure(GENERATION, frozenset(), Decimal(values.pop()), False,
                          "generation written in the condition"))
    return out
