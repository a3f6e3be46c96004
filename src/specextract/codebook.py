"""Names shared by the extractor, checker, exporter, gold loader and tests.

Everything here follows the codebook (docs/CODEBOOK.md): the CSV columns, the
attribute vocabulary with canonical units, the operators, qualifiers and verdicts.
"""
from __future__ import annotations

CODEBOOK_VERSION = "1.2"

# Gold and export columns, in the codebook's order.
CLAIM_COLUMNS: tuple[str, ...] = (
    "doc_id", "entity", "variant", "attribute", "value", "unit", "operator",
    "qualifier", "baseline", "metric", "surface", "verdict", "expected",
)
# Columns the export adds after the codebook's own.
EXTRA_COLUMNS: tuple[str, ...] = (
    "start", "end", "sentence", "link", "precision_exp", "expected_variant",
    "expected_condition", "deviation", "diagnosis", "source", "confidence",
    "self_contradiction",
)
# A claim is unique per document on these.
CLAIM_KEY: tuple[str, ...] = ("doc_id", "entity", "attribute", "value", "baseline", "metric")

# attribute -> canonical unit
ATTRIBUTE_UNITS: dict[str, str] = {
    "fp64": "TFLOPS",
    "fp64_tensor": "TFLOPS",
    "fp32": "TFLOPS",
    "tf32": "TFLOPS",
    "fp16": "TFLOPS",
    "bf16": "TFLOPS",
    "fp8": "TFLOPS",
    "fp4": "TFLOPS",
    "int8": "TOPS",
    "int4": "TOPS",
    "compute": "TFLOPS",
    "memory_size": "GB",
    "memory_bandwidth": "GB/s",
    "memory_bus_width": "bit",
    "l2_cache": "MB",
    "transistors": "count",
    "die_area": "mm2",
    "process_node": "nm",
    "cuda_cores": "count",
    "tensor_cores": "count",
    "sm_count": "count",
    "tensor_core_gen": "ordinal",
    "tdp": "W",
    "boost_clock": "MHz",
    "nvlink_bandwidth": "GB/s",
    "pcie_gen": "ordinal",
    "mig_instances": "count",
    "speedup": "x",
}
ATTRIBUTES: tuple[str, ...] = tuple(ATTRIBUTE_UNITS)

# Precision attributes: judged against plain and Tensor rows of that precision.
PRECISION_ATTRIBUTES: frozenset[str] = frozenset(
    {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "int8", "int4"}
)
THROUGHPUT_ATTRIBUTES: frozenset[str] = PRECISION_ATTRIBUTES | {"fp64_tensor", "compute"}

# the variant of a chip's special edition ("中国特供版Gaudi 3"): a product of its own, judged
# only against reference rows that name it
EDITION_VARIANT = "China edition"
# the variant of a die named as the whole, uncut chip ("完整的 GA100", "the full GH100"): the
# codebook makes the die its product, so its figures are judged against the product's rows,
# and a contradicted one says that the product enables fewer units
FULL_DIE_VARIANT = "full die"

OPERATORS: tuple[str, ...] = ("=", ">=", "<=", "~")
QUALIFIERS: tuple[str, ...] = ("dense", "sparse", "tensor", "non-tensor", "boost")

SUPPORTED = "supported"
APPROXIMATE = "approximate"
CONTRADICTED = "contradicted"
UNVERIFIABLE = "unverifiable"
VERDICTS: tuple[str, ...] = (SUPPORTED, APPROXIMATE, CONTRADICTED, UNVERIFIABLE)

SCRIPTS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en", "mixed")
