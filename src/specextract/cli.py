"""Command line: a thin shell over the library, one short function per command."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import click

from . import __version__
from .errors import SpecExtractError
from .ingest.read import read_document
from .normalize.text import normalize as normalize_text
from .errors import DocumentError
from .ingest.inputs import iter_input_files
from .codebook import VERDICTS


REFERENCE_OPTION = click.option("--reference", "reference_path", type=click.Path(exists=True),
                                help="Check against this specs.csv (same format as the bundled one).")


class _Group(click.Group):
    """Turns library errors into one clean line and exit status 2 (usage: the error's
    ``exit_code``, e.g. a store that is locked or not a store) or 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecExtractError as exc:
            click.echo(f"specextract: error: {exc}", err=True)
            ctx.exit(getattr(exc, "exit_code", 1))


@click.group(cls=_Group)
@click.version_option(__version__, prog_name="specextract")
def cli() -> None:
    """Extract AI-accelerator spec claims from articles and check them.

    \b
    Example:
      specextract normalize corpus/001_1e411b7903a60609.txt
    """


@cli.command()
@click.argument("file", type=click.Path(dir_okay=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print doc_id, encoding, script, text and to_original.")
def normalize(file: Path, as_json: bool) -> None:
    """Print the normalized text of FILE.

    \b
    Example:
      specextract normalize --json article.txt
    """
    doc = read_document(file)
    norm = normalize_text(doc.text)
    if as_json:
        payload = {"doc_id": doc.doc_id, "path": doc.path, "encoding": doc.encoding,
                   "format": doc.format, "script": norm.script, "text": norm.text,
                   "to_original": norm.to_original.to_list()}
        click.echo(json.dumps(payload, ensure_ascii=False))
    else:
        click.echo(norm.text, nl=not norm.text.endswith("\n"))


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out"), show_default=True,
              help="Folder for the store, claims.csv and report/.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The SQLite store (default: OUT/specextract.db).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run documents in N local processes.")
@click.option("--dask", "dask_address", metavar="local|tcp://HOST:PORT",
              help="Run documents on Dask: a local cluster, or an existing scheduler.")
@click.option("--dask-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True,
              help="With --dask: seconds without any worker before the documents left "
                   "fail as no-workers.")
@click.option("--send-bytes", is_flag=True,
              help="With --dask: send file contents to the workers instead of paths.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only on a terminal).")
@click.option("--max-size", "max_mb", type=click.FloatRange(min=0, min_open=True),
              default=8.0, show_default=True,
              help="Larger files (MiB) fail as too-large without being read.")
@click.option("--timeout", type=click.FloatRange(min=0), default=300.0, show_default=True,
              help="Seconds one document may take before it fails as timeout (0: none; "
                   "not applied on Dask workers).")
@click.option("--follow-symlinks", is_flag=True,
              help="Read symbolic links in input folders that point outside the inputs "
                   "(skipped by default, and named in the summary).")
@click.option("--prune", is_flag=True,
              help="Remove stored documents that these inputs no longer name (deleted "
                   "files), with their claims.")
@REFERENCE_OPTION
def run(inputs: tuple[str, ...], out_dir: Path, db_path: Path | None, workers: int,
        dask_address: str | None, dask_timeout: float, send_bytes: bool,
        progress: bool | None, max_mb: float,
        timeout: float, follow_symlinks: bool, prune: bool,
        reference_path: str | None) -> None:
    """Extract and check INPUTS (files, folders, globs) into a store, claims.csv and a report.

    Incremental: unchanged documents are skipped; exit status 1 if any document failed
    (each is stored and summarised with its reason), 2 on usage errors.

    \b
    Example:
      specextract run corpus --out out
      specextract run corpus --out out --workers 2 --reference my_specs.csv
      specextract run 'articles/**/*.html' --out out --dask local
    """
    from .batch.executors import DaskExecutor, LocalExecutor, PoolExecutor
    from .batch.job import run_job
    if dask_address and workers > 1:
        raise click.UsageError("use --workers or --dask, not both")
    if send_bytes and not dask_address:
        raise click.UsageError("--send-bytes needs --dask")
    if dask_address and dask_address != "local" and "://" not in dask_address:
        raise click.UsageError(f"--dask takes 'local' or a scheduler address like "
                               f"tcp://HOST:PORT, not {dask_address!r}")
    executor = (DaskExecutor(dask_address, send_bytes=send_bytes,
                             no_workers_timeout=dask_timeout) if dask_address else
                PoolExecutor(workers) if workers > 1 else LocalExecutor())
    sys.exit(run_job(inputs, out_dir, executor=executor, db=db_path,
                     reference_path=reference_path, progress=progress, echo=click.echo,
                     max_bytes=int(max_mb * 1024 * 1024), timeout=timeout or None,
                     follow_symlinks=follow_symlinks, prune=prune))


@cli.command()
@click.option("--db", "db_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The store a run wrote (e.g. out/specextract.db).")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl", "parquet"]), default="csv",
              show_default=True)
