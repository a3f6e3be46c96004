"""The bundled reference table loads and answers lookups; broken tables fail loudly,
naming the file, the 1-based line and the problem."""
from __future__ import annotations

import hashlib
from decimal import Decimal
from pathlib import Path

import pytest

from specextract.lexicon.files import data_path
from specextract.errors import DataFileError, SpecExtractError
from specextract.check.reference import ReferenceTableError, attribute_specs, load_reference
from specextract.check.rules import parse_ratio
from specextract.codebook import ATTRIBUTES

HEADER = "chip,variant,attribute,value,unit,condition,source,confidence"
GOOD = [
    "NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,non-tensor,vendor blog,high",
    "NVIDIA A100,40GB PCIe,fp16_tensor,312,TFLOPS,dense; 624 sparse,vendor blog,high",
    "NVIDIA H200,SXM 141GB,tf32_tensor,989,TFLOPS,sparse (dense 494.5),vendor page,high",
    "NVIDIA A100,40GB PCIe,fp8_tensor,not supported,text,no FP8 on Ampere,vendor blog,high",
    "NVIDIA A100,40GB PCIe,tensor_core_generation,3rd,text,,vendor blog,high",
]


def write_table(folder: Path, lines: list[str], header: str = HEADER) -> Path:
    path = folder / "specs.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


# ---- the bundled table ------------------------------------------------------------------

def test_default_table_loads_with_its_version() -> None:
    ref = load_reference()
    data = data_path("reference/specs.csv").read_bytes()
    assert ref.version == hashlib.sha256(data).hexdigest()
    assert len(ref.rows) > 1000 and len(ref.marketing) > 40
    assert load_reference() is ref  # cached


def test_mapping_reaches_every_codebook_attribute() -> None:
    mapped = {s.codebook_attribute for group in attribute_specs().values() for s in group}
    # compute and speedup are derived by the checker, never read from a single row
    assert set(ATTRIBUTES) - {"compute", "speedup"} <= mapped
    rows = {r.attribute for r in load_reference().rows}
    assert set(ATTRIBUTES) - {"compute", "speedup"} <= rows


ENTITIES = [("NVIDIA A100", "A100"), ("NVIDIA GeForce RTX 4090", "RTX 4090"),
            ("AMD Instinct MI300X", "MI300X"), ("Huawei Ascend 910B", "Ascend 910B"),
            ("Tesla Dojo D1", "Dojo D1"), ("Google TPU v4", "TPU v4"), ("NVIDIA Tesla K80", "K80"),
            ("NVIDIA Titan RTX", "Titan RTX"), ("NVIDIA GeForce RTX 4090 D", "RTX 4090 D")]


@pytest.mark.parametrize("chip, entity", ENTITIES, ids=[e for _, e in ENTITIES])
def test_chip_names_become_codebook_entities(chip: str, entity: str) -> None:
    ref = load_reference()
    assert ref.knows(entity)
    assert {r.chip for r in ref.rows if r.entity == entity} == {chip}


def test_lookup_maps_attributes_and_qualifiers() -> None:
    rows = load_reference().lookup("a100", "fp16")  # case-insensitive
    by_kind = {(frozenset(r.qualifiers), r.value) for r in rows}
    assert (frozenset({"non-tensor", "dense"}), Decimal(78)) in by_kind
    assert (frozenset({"tensor", "dense"}), Decimal(312)) in by_kind
    assert (frozenset({"tensor", "sparse"}), Decimal(624)) in by_kind
    row = next(r for r in rows if r.value == 312)
    assert (row.entity, row.chip, row.attribute, row.unit) == ("A100", "NVIDIA A100", "fp16", "TFLOPS")
    assert row.source and row.confidence == "high" and row.line > 1


def test_preliminary_and_not_supported_rows_are_flagged() -> None:
    ref = load_reference()
    early = [r for r in ref.lookup("H100", "fp32") if r.preliminary]
    assert {(r.variant, r.value) for r in early} == {("SXM5 80GB", 60), ("PCIe 80GB", 48)}
    assert all(r.condition.startswith("preliminary") for r in early)
    absent = ref.lookup("A100", "fp8")
    assert absent and all(r.not_supported and r.value is None for r in absent)


ADDED = [("P100", "sm_count", 56), ("V100", "sm_count", 80), ("A100", "sm_count", 108),
         ("H100", "sm_count", 132), ("H100", "sm_count", 114), ("RTX 4090", "sm_count", 128),
         ("A100", "l2_cache", 40), ("V100", "l2_cache", 6), ("H100", "l2_cache", 50),
         ("P100", "l2_cache", 4), ("RTX 4090", "l2_cache", 72), ("V100", "boost_clock", 1530),
         ("A100", "boost_clock", 1410), ("P100", "boost_clock", 1480), ("H100", "boost_clock", 1980),
         ("A100", "memory_bus_width", 5120), ("V100", "memory_bus_width", 4096),
         ("H100", "memory_bus_width", 5120), ("RTX 4090", "memory_bus_width", 384)]


