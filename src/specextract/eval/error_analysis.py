"""What an evaluation got wrong, and where: layouts, false alarms, grouped errors.

Input: a :class:`~specextract.evaluate.Matching`, the documents' original texts and, for
each predicted row, its claim (offsets and link evidence). Output: plain data and text.

* ``line_layout`` tells a table or spec-list line from prose, so that recall and
  precision can be given for each (a matched or spurious claim by its own offsets, a
  missed one where its surface first stands in the text);
* ``accusations`` scores the ``contradicted`` verdicts: how many of the predicted ones
  the gold also calls contradicted (a false alarm is an accusation the text never made),
  and how many of the gold's were flagged;
* ``error_groups`` lists every missed and spurious claim with its context line and a
  short guess at the cause, grouped by cause, so that an error analysis takes minutes.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Mapping

from ..lexicon.lexicon import Lexicon, lexicon_or_default
from .evaluate import deviation
from .gold import ClaimRow, norm_name
from ..codebook import CONTRADICTED
from ..decimaltext import format_decimal
from ..extract.segment import PROSE_LINE, TABLE_LINE, line_layout

TABLE, PROSE = TABLE_LINE, PROSE_LINE
CONTEXT = 110          # characters of context shown around an error


def _line_at(text: str, pos: int) -> tuple[int, str]:
    """(1-based line number, the line) of position ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text.count("\n", 0, pos) + 1, text[start:len(text) if end < 0 else end]


def locate(text: str, row: ClaimRow) -> int:
    """Where a gold claim's surface stands: the occurrence whose line names its chip,
    else the first; -1 when the surface is not in the text."""
    first = text.find(row.surface) if row.surface else -1
    pos, chip = first, norm_name(row.entity)
    while pos >= 0:
        _, line = _line_at(text, pos)
        if chip and chip in norm_name(line):
            return pos
        pos = text.find(row.surface, pos + 1)
    return first


@dataclass(frozen=True)
class Placed:
    """A claim row with where it stands: position in its document (-1 unknown), layout,
    line number, the line, and (predictions) how its chip was found."""

    row: ClaimRow
    pos: int
    layout: str
    line_no: int
    line: str
    link: str = ""


def place(row: ClaimRow, texts: Mapping[str, str], pos: int | None = None,
          link: str = "") -> Placed:
    text = texts.get(row.doc_id, "")
    if pos is None:
        pos = locate(text, row)
    if pos < 0 or not text:
        return Placed(row, -1, PROSE, 0, "", link)
    line_no, line = _line_at(text, pos)
    return Placed(row, pos, line_layout(line), line_no, line, link)


# --- scores ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Accusations:
    """The contradicted verdicts: ``flagged`` predicted, ``right`` of them matched to a
    gold contradicted claim; ``gold`` contradicted gold claims."""

    flagged: int
    right: int
    gold: int

    @property
    def caught(self) -> int:
        """Gold contradicted claims flagged: the pairs both sides call contradicted."""
        return self.right

    @property
    def precision(self) -> float | None:
        return self.right / self.flagged if self.flagged else None

    @property
    def recall(self) -> float | None:
        return self.caught / self.gold if self.gold else None


def accusations(matching) -> Accusations:
    pairs = matching.pairs
    right = sum(1 for p in pairs if p.pred.verdict == CONTRADICTED == p.gold.verdict)
    flagged = right + sum(1 for p in pairs if p.pred.verdict == CONTRADICTED != p.gold.verdict) \
        + sum(1 for r in matching.false_positives if r.verdict == CONTRADICTED)
    gold = sum(1 for p in pairs if p.gold.verdict == CONTRADICTED) \
        + sum(1 for r in matching.missed if r.verdict == CONTRADICTED)
    return Accusations(flagged, right, gold)


def layout_outcomes(matching, texts: Mapping[str, str],
                    where: Mapping[int, tuple[int, str]]) -> list[tuple[str, str]]:
    """(layout, tp/fp/fn) for every outcome; ``where`` maps id(pred row) -> (start, link)."""
    out = []
    for p in matching.pairs:
        out.append((place(p.pred, texts, where.get(id(p.pred), (None,))[0]).layout, "tp"))
    for r in matching.false_positives:
        out.append((place(r, texts, where.get(id(r), (None,))[0]).layout, "fp"))
    for r in matching.missed:
        out.append((place(r, texts).layout, "fn"))
    return out


# --- error groups ---------------------------------------------------------------------

def hints(lexicon: Lexicon | None = None) -> list[tuple[re.Pattern, str]]:
    """Context words that suggest why a figure is no claim (data/error_hints.tsv)."""
    return lexicon_or_default(lexicon).built(_build_hints)


def _build_hints(lex: Lexicon) -> list[tuple[re.Pattern, str]]:
    rows = lex.rows("error_hints.tsv")
    return [(re.compile(r["pattern"], re.IGNORECASE), r["hint"]) for r in rows]


def _close(a: Decimal, b: Decimal, tol: Decimal = Decimal("0.005")) -> bool:
    """Within the matching tolerance, as :func:`evaluate.deviation` measures it."""
    dev = deviation(a, b)
    return dev is not None and dev <= tol


