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
        "c.txt": [_claim("V100", "150", "15.7", diagnosis="magnitude: 10x too large"),
                  _claim("V100", "150", "15.7", diagnosis="magnitude: 10x too large")],
    })
    figures, total = worst_figures(store)
    assert total == 5   # (V100's 150 twice in one document: one document)
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


def test_the_report_pass_tallies_the_same_figures_as_the_store_gives(tmp_path):
    """run takes the worst figures from the report's pass over the contradicted claims,
    which come chip by chip and kind by kind: a figure whose claims carry two kinds
    still has one line, with the first claim's diagnosis and all its documents."""
    from specextract.check.reference import load_reference
    from specextract.output.report import write_report
    from specextract.output.worst import WorstTally
    store = _store({
        "a.txt": [_claim("A100", "15", "19.5", diagnosis="wrong precision: later kind"),
                  _claim("H100", "30", "60", diagnosis="magnitude: 2x too small")],
        "b.txt": [_claim("A100", "15", "19.5", diagnosis="misattributed: V100's"),
                  _claim("A100", "1.5", "19.5", diagnosis="magnitude: 13x too small")],
        "c.txt": [_claim("H100", "30", "60", diagnosis="magnitude: 2x too small"),
                  _claim("B200", "4.5", "4.5", verdict=SUPPORTED)],
    })
    store.conn.execute("UPDATE claims SET start = 0, end = 2")   # pages draw the spans
    store.conn.execute("UPDATE documents SET text = 'xx'")
    tally = WorstTally(10)
    write_report(store, tmp_path / "report", load_reference(), tally)
    figures, total = worst_figures(store, 10)
    assert (tally.figures(), tally.total) == (figures, total)
    assert total == 5
    assert [(f.entity, f.value, f.documents, f.diagnosis) for f in figures] == [
        ("A100", "1.5", 1, "magnitude: 13x too small"),
        ("H100", "30", 2, "magnitude: 2x too small"),
        ("A100", "15", 2, "wrong precision: later kind")]
    assert worst_text(store, "x.db", tally=tally) == worst_text(store, "x.db", 10)
