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


def test_a_figure_across_kinds_takes_the_fields_of_its_first_listed_claim():
    """Claims are listed by doc_id, then path, then place: a figure's line shows the
    diagnosis of the first of them (here in b.txt, whose doc_id comes first), whatever
    kind its other claims are, and counts its documents by doc_id."""
    store = Store.in_memory()
    for path, doc_id, rows in (
            ("a.txt", "z", [_claim("A100", "15", "19.5", diagnosis="wrong precision: later"),
                            _claim("H100", "30", "60", diagnosis="magnitude: 2x too small")]),
            ("b.txt", "m", [_claim("B200", "4.5", "4.5", verdict=SUPPORTED),
                            _claim("A100", "15", "19.5", diagnosis="misattributed: V100's")]),
            ("c.txt", "m", [_claim("H100", "30", "60", diagnosis="magnitude: other")])):
        rows = [{**row, "doc_id": doc_id} for row in rows]
        store.put_document({"path": path, "doc_id": doc_id, "status": "ok",
                            "pipeline_version": "t"}, rows)
        store.put_verdicts(path, rows, "r", "c")
    figures, total = worst_figures(store, 10)
    assert total == 4
    assert [(f.entity, f.value, f.documents, f.diagnosis) for f in figures] == [
        ("H100", "30", 2, "magnitude: other"),
        ("A100", "15", 2, "misattributed: V100's")]


def _reckoned(store: Store, n: int) -> tuple[list[tuple], int]:
    """The worst figures reckoned in Python from every contradicted claim as listed."""
    figures: dict[tuple, list] = {}
    cur = store.conn.execute(
        "SELECT entity, attribute, value, baseline, metric, doc_id, unit, expected, "
        "diagnosis FROM claims WHERE verdict = ? ORDER BY doc_id, path, seq", (CONTRADICTED,))
    total = 0
    for i, (entity, attribute, value, baseline, metric, doc_id, unit, expected,
            diagnosis) in enumerate(cur):
        total += 1
        fields = [x or "" for x in (entity, attribute, value, unit, expected, diagnosis)]
        figure = figures.setdefault((entity, attribute, value, baseline, metric),
                                    [i, fields, set()])
        figure[2].add(doc_id or "")
    ranked = sorted(figures.values(), key=lambda f: (-severity(f[1][2], f[1][4]), -len(f[2]),
                                                     f[1][0], f[0]))
    return [(*fields, len(docs)) for _, fields, docs in ranked[:n]], total


def test_the_worst_figures_are_those_reckoned_claim_by_claim():
    import random
    rng = random.Random(7)
    docs = {}
    for d in range(30):
        docs[f"{rng.choice('abc')}{d:02d}.txt"] = [
            _claim(rng.choice(["A100", "H100", "V100"]), rng.choice(["1", "2", "4", "10", "20"]),
                   rng.choice(["2", "4", ""]), verdict=rng.choice([CONTRADICTED] * 3 + [SUPPORTED]),
                   diagnosis=f"magnitude: {d}.{k}", baseline=rng.choice(["", "", "V100"]))
            for k in range(rng.randint(0, 6))]
    store = Store.in_memory()
    for path, rows in docs.items():
        doc_id = f"id{rng.randint(0, 9)}"    # doc_ids shared by several paths, out of path order
        rows = [{**row, "doc_id": doc_id} for row in rows]
        store.put_document({"path": path, "doc_id": doc_id, "status": "ok",
                            "pipeline_version": "t"}, rows)
        store.put_verdicts(path, rows, "r", "c")
    for n in (1, 5, 1000):
        figures, total = worst_figures(store, n)
        expected, expected_total = _reckoned(store, n)
        assert total == expected_total > 0
        assert [(f.entity, f.attribute, f.value, f.unit, f.expected, f.diagnosis, f.documents)
                for f in figures] == expected
