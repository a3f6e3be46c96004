"""Score predicted claims against a gold set: pure functions, no I/O, no printing.

``match`` pairs predicted and gold rows one-to-one per document; ``score`` turns the
matching into precision/recall/F1 (overall, per attribute, per script) and verdict
accuracy with a gold->pred confusion table; ``report_to_text`` / ``report_to_json``
render the report. Nothing is dropped silently: unmatched gold claims, false
positives and rows set aside by a document filter are all kept in the result.
"""
from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Mapping

from .gold import ClaimRow, norm_name
from ..decimaltext import format_decimal
from ..codebook import ATTRIBUTES, CODEBOOK_VERSION, SCRIPTS, VERDICTS

UNKNOWN_SCRIPT = "unknown"


@dataclass(frozen=True)
class Pair:
    """A predicted row matched to a gold row; ``deviation`` is |pred-gold|/|gold|."""

    pred: ClaimRow
    gold: ClaimRow
    deviation: float


@dataclass(frozen=True)
class Matching:
    pairs: tuple[Pair, ...]                    # in gold order
    false_positives: tuple[ClaimRow, ...]      # unmatched predictions, in pred order
    missed: tuple[ClaimRow, ...]               # unmatched gold rows, in gold order
    tolerance: float
    excluded_pred: tuple[ClaimRow, ...] = ()   # predictions outside ``docs``
    excluded_gold: tuple[ClaimRow, ...] = ()   # gold rows outside ``docs``


# --- matching ------------------------------------------------------------------------

def _group(row: ClaimRow) -> tuple:
    return (row.doc_id, norm_name(row.entity), row.attribute, norm_name(row.baseline))


def deviation(pred: Decimal, gold: Decimal) -> Decimal | None:
    """Relative deviation of pred from gold; None when gold is zero and pred is not."""
    if gold == 0:
        return Decimal(0) if pred == 0 else None
    return abs(pred - gold) / abs(gold)


def _disagreements(p: ClaimRow, g: ClaimRow) -> int:
    """How many of metric, qualifier and variant a pair disagrees on: among pairs as close in
    value, the one that agrees on more is taken (two "20倍" of one chip over the same
    baseline, one on compute and one with no metric, pair with their own gold rows)."""
    return sum(a.strip().lower() != b.strip().lower() for a, b in (
        (p.metric, g.metric), (p.qualifier, g.qualifier), (p.variant, g.variant)))


def _candidates(pred: list[ClaimRow], gold: list[ClaimRow], tol: Decimal) -> list[tuple]:
    """(deviation, disagreements, gold index, pred index) for every pair that may match."""
    gold_by_group: dict[tuple, list[int]] = defaultdict(list)
    for gi, g in enumerate(gold):
        gold_by_group[_group(g)].append(gi)
    found = []
    for pi, p in enumerate(pred):
        for gi in gold_by_group.get(_group(p), ()):
            dev = deviation(p.value, gold[gi].value)
            if dev is not None and dev <= tol:
                found.append((dev, _disagreements(p, gold[gi]), gi, pi))
    return found


def match(pred: Iterable[ClaimRow], gold: Iterable[ClaimRow], tolerance: float = 0.005,
          docs: Iterable[str] | None = None) -> Matching:
    """Pair predictions with gold claims one-to-one, greedily by smallest deviation (then
    by agreement on metric, qualifier and variant).

    A pair must agree on doc_id, entity and baseline (case- and space-insensitive),
    attribute, and value within ``tolerance`` relative (exact when gold is zero).
    Pairs never cross documents because doc_id is part of the agreement.
    With ``docs``, only those documents are scored; the rest go to ``excluded_*``.
    """
    pred, gold = list(pred), list(gold)
    excluded_pred: tuple[ClaimRow, ...] = ()
    excluded_gold: tuple[ClaimRow, ...] = ()
    if docs is not None:
        keep = set(docs)
        excluded_pred = tuple(r for r in pred if r.doc_id not in keep)
        excluded_gold = tuple(r for r in gold if r.doc_id not in keep)
        pred = [r for r in pred if r.doc_id in keep]
        gold = [r for r in gold if r.doc_id in keep]
    used_gold: dict[int, tuple[int, Decimal]] = {}
    used_pred: set[int] = set()
    for dev, _, gi, pi in sorted(_candidates(pred, gold, Decimal(str(tolerance)))):
        if gi not in used_gold and pi not in used_pred:
            used_gold[gi] = (pi, dev)
            used_pred.add(pi)
    pairs = tuple(Pair(pred[pi], gold[gi], float(dev))
                  for gi, (pi, dev) in sorted(used_gold.items()))
    return Matching(
        pairs=pairs,
        false_positives=tuple(p for i, p in enumerate(pred) if i not in used_pred),
        missed=tuple(g for i, g in enumerate(gold) if i not in used_gold),
        tolerance=tolerance, excluded_pred=excluded_pred, excluded_gold=excluded_gold,
    )