@pytest.mark.parametrize("entity, attribute, value", ADDED,
                         ids=[f"{e}-{a}-{v}" for e, a, v in ADDED])
def test_added_rows_are_sourced(entity: str, attribute: str, value: int) -> None:
    rows = [r for r in load_reference().lookup(entity, attribute) if r.value == value]
    assert rows and all(r.source and r.confidence in {"high", "medium", "low"} for r in rows)


RATIOS = [("up to 20x", ("20",)), ("2.5x (5x sparse)", ("2.5", "5")), ("~6x", ("6",)),
          ("+73% (1.7x)", ("1.73", "1.7")), ("~90%", ("0.9",)), ("1.7x / 3.4x / 6.8x", ("1.7", "3.4", "6.8"))]


@pytest.mark.parametrize("text, values", RATIOS, ids=[t for t, _ in RATIOS])
def test_parse_ratio(text: str, values: tuple[str, ...]) -> None:
    assert parse_ratio(text) == tuple(Decimal(v) for v in values)


def test_marketing_ratios_resolve_entities() -> None:
    ratios = load_reference().ratios("V100", "P100")
    assert Decimal(12) in {v for r in ratios for v in r.values}
    assert all(r.source for r in ratios)


# ---- small tables written for the test ----------------------------------------------------

def test_values_written_in_conditions_count_as_rows(tmp_path: Path) -> None:
    ref = load_reference(write_table(tmp_path, GOOD))
    assert {(r.value, "dense" in r.qualifiers) for r in ref.lookup("H200", "tf32")} == {
        (Decimal(989), False), (Decimal("494.5"), True)}
    sparse = [r for r in ref.lookup("A100", "fp16") if "sparse" in r.qualifiers]
    assert [r.value for r in sparse] == [Decimal(624)] and sparse[0].derived == "condition"
    assert [r.value for r in ref.lookup("A100", "tensor_core_gen")] == [Decimal(3)]
    assert ref.ratios("A100", "V100") == ()  # no marketing_ratios.csv beside this table


def test_folder_path_and_marketing_ratios(tmp_path: Path) -> None:
    write_table(tmp_path, GOOD + ["NVIDIA V100,SXM2 16GB,fp32,15.7,TFLOPS,,blog,high"])
    (tmp_path / "marketing_ratios.csv").write_text(
        "subject,baseline,ratio,condition,source\nA100 (FP16 Tensor),V100,2.5x (5x sparse),peak,blog\n",
        encoding="utf-8")
    ref = load_reference(tmp_path)
    assert [r.values for r in ref.ratios("A100", "V100")] == [(Decimal("2.5"), Decimal(5))]
    assert ref.ratios_version
    # entities are resolved against the table's own chips: "H100" is not in this table
    assert ref.marketing[0].baseline_entity == "V100"


BROKEN = [
    # id, lines after the header (or a replacement header), line of the problem, problem text
    ("missing_column", None, 1, "missing columns ['confidence']"),
    ("text_for_number", ["NVIDIA A100,40GB PCIe,fp32,fast,TFLOPS,,blog,high"], 7, "is not a number"),
    ("unknown_attribute", ["NVIDIA A100,40GB PCIe,warp_speed,9,count,,blog,high"], 7, "unknown attribute"),
    ("unknown_unit", ["NVIDIA A100,40GB PCIe,fp32,19.5,furlongs,,blog,high"], 7, "unknown unit"),
    ("unit_wrong_for_attribute", ["NVIDIA A100,40GB PCIe,fp32,19.5,GB,,blog,high"], 7, "not allowed for fp32"),
    ("contradictory_duplicate", ["NVIDIA A100,40GB PCIe,fp32,20,TFLOPS,non-tensor,blog,high"], 7,
     "contradicts line 2"),
    ("tensor_condition_without_dense_or_sparse",
     ["NVIDIA A100,40GB PCIe,bf16_tensor,312,TFLOPS,peak,blog,high"], 7, "must start with 'dense'"),
    ("unbalanced_parentheses", ["NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,(boost,blog,high"], 7,
     "unbalanced parentheses"),
    ("uncomparable_text", ["NVIDIA A100,40GB PCIe,fp8_tensor,maybe,text,,blog,high"], 7,
     "must be 'not supported'"),
    ("bad_confidence", ["NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,x,blog,certain"], 7, "confidence"),
    ("empty_source", ["NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,y,,high"], 7, "empty source"),
    ("blank_line", ["", "NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,z,blog,high"], 7, "empty row"),
    ("line_break_in_field", ['NVIDIA A100,40GB PCIe,fp32,19.5,TFLOPS,"two\nlines",blog,high'], 7,
     "line break inside a field"),
]


