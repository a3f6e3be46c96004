"""The worst wrong figures ``run`` ends with: grouped per figure, ranked by distance."""
from __future__ import annotations

from specextract.codebook import CONTRADICTED, SUPPORTED
from specextract.output.worst import severity, worst_figures, worst_text
from specextract.store.db import Store


def _claim(entity, value, expected, verdict=CONTRADICTED, diagnosis="", baseline=""):
    return {"entity": entity, "attribute": "fp32", "value": value, "unit": "TFLOPS",
            "baseline": baseline, "verdict": verdict, "expected": expected,
            "diagnosis": diagnosis}


def _store(docs: dict[str, list[dict]]) -> Store:
    store = Store.in_memory()
    for n, (path, rows) in enumerate(docs.items()):
        doc = {"path": path, "doc_id": f"d{n}", "status": "ok", "pipeline_version": "t"}
        rows = [{**row, "doc_id": doc["doc_id"]} for row in rows]
        store.put_document(doc, rows)
        store.put_verdicts(path, rows, "r", "c")
    return store


def test_one_line_per_figure_with_its_documents_and_first_diagnosis():
    store = _store({
        "a.txt": [_claim("A100", "15", "19.5", diagnosis="misattributed: first"),
                  _claim("A100", "19.5", "19.5", verdict=SUPPORTED)],
        "b.txt": [_claim("A100", "15", "19.5", diagnosis="misattributed: second"),
                  _claim("A100", "15", "19.5", diagnosis="misattributed: third")],
        "c.txt": [_claim("V100", "150", "15.7", diagnosis="magnitude: 10x too large")],
    })
    figures, total = worst_figures(store)
    assert total == 4
    assert [(f.entity, f.value, f.documents) for f in figures] == [("V100", "150", 1),
                                                                     ("A100", "15", 2)]
    assert figures[1].diagnosis == "misattributed: first"


def test_ties_go_to_more_documents_then_chip_then_first_seen():
    store = _store({
        "a.txt": [_claim("B", "2", "1"), _claim("A", "2", "1"),
                  _claim("A", "0.5", "1"), _claim("C", "4", "2")],
        "b.txt": [_claim("C", "4", "2"), _claim("A", "2", "1", baseline="V100")],
    })
    figures, _ = worst_figures(store, 10)
    assert [(f.entity, f.value, f.documents) for f in figures] == [
        ("C", "4", 2), ("A", "2", 1), ("A", "0.5", 1), ("A", "2", 1), ("B", "2", 1)]
    assert severity("2", "1") == severity("0.5", "1") > 0
    assert severity("2", "") == 0.0


def test_a_store_without_wrong_figures_says_so():
    store = _store({"a.txt": [_claim("A100", "19.5", "19.5", verdict=SUPPORTED)]})
    assert worst_figures(store) == ([], 0)
    assert worst_text(store, "x.db") == "no wrong figures found"