# --- scoring -------------------------------------------------------------------------

def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass(frozen=True)
class Counts:
    """tp/fp/fn; a ratio with a zero denominator is None (undefined), not 0."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float | None:
        """2tp / (2tp + fp + fn): the harmonic mean of P and R, 0 when nothing matched."""
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)


@dataclass(frozen=True)
class Tally:
    n: int = 0
    correct: int = 0

    @property
    def accuracy(self) -> float | None:
        return _ratio(self.correct, self.n)


@dataclass(frozen=True)
class VerdictScore:
    """Verdict agreement on matched pairs where both sides have a verdict."""

    overall: Tally
    unjudged: int                              # matched pairs missing a verdict on a side
    per_verdict: dict[str, Tally]              # by gold verdict
    confusion: dict[str, dict[str, int]]       # gold verdict -> pred verdict -> count
    mismatches: tuple[Pair, ...]               # pairs whose verdicts differ


@dataclass(frozen=True)
class Report:
    tolerance: float
    overall: Counts
    by_attribute: dict[str, Counts]            # attributes seen, in codebook order
    by_script: dict[str, Counts]               # all SCRIPTS (+ unknown) when scripts given
    verdicts: VerdictScore
    missed: tuple[ClaimRow, ...]
    false_positives: tuple[ClaimRow, ...]
    excluded_gold: int = 0
    excluded_pred: int = 0


def _tally(rows: Iterable[tuple[str, str]]) -> dict[str, Counts]:
    """(bucket, outcome) pairs, outcome in tp/fp/fn -> Counts per bucket."""
    acc: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0})
    for bucket, outcome in rows:
        acc[bucket][outcome] += 1
    return {b: Counts(**c) for b, c in acc.items()}


def _outcomes(matching: Matching) -> list[tuple[ClaimRow, str]]:
    return ([(p.gold, "tp") for p in matching.pairs]
            + [(r, "fp") for r in matching.false_positives]
            + [(r, "fn") for r in matching.missed])


def _ordered(counts: dict[str, Counts], order: Iterable[str], always: bool) -> dict[str, Counts]:
    """Buckets in ``order`` (all of them if ``always``, else those seen), then others sorted."""
    order = list(order)
    head = [k for k in order if always or k in counts]
    return {k: counts.get(k, Counts()) for k in head + sorted(set(counts) - set(order))}


def score_verdicts(pairs: Iterable[Pair]) -> VerdictScore:
    confusion = {g: {p: 0 for p in VERDICTS} for g in VERDICTS}
    unjudged, mismatches = 0, []
    for pair in pairs:
        g, p = pair.gold.verdict, pair.pred.verdict
        if not g or not p:
            unjudged += 1
            continue
        confusion[g][p] += 1
        if g != p:
            mismatches.append(pair)
    per = {g: Tally(sum(row.values()), row[g]) for g, row in confusion.items()}
    overall = Tally(sum(t.n for t in per.values()), sum(t.correct for t in per.values()))
    return VerdictScore(overall, unjudged, per, confusion, tuple(mismatches))


def score(matching: Matching, scripts: Mapping[str, str] | None = None) -> Report:
    """Precision/recall/F1 overall, per attribute and (given doc_id -> script) per script."""
    outcomes = _outcomes(matching)
    overall = _tally(("all", o) for _, o in outcomes).get("all", Counts())
    by_attribute = _ordered(_tally((r.attribute, o) for r, o in outcomes), ATTRIBUTES, False)
    by_script: dict[str, Counts] = {}
    if scripts is not None:
        by_script = _ordered(
            _tally((scripts.get(r.doc_id, UNKNOWN_SCRIPT), o) for r, o in outcomes), SCRIPTS, True)
    return Report(
        tolerance=matching.tolerance, overall=overall, by_attribute=by_attribute,
        by_script=by_script, verdicts=score_verdicts(matching.pairs),
        missed=matching.missed, false_positives=matching.false_positives,
        excluded_gold=len(matching.excluded_gold), excluded_pred=len(matching.excluded_pred),
    )


# --- rendering -----------------------------------------------------------------------

def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _counts_dict(c: Counts) -> dict:
    return {"tp": c.tp, "fp": c.fp, "fn": c.fn, "precision": _round(c.precision),
            "recall": _round(c.recall), "f1": _round(c.f1)}


def _tally_dict(t: Tally) -> dict:
    return {"n": t.n, "correct": t.correct, "accuracy": _round(t.accuracy)}


def _row_dict(row: ClaimRow) -> dict:
    return {**row.as_row(), "line": row.line}


def report_to_dict(report: Report) -> dict:
    """The report as plain JSON-ready data with a fixed key layout."""
    v = report.verdicts
    return {
        "codebook_version": CODEBOOK_VERSION,
        "tolerance": report.tolerance,
        "counts": {
            "gold": report.overall.tp + report.overall.fn,
            "predicted": report.overall.tp + report.overall.fp,
            "excluded_gold": report.excluded_gold,
            "excluded_predicted": report.excluded_pred,
        },
        "overall": _counts_dict(report.overall),
        "by_attribute": {k: _counts_dict(c) for k, c in report.by_attribute.items()},
        "by_script": {k: _counts_dict(c) for k, c in report.by_script.items()},
        "verdicts": {
            **_tally_dict(v.overall),
            "unjudged": v.unjudged,
            "per_verdict": {k: _tally_dict(t) for k, t in v.per_verdict.items()},
            "confusion": v.confusion,
            "mismatches": [{"gold": _row_dict(p.gold), "pred": _row_dict(p.pred)}
                           for p in v.mismatches],
        },
        "missed": [_row_dict(r) for r in report.missed],
        "false_positives": [_row_dict(r) for r in report.false_positives],
    }


def report_to_json(report: Report) -> str:
    return json.dumps(report_to_dict(report), ensure_ascii=False, indent=2)


def _width(text: str) -> int:
    """Display width: CJK wide and full-width characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _is_number(cell: str) -> bool:
    return cell == "-" or cell.replace(".", "", 1).isdigit()