@pytest.mark.parametrize("lines, line, problem", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_table_names_file_row_and_problem(tmp_path: Path, lines, line: int, problem: str) -> None:
    if lines is None:
        path = write_table(tmp_path, GOOD, header=HEADER.rsplit(",", 1)[0])
    else:
        path = write_table(tmp_path, GOOD + lines)
    with pytest.raises(ReferenceTableError) as caught:
        load_reference(path)
    err = caught.value
    assert isinstance(err, DataFileError) and isinstance(err, SpecExtractError)
    assert (err.path, err.row) == (str(path), line)
    assert problem in err.problem
    assert str(path) in str(err) and f"row {line}" in str(err) and problem in str(err)


def test_broken_marketing_ratio_names_its_file(tmp_path: Path) -> None:
    write_table(tmp_path, GOOD)
    ratios = tmp_path / "marketing_ratios.csv"
    ratios.write_text("subject,baseline,ratio,condition,source\nA100,V100,a lot,peak,blog\n",
                      encoding="utf-8")
    with pytest.raises(ReferenceTableError) as caught:
        load_reference(tmp_path)
    assert (caught.value.path, caught.value.row) == (str(ratios), 2)
    assert "no 'Nx' or 'N%' figure" in str(caught.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ReferenceTableError) as caught:
        load_reference(tmp_path / "nowhere.csv")
    assert "cannot read" in str(caught.value)


# ---- Tensor Core generations written in a condition -------------------------------------

GENERATIONS = [
    # id, reference attribute, condition, generations read (codebook: a value written only
    # in a row's condition counts as a row; only the chip's own figures)
    ("ordinal_gen", "tensor_cores", "3rd gen", {3}),
    ("word_generation", "tensor_cores", "third-generation", {3}),
    ("chinese", "tensor_cores", "第三代", {3}),
    ("named_on_other_row", "memory_type", "third-generation Tensor Cores", {3}),
    ("bare_on_other_row", "memory_type", "3rd gen", set()),
    ("with_aside", "tensor_cores", "2nd gen (Turing)", {2}),
    ("own_label", "tensor_cores", "RTX A6000: 3rd gen", {3}),
    ("rt_cores", "tensor_cores", "3rd-gen RT cores", set()),
    ("transformer_engine", "tensor_cores", "2nd-gen Transformer Engine", set()),
    ("nvlink", "tensor_cores", "third-gen NVLink", set()),
    ("another_card", "tensor_cores", "A100: 4th gen", set()),
    ("another_card_aside", "tensor_cores", "3rd gen (A100: 4th gen)", {3}),
    ("unknown_card_label", "tensor_cores", "A40's 4th gen", set()),
    ("another_die", "tensor_cores", "GA100 4th gen", set()),
    ("another_source", "tensor_cores", "product page lists 4th gen", set()),
    ("another_source_aside", "tensor_cores", "3rd gen; another source says 4th gen", {3}),
    ("conflict", "tensor_cores", "3rd gen; conflicting report of 4th gen", set()),
    ("either", "tensor_cores", "3rd or 4th gen", set()),
    ("slash", "tensor_cores", "3rd/4th gen", set()),
    ("preliminary_clause", "tensor_cores", "3rd gen; preannouncement said 4th gen", {3}),
    ("preliminary_row", "tensor_cores", "preliminary (GTC); 4th gen", set()),
    ("base_clock", "tensor_cores", "4th gen at base clock", set()),
    ("own_source", "tensor_cores", "3rd gen, as stated with the cuda_cores figure in this source", {3}),
]


@pytest.mark.parametrize("attribute, condition, wanted", [g[1:] for g in GENERATIONS],
                         ids=[g[0] for g in GENERATIONS])
def test_generation_written_in_condition(tmp_path: Path, attribute: str, condition: str,
                                         wanted: set[int]) -> None:
    value, unit = ("336", "count") if attribute == "tensor_cores" else ("GDDR6", "text")
    quoted = '"' + condition.replace('"', '""') + '"'
    ref = load_reference(write_table(tmp_path, GOOD + [
        f"NVIDIA RTX A6000,PCIe 48GB,{attribute},{value},{unit},{quoted},blog,high"]))
    rows = ref.lookup("RTX A6000", "tensor_core_gen")
    assert {int(r.value) for r in rows} == wanted
    assert all(not r.preliminary and r.derived for r in rows)