@click.option("--verdict", "verdicts", multiple=True, type=click.Choice(VERDICTS),
              help="Only claims with this verdict (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here (default: standard output; Parquet needs a file).")
@click.option("--excel", is_flag=True, help="CSV with a byte-order mark, for Excel.")
def export(db_path: Path, fmt: str, verdicts: tuple[str, ...], output: Path | None,
           excel: bool) -> None:
    """Export the claims of a store as CSV, JSON Lines or Parquet.

    \b
    Example:
      specextract export --db out/specextract.db --verdict contradicted -o wrong.csv
      specextract export --db out/specextract.db --format parquet -o claims.parquet
    """
    from .output.export import write_csv, write_csv_to, write_jsonl, write_jsonl_to, write_parquet
    from .store.db import CLAIM_STORE_COLUMNS, Store
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs -o FILE")
    if excel and fmt != "csv":
        raise click.UsageError("--excel applies to --format csv only")
    with Store.open(db_path, write=False) as store:
        rows = store.claim_rows(verdicts=verdicts)
        if output is not None:
            n = (write_csv(rows, output, excel=excel, columns=list(CLAIM_STORE_COLUMNS))
                 if fmt == "csv" else
                 write_jsonl(rows, output) if fmt == "jsonl" else write_parquet(rows, output))
            click.echo(f"{n} claims -> {output}", err=True)
            return
        sys.stdout.flush()
        stream = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8",
                                  newline="")
        try:
            if excel:
                stream.write("\ufeff")
            if fmt == "csv":
                write_csv_to(rows, stream, list(CLAIM_STORE_COLUMNS))
            else:
                write_jsonl_to(rows, stream)
        finally:
            stream.flush()
            stream.detach()


@cli.command()
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write claims.csv here (default: CSV on standard output).")
def extract(files: tuple[str, ...], output: Path | None) -> None:
    """Extract spec claims from FILES (files, folders, globs) as codebook CSV rows.

    \b
    Example:
      specextract extract corpus -o claims.csv
    """
    from .output.export import write_csv
    from .extract.document import process_file
    rows, failed = [], 0
    for path in iter_input_files(files):
        try:
            result = process_file(path)
        except DocumentError as exc:
            failed += 1
            click.echo(f"failed: {exc}", err=True)
            continue
        rows.extend(c.as_row() for c in result.claims)
    _emit(rows, output)
    sys.exit(1 if failed else 0)


