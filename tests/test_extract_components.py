"""Data-driven tests of each extraction component and of linking end to end."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from conftest import read_cases
from specextract import extract
from specextract.extract.mentions import find_chips, find_keywords
from specextract.normalize.text import normalize
from specextract.extract.quantities import find_quantities


def _decode(text: str) -> str:
    return text.replace("\\n", "\n")


QUANTITIES = read_cases("quantities.tsv")


@pytest.mark.parametrize("case", QUANTITIES, ids=[c["id"] for c in QUANTITIES])
def test_quantities(case):
    text = normalize(case["text"]).text
    found = [f"{q.value.normalize():f} {q.dimension} {q.written}".strip()
             for q in find_quantities(text)]
    expected = [e.strip() for e in case.get("expected", "").split(";") if e.strip()]
    assert found == [str(Decimal(e.split()[0]).normalize()) + e[len(e.split()[0]):]
                     for e in expected] or found == expected


CHIPS = read_cases("chips.tsv")


@pytest.mark.parametrize("case", CHIPS, ids=[c["id"] for c in CHIPS])
def test_chips(case):
    text = normalize(case["text"]).text
    found = [m.entity + (f"@{m.variant}" if m.variant else "") for m in find_chips(text)]
    expected = [e.strip() for e in case.get("expected", "").split(";") if e.strip()]
    assert found == expected


KEYWORDS = read_cases("keywords.tsv")


def _marks(case):
    reason = case.get("xfail", "")
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"], marks=_marks(c)) for c in KEYWORDS])
def test_keywords(case):
    text = normalize(case["text"]).text
    found = [k.attribute for k in find_keywords(text)]
    expected = [e.strip() for e in case.get("expected", "").split(";") if e.strip()]
    assert found == expected


def _claim_keys(text: str) -> set[str]:
    keys = set()
    for c in extract(text):
        value = f"{c.value.normalize():f}"
        keys.add(f"{c.entity}|{c.attribute}|{value}")
        if c.attribute == "speedup":
            keys.add(f"{c.entity}|speedup|{value}|{c.baseline}|{c.metric}")
    return keys


def _items(cell: str) -> list[str]:
    out = []
    for item in filter(None, (i.strip() for i in cell.split(" ; "))):
        parts = item.split("|")
        parts[2] = f"{Decimal(parts[2]).normalize():f}"
        out.append("|".join(parts))
    return out


EXTRACT = read_cases("extract.tsv")


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"], marks=_marks(c)) for c in EXTRACT])
def test_extract_links(case):
    keys = _claim_keys(_decode(case["text"]))
    for item in _items(case.get("expect", "")):
        assert item in keys, f"missing {item}; got {sorted(keys)}"
    for item in _items(case.get("reject", "")):
        if item.count("|") == 4 and item.endswith("|"):  # speedup, any metric
            assert not any(k.startswith(item[:-1]) for k in keys), f"unwanted {item}"
        else:
            assert item not in keys, f"unwanted {item}; got {sorted(keys)}"


def test_claim_offsets_point_at_the_original():
    original = "輝達A100顯(xiǎn)示卡的記憶體頻寬為２ＴＢ／ｓ，電晶體540億個。"
    claims = extract(original, doc_id="d")
    assert claims
    for c in claims:
        assert original[c.start:c.end] == c.surface
        assert c.doc_id == "d"


pieces = st.sampled_from(["A100", "V100", "H100的", "FP32", "19.5 TFLOPS", "80GB", "显存带宽",
                          "2TB/s", "是前代V100的5倍", "，", "。", "\n", "| A100 | V100 |",
                          "| FP16 | 312 | 125 |", "計(jì)算", "第三代", "540億", "1.9–2.0"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(pieces, st.text(max_size=5)), max_size=25).map("".join))
def test_extract_never_raises_and_surfaces_match(text):
    for c in extract(text):
        assert text[c.start:c.end] == c.surface
        assert c.start <= c.end


def test_every_claim_says_how_its_chip_was_found():
    from specextract.extract.drafts import LINKS
    text = ("| 规格 | A100 | H100 |\n|---|---|---|\n| FP32 | 19.5 TFLOPS | 67 TFLOPS |\n\n"
            "H100的80GB显存，带宽3.35TB/s。它的功耗为700W。\n\n另一段：TDP 为 400W。\n")
    claims = extract(text)
    links = {(c.entity, c.attribute, float(c.value)): c.link for c in claims}
    assert all(c.link in LINKS for c in claims)
    assert links[("A100", "fp32", 19.5)] == "table-column"
    assert links[("H100", "memory_size", 80)] == "possessive"
    assert links[("H100", "memory_bandwidth", 3350)] == "sentence"     # another clause
    assert links[("H100", "tdp", 700)] in ("pronoun", "topic")
    assert links[("H100", "tdp", 400)] == "topic-far"                # another paragraph
    assert all("link" in c.as_row() for c in claims)


def test_a_label_between_two_figures_parts_a_dense_sparse_pair():
    """'121 TFLOPS FP16 / 242 TFLOPS': FP16 is the first figure's label, so the two are no
    dense / sparse pair and the second is not an FP16 figure."""
    claims = {c.value: c for c in extract("L4 标称约 121 TFLOPS FP16 / 242 TFLOPS（张量）。")}
    assert claims[Decimal("121")].attribute == "fp16"
    assert "dense" not in claims[Decimal("121")].qualifier.split(";")
    assert claims[Decimal("242")].attribute != "fp16"
    assert "sparse" not in claims[Decimal("242")].qualifier.split(";")
    paired = {c.value: c for c in extract("A100 的 TF32 算力为 156 / 312 TFLOPS。")}
    assert (paired[Decimal("156")].qualifier, paired[Decimal("312")].qualifier) == ("dense", "sparse")
