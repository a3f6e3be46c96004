"""Which values articles claim for each chip and attribute, beside the reference table.

One definition: the store's query (``store.queries.consensus``: one line per chip,
attribute, baseline, metric and value, with the documents and claims stating it and
their verdicts). The report runs it over the run's store; ``consensus(checked_claims)``
runs it over a temporary store holding the given claims. Both add the unit and the
reference's values here (``consensus_lines``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import TYPE_CHECKING

from ..codebook import ATTRIBUTE_UNITS
from ..decimaltext import format_decimal
from ..records import CheckedClaim
from .reference import Reference, load_reference
from .rows import select_rows

if TYPE_CHECKING:  # (pandas is imported where it is used: a batch run never needs it)
    import pandas

CONSENSUS_COLUMNS = ("entity", "attribute", "baseline", "metric", "value", "unit", "documents",
                     "claims", "verdicts", "reference_values")


def consensus_lines(lines: Iterable[dict], reference: Reference) -> Iterator[dict]:
    """The query's lines with ``unit`` and ``reference_values`` (the reference's values
    for the chip and attribute; for a speed-up, the expected ratios of its claims), as
    dicts of CONSENSUS_COLUMNS."""
    ref_values: dict[tuple[str, str], str] = {}
    for line in lines:
        entity, attribute = line["entity"], line["attribute"]
        if attribute == "speedup":
            expected = line["speedup_expected"]
            values = {Decimal(x) for x in expected.split(",")} if expected else set()
            reference_values = "; ".join(format_decimal(v) for v in sorted(values))
        else:
            key = (entity, attribute)
            if key not in ref_values:
                ref_values[key] = "; ".join(format_decimal(v) for v in sorted(
                    {r.value for r in select_rows(reference, entity, attribute).rows
                     if r.value is not None}))
            reference_values = ref_values[key]
        yield {**{c: line.get(c, "") for c in CONSENSUS_COLUMNS},
               "unit": ATTRIBUTE_UNITS.get(attribute, ""), "reference_values": reference_values}


def consensus(checked_claims: Iterable[CheckedClaim],
              reference: Reference | None = None) -> "pandas.DataFrame":
    """The consensus table of ``checked_claims`` (documents told apart by doc_id) as a
    DataFrame of CONSENSUS_COLUMNS. (pandas is imported here only: a batch run never
    needs it.)"""
    import pandas as pd

    from ..store import queries
    from ..store.db import Store
    ref = reference if reference is not None else load_reference()
    by_doc: dict[str, list[dict[str, str]]] = {}
    for item in checked_claims:
        by_doc.setdefault(item.claim.doc_id, []).append(item.as_row())
    store = Store.in_memory()
    try:
        for doc_id, rows in by_doc.items():
            store.put_document({"path": doc_id, "doc_id": doc_id, "status": "ok",
                                "pipeline_version": ""}, rows)
        lines = list(consensus_lines(queries.consensus(store.conn), ref))
    finally:
        store.close()
    return pd.DataFrame(lines, columns=list(CONSENSUS_COLUMNS))
