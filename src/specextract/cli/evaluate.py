"""``specextract eval``: extraction (and verdicts) against a gold set."""
from __future__ import annotations

import json

import click

from .commands import REFERENCE_OPTION
from .group import cli
from .inputs import checked


@cli.command(name="eval")
@click.option("--gold", "gold_path", required=True, type=click.Path(exists=True, dir_okay=False),
              help="The gold claims CSV (codebook columns, a verdict on every row).")
@click.option("--pred", "pred_path", type=click.Path(exists=True, dir_okay=False),
              help="Score this claims CSV instead of extracting from CORPUS.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Also check the extracted claims, for verdict accuracy.")
@click.option("--scripts", "scripts_path", type=click.Path(exists=True, dir_okay=False),
              help="A TSV naming each document's script (columns file, script), to score "
                   "per script by it instead of the detected script.")
@click.option("--errors", "show_errors", is_flag=True,
              help="List every missed and spurious claim with its line and a guessed cause, "
                   "grouped by cause (needs CORPUS).")
@REFERENCE_OPTION
@click.argument("corpus", required=False, type=click.Path(exists=True, file_okay=False))
def evaluate(gold_path: str, pred_path: str | None, as_json: bool, check: bool,
             scripts_path: str | None, show_errors: bool, reference_path: str | None,
             reference_extra: tuple[str, ...],
             corpus: str | None) -> None:
    """Precision, recall and F1 of extraction against a gold set.

    With CORPUS, also the precision and recall of the contradicted verdicts and the
    scores of table and spec-list lines apart from prose.

    \b
    Example:
      specextract eval --gold gold/claims.csv corpus
      specextract eval --gold gold/claims.csv --errors corpus
      specextract eval --gold dev/gold.csv --scripts dev/SOURCES.tsv dev/corpus
      specextract eval --gold gold/claims.csv --pred out/claims.csv --json
    """
    from ..eval import error_analysis as ea
    from ..eval.evaluate import match, report_to_dict, report_to_text, score
    from ..eval.gold import load_claims_csv, load_gold
    from ..ingest.inputs import iter_input_files
    from ..errors import DocumentError
    from ..rows import gold_row
    gold = load_gold(gold_path)
    scripts: dict[str, str] = {}
    texts: dict[str, str] = {}
    where: dict[int, tuple[int, str]] = {}
    if pred_path:
        pred = load_claims_csv(pred_path)
    elif corpus:
        from ..extract.document import process_file
        records = []
        for path in iter_input_files((corpus,)):
            try:
                result = process_file(path)
            except DocumentError as exc:
                click.echo(f"failed: {exc}", err=True)
                continue
            scripts[result.document.doc_id] = result.normalized.script
            texts[result.document.doc_id] = result.document.text
            records.extend(result.claims)
        if check:
            records = checked(records, reference_path, reference_extra)
        pred = [gold_row(record) for record in records]
        for row, record in zip(pred, records):
            where[id(row)] = (record.start, record.link)
    else:
        raise click.UsageError("give a CORPUS folder or --pred FILE")
    if scripts_path:
        scripts = _read_scripts(scripts_path)
    matching = match(pred, gold, docs={g.doc_id for g in gold})
    report = score(matching, scripts or None)
    accused = ea.accusations(matching)
    layouts = ea.layout_outcomes(matching, texts, where) if texts else []
    groups = ea.error_groups(matching, texts, where) if show_errors and texts else {}
    if as_json:
        data = report_to_dict(report)
        data["contradicted"] = {"flagged": accused.flagged, "right": accused.right,
                                "gold": accused.gold, "precision": accused.precision,
                                "recall": accused.recall}
        if layouts:
            data["by_layout"] = {k: {o: sum(1 for lay, out in layouts if lay == k and out == o)
                                     for o in ("tp", "fp", "fn")} for k in (ea.TABLE, ea.PROSE)}
        if groups:
            data["errors"] = {title: [{"kind": i.kind, "cause": i.cause,
                                       "doc_id": i.placed.row.doc_id, "line": i.placed.line_no,
                                       "surface": i.placed.row.surface, "link": i.placed.link}
                                      for i in items]
                              for title, items in groups.items()}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    text = report_to_text(report)
    extra = ea.render_summary(accused, layouts) if layouts else []
    if show_errors:
        extra += ["", "errors by cause (a guess; the line is the document's)"] + ea.render_groups(groups)
    click.echo(text + "\n".join(extra) + ("\n" if extra else ""), nl=False)


def _read_scripts(path: str) -> dict[str, str]:
    """doc_id -> script from a TSV with columns file and script (the file's stem is the
    doc_id)."""
    import csv
    from pathlib import Path
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows or not {"file", "script"} <= set(rows[0]):
        raise click.UsageError(f"{path}: needs the columns file and script")
    return {Path(r["file"]).stem: r["script"] for r in rows}