@cli.command(name="eval")
@click.option("--gold", "gold_path", required=True, type=click.Path(exists=True, dir_okay=False))
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
    from .eval import error_analysis as ea
    from .eval.evaluate import match, report_to_dict, report_to_text, score
    from .eval.gold import claims_to_rows, load_claims_csv, load_gold
    gold = load_gold(gold_path)
    scripts: dict[str, str] = {}
    texts: dict[str, str] = {}
    where: dict[int, tuple[int, str]] = {}
    if pred_path:
        pred = load_claims_csv(pred_path)
    elif corpus:
        from .extract.document import process_file
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
            records = _checked(records, reference_path)
        pred = claims_to_rows(records)
        for row, record in zip(pred, records):
            claim = getattr(record, "claim", record)
            where[id(row)] = (claim.start, claim.link)
    else:
        raise click.UsageError("give a CORPUS folder or --pred FILE")
    if scripts_path:
        scripts = _read_scripts(scripts_path)
    docs = {g.doc_id for g in gold}
    matching = match(pred, gold, docs=docs)
    report = score(matching, scripts or None)
    accused = ea.accusations(matching)
    layouts = ea.layout_outcomes(matching, texts, where) if texts else []
    groups = ea.error_groups(matching, texts, where) if show_errors and texts else {}
    if as_json:
        import json
        data = report_to_dict(report)
        data["contradicted"] = {"flagged": accused.flagged, "right": accused.right,
                                "gold": accused.gold, "precision": accused.precision,
                                "recall": accused.recall}
        if layouts:
            data["by_layout"] = {k: {o: sum(1 for lay, out in layouts if lay == k and out == o)
                                     for o in ("tp", "fp", "fn")} for k in (ea.TABLE, ea.PROSE)}
        if groups:
            data["errors"] = {title: [{"kind": i.kind, "cause": i.cause, "doc_id": i.placed.row.doc_id,
                                       "line": i.placed.line_no, "surface": i.placed.row.surface,
                                       "link": i.placed.link} for i in items]
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
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows or not {"file", "script"} <= set(rows[0]):
        raise click.UsageError(f"{path}: needs the columns file and script")
    return {Path(r["file"]).stem: r["script"] for r in rows}


def _checked(claims, reference_path: str | None = None):
    from .check.checker import check
    from .check.reference import load_reference
    return check(claims, load_reference(reference_path))


def _read_claims(path: str):
    """Claim records from a claims CSV (codebook columns; start/end/precision if present)."""
    import csv
    from .eval.gold import load_claims_csv
    from .extract.numbers import significant_exp
    from .records import Claim
    rows = load_claims_csv(path)
    with open(path, encoding="utf-8-sig", newline="") as fh:
        extra = list(csv.DictReader(fh))
    out = []
    for row, raw in zip(rows, extra):
        start = int(raw.get("start") or 0)
        end = int(raw.get("end") or start)
        exp = raw.get("precision_exp")
        out.append(Claim(doc_id=row.doc_id, entity=row.entity, attribute=row.attribute,
                         value=row.value, surface=row.surface, start=start, end=end,
                         variant=row.variant, operator=row.operator, qualifier=row.qualifier,
                         baseline=row.baseline, metric=row.metric,
                         precision_exp=int(exp) if exp not in (None, "") else
                         significant_exp(format(row.value, "f")),
                         sentence=raw.get("sentence", ""), link=raw.get("link", "")))
    return out


@cli.command(name="check")
@click.argument("claims_csv", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write checked claims here (default: standard output).")
@REFERENCE_OPTION
def check_command(claims_csv: str, output: Path | None, reference_path: str | None) -> None:
    """Add verdict, expected value, source and diagnosis to a claims CSV.

    \b
    Example:
      specextract extract corpus -o claims.csv && specextract check claims.csv -o checked.csv
    """
    from .output.export import write_csv
    rows = [c.as_row() for c in _checked(_read_claims(claims_csv), reference_path)]
    _emit(rows, output)


@cli.command()
@click.argument("inputs", nargs=-1)
@click.option("--claims", "claims_csv", type=click.Path(exists=True, dir_okay=False),
              help="Read claims from this CSV instead of extracting from INPUTS.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@REFERENCE_OPTION
def consensus(inputs: tuple[str, ...], claims_csv: str | None, output: Path | None,
              reference_path: str | None) -> None:
    """Which values articles claim for each chip and attribute, beside the reference.

    \b
    Example:
      specextract consensus corpus
    """
    from .check.consensus import consensus as tabulate
    from .check.reference import load_reference
    if claims_csv:
        claims = _read_claims(claims_csv)
    elif inputs:
        claims = _extract_all(inputs)
    else:
        raise click.UsageError("give INPUTS or --claims FILE")
    ref = load_reference(reference_path)
    table = tabulate(_checked(claims, reference_path), ref)
    if output:
        table.to_csv(output, index=False)
    else:
        import pandas as pd
        with pd.option_context("display.max_rows", None, "display.width", 200,
                               "display.max_colwidth", 60):
            click.echo(table.to_string(index=False))


def _extract_all(inputs):
    from .extract.document import process_file
    claims = []
    for path in iter_input_files(inputs):
        try:
            claims.extend(process_file(path).claims)
        except DocumentError as exc:
            click.echo(f"failed: {exc}", err=True)
    return claims


def _emit(rows, output):
    import csv, io
    from .output.export import columns_for, neutralise, write_csv
    if output is not None:
        write_csv(rows, output)
        click.echo(f"{len(rows)} claims -> {output}", err=True)
        return
    buf = io.StringIO()
    cols = columns_for(rows)
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({k: neutralise(str(r.get(k, ""))) for k in cols})
    click.echo(buf.getvalue(), nl=False)


@cli.group()
def reference() -> None:
    """Inspect and validate the reference table."""


@reference.command("validate")
@click.argument("file", required=False, type=click.Path(exists=True))
def reference_validate(file: str | None) -> None:
    """Validate a reference table (default: the bundled one).

    \b
    Example:
      specextract reference validate my_specs.csv
    """
    from .check.reference import load_reference, tables_text
    ref = load_reference(file)
    click.echo(f"ok: {len(ref.rows)} rows, {len(ref.marketing)} marketing ratios, "
               f"version {ref.version[:12]}")
    click.echo(tables_text(ref))


@reference.command("show")
@click.argument("chip")
@click.option("--reference", "reference_path", type=click.Path(exists=True))
def reference_show(chip: str, reference_path: str | None) -> None:
    """Print one chip's reference rows as a table.

    \b
    Example:
      specextract reference show A100
    """
    from .check.reference import load_reference
    from .check.rules import entity_key
    ref = load_reference(reference_path)
    rows = [r for r in ref.rows if entity_key(r.entity) == entity_key(chip)]
    if not rows:
        raise click.ClickException(f"no reference rows for {chip!r}")
    import pandas as pd
    from .records import format_decimal
    frame = pd.DataFrame([{"variant": r.variant, "attribute": r.attribute,
                           "value": format_decimal(r.value) if r.value is not None else
                           ("not supported" if r.not_supported else ""),
                           "unit": r.unit, "condition": r.condition[:50],
                           "confidence": r.confidence} for r in rows])
    with pd.option_context("display.max_rows", None, "display.width", 200):
        click.echo(frame.to_string(index=False))


@reference.command("coverage")
@click.argument("inputs", nargs=-1, required=True, type=click.Path())
@REFERENCE_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the gaps as JSON.")
def reference_coverage(inputs: tuple[str, ...], reference_path: str | None, as_json: bool) -> None:
    """What the reference table lacks for a corpus: chips with no rows, attributes with no
    row for a chip it has, speed-up pairs with neither figures nor a vendor ratio, each with
    the number of claims it leaves unverifiable (the to-do list for the next rows).

    \b
    Example:
      specextract reference coverage corpus
      specextract reference coverage articles/ --reference my_specs.csv --json
    """
    from .check.coverage import coverage, render
    from .extract.document import process_file
    claims = []
    for path in iter_input_files(inputs):
        try:
            claims.extend(process_file(path).claims)
        except DocumentError as exc:
            click.echo(f"failed: {exc}", err=True)
    cov = coverage(_checked(claims, reference_path))
    if as_json:
        import json
        click.echo(json.dumps({
            "claims": cov.claims, "lacking": cov.lacking,
            "chips": dict(cov.chips.most_common()),
            "attributes": [{"entity": e, "attribute": a, "claims": n}
                           for (e, a), n in cov.attributes.most_common()],
            "ratios": [{"entity": e, "baseline": b, "metric": m, "claims": n}
                       for (e, b, m), n in cov.ratios.most_common()]},
            ensure_ascii=False, indent=2))
        return
    click.echo("\n".join(render(cov)))


@cli.group()
def store() -> None:
    """Look after a batch store."""


@store.command("recover")
@click.argument("damaged", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("new", type=click.Path(dir_okay=False, path_type=Path))
def store_recover(damaged: Path, new: Path) -> None:
    """Copy what a damaged store still holds into a NEW store (DAMAGED is only read).

    \b
    Example:
      specextract store recover out/specextract.db out/recovered.db
      specextract run corpus --out out --db out/recovered.db
    """
    from .store.recover import recover
    counts = recover(damaged, new)
    click.echo(f"{counts['documents']} documents and {counts['claims']} claims -> {new}; "
               f"{counts['again']} documents lost claims and will be extracted again "
               f"on the next run")


def main() -> None:
    cli(prog_name="specextract")


if __name__ == "__main__":
    main()