def _table(header: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Aligned columns: numeric columns (every non-empty body cell a number) right-aligned."""
    cols = range(len(header))
    widths = [max(_width(r[i]) for r in [header, *rows]) for i in cols]
    right = [i > 0 and all(_is_number(r[i]) for r in rows if r[i]) for i in cols]

    def fmt(cells: list[str]) -> str:
        padded = [(" " * (widths[i] - _width(c)) + c) if right[i] else c + " " * (widths[i] - _width(c))
                  for i, c in enumerate(cells)]
        return (indent + "  ".join(padded)).rstrip()

    return [fmt(header), *(fmt(r) for r in rows)]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _prf_rows(counts: Mapping[str, Counts]) -> list[list[str]]:
    return [[k, str(c.tp), str(c.fp), str(c.fn), _pct(c.precision), _pct(c.recall), _pct(c.f1)]
            for k, c in counts.items()]


def _claim_rows(rows: Iterable[ClaimRow]) -> list[list[str]]:
    return [[r.doc_id, r.entity, r.attribute, format_decimal(r.value), r.unit, r.baseline,
             r.surface, r.verdict, str(r.line or "")] for r in rows]


CLAIM_HEADER = ["doc_id", "entity", "attribute", "value", "unit", "baseline", "surface",
                "verdict", "line"]
PRF_HEADER = ["tp", "fp", "fn", "precision", "recall", "f1"]


def report_to_text(report: Report) -> str:
    """A readable, aligned report: P/R/F1 tables, verdicts, missed and false positives."""
    o, v = report.overall, report.verdicts
    lines = [f"gold {o.tp + o.fn}, predicted {o.tp + o.fp}, matched {o.tp} "
             f"(value tolerance {report.tolerance:.2%})"]
    if report.excluded_gold or report.excluded_pred:
        lines.append(f"outside the scored documents: {report.excluded_gold} gold, "
                     f"{report.excluded_pred} predicted (not scored)")
    lines += ["", "claims"]
    sections = [("overall", {"overall": o}), ("by attribute", report.by_attribute),
                ("by script", report.by_script)]
    rows: list[list[str]] = []
    for title, counts in sections:
        if counts and title != "overall":
            rows.append([f"[{title}]", "", "", "", "", "", ""])
        rows += _prf_rows(counts)
    lines += _table(["scope", *PRF_HEADER], rows)
    lines += ["", f"verdicts on matched pairs: {v.overall.correct}/{v.overall.n} correct, "
                  f"accuracy {_pct(v.overall.accuracy)} ({v.unjudged} matched pairs lacking a verdict on one side, not judged)"]
    lines += _table(["gold \\ pred", *VERDICTS, "n", "accuracy"],
                    [[g, *(str(v.confusion[g][p]) for p in VERDICTS), str(v.per_verdict[g].n),
                      _pct(v.per_verdict[g].accuracy)] for g in VERDICTS])
    for title, claim_rows in (("missed gold claims", report.missed),
                              ("false positives", report.false_positives)):
        lines += ["", f"{title}: {len(claim_rows)}"]
        if claim_rows:
            lines += _table(CLAIM_HEADER, _claim_rows(claim_rows))
    if v.mismatches:
        lines += ["", f"verdict mismatches: {len(v.mismatches)}"]
        lines += _table(["doc_id", "entity", "attribute", "value", "gold", "pred", "line"],
                        [[p.gold.doc_id, p.gold.entity, p.gold.attribute,
                          format_decimal(p.gold.value), p.gold.verdict, p.pred.verdict,
                          str(p.gold.line or "")] for p in v.mismatches])
    return "\n".join(lines) + "\n"