def _mixed_up(row: ClaimRow, others: list[ClaimRow], row_is_gold: bool, says: str) -> str:
    """The field another row with ``row``'s figure differs in (chip, then attribute or
    baseline), as "chip: {says} X"; "" when no row has the figure. Figures compare as
    prediction against gold."""
    def close(o: ClaimRow) -> bool:
        return _close(o.value, row.value) if row_is_gold else _close(row.value, o.value)
    for o in others:
        if o.attribute == row.attribute and close(o) \
                and norm_name(o.entity) != norm_name(row.entity):
            return f"chip: {says} {o.entity}"
    for o in others:
        if norm_name(o.entity) == norm_name(row.entity) and close(o):
            if o.attribute != row.attribute:
                return f"attribute: {says} {o.attribute}"
            return f"baseline: {says} {o.baseline or '(none)'}"
    return ""


def _why_missed(g: ClaimRow, preds: list[ClaimRow], layout: str) -> str:
    mixed = _mixed_up(g, preds, True, "read as")
    if mixed:
        return mixed
    if g.attribute == "speedup":
        return "speed-up not read"
    if any(norm_name(p.entity) == norm_name(g.entity) and p.attribute == g.attribute
           for p in preds):
        return "value: read another figure"
    return f"not read ({layout})"


def _why_spurious(p: Placed, golds: list[ClaimRow]) -> str:
    mixed = _mixed_up(p.row, golds, False, "gold has")
    if mixed:
        return mixed
    for pattern, hint in hints():
        if pattern.search(p.line):
            return f"not a claim? {hint}"
    return f"not in gold ({p.layout})"


@dataclass(frozen=True)
class ErrorItem:
    kind: str        # "missed" or "spurious"
    cause: str
    placed: Placed


def error_groups(matching, texts: Mapping[str, str],
                 where: Mapping[int, tuple[int, str]]) -> dict[str, list[ErrorItem]]:
    """Every missed and spurious claim with a guessed cause, grouped by the cause's head
    ("chip", "attribute", "not read (table)" ...), largest group first."""
    preds: dict[str, list[ClaimRow]] = defaultdict(list)
    golds: dict[str, list[ClaimRow]] = defaultdict(list)
    for p in matching.pairs:
        preds[p.pred.doc_id].append(p.pred)
        golds[p.gold.doc_id].append(p.gold)
    for r in matching.false_positives:
        preds[r.doc_id].append(r)
    for r in matching.missed:
        golds[r.doc_id].append(r)
    items = []
    for g in matching.missed:
        placed = place(g, texts)
        items.append(ErrorItem("missed", _why_missed(g, preds[g.doc_id], placed.layout), placed))
    for r in matching.false_positives:
        start, link = where.get(id(r), (None, ""))
        placed = place(r, texts, start, link)
        items.append(ErrorItem("spurious", _why_spurious(placed, golds[r.doc_id]), placed))
    groups: dict[str, list[ErrorItem]] = defaultdict(list)
    for item in items:
        groups[f"{item.kind}: {item.cause.split(':')[0]}"].append(item)
    return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def _context(p: Placed) -> str:
    """The line around the claim, at most CONTEXT characters, whitespace folded."""
    line = " ".join(p.line.split())
    if len(line) <= CONTEXT:
        return line
    at = max(0, line.find(p.row.surface))
    start = max(0, min(at - CONTEXT // 2, len(line) - CONTEXT))
    return ("…" if start else "") + line[start:start + CONTEXT] + "…"


def render_groups(groups: Mapping[str, list[ErrorItem]]) -> list[str]:
    lines = []
    for title, items in groups.items():
        lines += ["", f"{title} ({len(items)})"]
        for item in items:
            r, p = item.placed.row, item.placed
            link = f" [{p.link}]" if p.link else ""
            lines.append(f"  {r.doc_id}:{p.line_no}  {r.entity} {r.attribute} "
                         f"{format_decimal(r.value)}{' vs ' + r.baseline if r.baseline else ''}"
                         f"  «{r.surface}»  {item.cause}{link}")
            lines.append(f"      {_context(p)}")
    return lines


def render_summary(acc: Accusations, layouts: Iterable[tuple[str, str]]) -> list[str]:
    """The contradicted verdicts' precision and recall, and P/R/F1 per layout."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0})
    for layout, outcome in layouts:
        counts[layout][outcome] += 1

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    lines = ["", "contradicted verdicts (an accusation the gold does not make is a false alarm)",
             f"  flagged {acc.flagged}, right {acc.right}: precision {pct(acc.precision)}; "
             f"gold contradicted {acc.gold}, caught {acc.caught}: recall {pct(acc.recall)}",
             "", "claims by layout (tables and spec lists vs prose)",
             "  layout    tp   fp   fn  precision  recall     f1"]
    for layout in (TABLE, PROSE):
        c = counts[layout]
        tp, fp, fn = c["tp"], c["fp"], c["fn"]
        p = tp / (tp + fp) if tp + fp else None
        r = tp / (tp + fn) if tp + fn else None
        f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None
        lines.append(f"  {layout:<7} {tp:>4} {fp:>4} {fn:>4}  {pct(p):>9}  {pct(r):>6}  {pct(f):>5}")
    return lines
