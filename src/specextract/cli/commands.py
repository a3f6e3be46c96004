"""The commands that read articles and claims: normalize, run, export, extract, check,
consensus, eval. Each is a thin shell over the library."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..codebook import VERDICTS
from .group import Group, cli
from .inputs import checked, emit, extracted, read_claims, stdout_text

_REFERENCE = click.option(
    "--reference", "reference_path", type=click.Path(exists=True),
    help="Check against this specs.csv instead of the bundled one (same format; the "
         "bundled vendor ratios serve when no marketing_ratios.csv is beside it).")
_REFERENCE_EXTRA = click.option(
    "--reference-extra", "reference_extra", multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Lay this table (specs.csv format, validated the same way) on top of the reference; "
         "its rows win where they overlap and their sources say so. Repeatable.")


def REFERENCE_OPTION(f):  # noqa: N802 - used as a decorator like click's own options
    """--reference and --reference-extra."""
    return _REFERENCE(_REFERENCE_EXTRA(f))


def _dash_is_stdout(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """``-o -`` writes to standard output, as no ``-o`` does (never a file named "-")."""
    return None if value is not None and str(value) == "-" else value


OUTPUT_OPTION = click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=_dash_is_stdout,
    help="Write the CSV here (default, or \"-\": standard output).")


@cli.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True,
              help="Print doc_id, encoding, script, text and to_original as JSON.")
def normalize(file: str, as_json: bool) -> None:
    """Print the normalized text of FILE ("-": standard input).

    \b
    Example:
      specextract normalize --json article.txt
    """
    from ..ingest.read import document_from_bytes, read_document
    from ..normalize.text import normalize as normalize_text
    doc = (document_from_bytes("stdin", sys.stdin.buffer.read()) if file == "-"
           else read_document(file))
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
        progress: bool | None, max_mb: float, timeout: float, follow_symlinks: bool,
        prune: bool, reference_path: str | None, reference_extra: tuple[str, ...]) -> None:
    """Extract and check INPUTS (files, folders, globs) into a store, claims.csv and a report.

    Incremental: unchanged documents are skipped. Ends with the worst wrong figures found
    and the command that exports them all. Exit status 1 if any document failed (each is
    stored and summarised with its reason), 2 on usage errors.

    \b
    Example:
      specextract run corpus --out out
      specextract run corpus --out out --workers 2 --reference my_specs.csv
      specextract run corpus --out out --reference-extra new_chips.csv
      specextract run corpus --out out --prune
      specextract run 'articles/**/*.html' --out out --dask local
    """
    from ..batch.executors import DaskExecutor, LocalExecutor, PoolExecutor
    from ..batch.job import run_job
    if "-" in inputs:
        raise click.UsageError("run reads files, folders and globs, not standard input "
                               "(use `specextract extract -`)")
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
    status = run_job(inputs, out_dir, executor=executor, db=db_path,
                     reference_path=reference_path, reference_extra=reference_extra,
                     progress=progress, echo=click.echo,
                     max_bytes=int(max_mb * 1024 * 1024), timeout=timeout or None,
                     follow_symlinks=follow_symlinks, prune=prune)
    sys.exit(status)


@cli.command()
@click.option("--db", "db_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The store a run wrote (e.g. out/specextract.db).")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl", "parquet"]), default="csv",
              show_default=True,
              help="CSV (text cells), JSON Lines or Parquet (numbers as numbers, verdict "
                   "categorical).")
@click.option("--verdict", "verdicts", multiple=True, type=click.Choice(VERDICTS),
              help="Only claims with this verdict (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              callback=_dash_is_stdout,
              help="Write here (default, or \"-\": standard output; Parquet needs a file).")
@click.option("--excel", is_flag=True, help="CSV with a byte-order mark, for Excel.")
def export(db_path: Path, fmt: str, verdicts: tuple[str, ...], output: Path | None,
           excel: bool) -> None:
    """Export the claims of a store as CSV, JSON Lines or Parquet.

    \b
    Example:
      specextract export --db out/specextract.db --verdict contradicted -o wrong.csv
      specextract export --db out/specextract.db --format parquet -o claims.parquet
    """
    from ..output.export import write_csv, write_csv_to, write_jsonl, write_jsonl_to, write_parquet
    from ..store.db import CLAIM_STORE_COLUMNS, Store
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
        with stdout_text() as stream:
            if excel:
                stream.write("\ufeff")
            if fmt == "csv":
                write_csv_to(rows, stream, list(CLAIM_STORE_COLUMNS))
            else:
                write_jsonl_to(rows, stream)


@cli.command()
@click.argument("files", nargs=-1, required=True)
@OUTPUT_OPTION
def extract(files: tuple[str, ...], output: Path | None) -> None:
    """Extract spec claims from FILES (files, folders, globs; "-": standard input) as
    codebook CSV rows.

    \b
    Example:
      specextract extract corpus -o claims.csv
      cat article.txt | specextract extract -
    """
    claims, failed = extracted(files)
    emit([c.as_row() for c in claims], output)
    sys.exit(1 if failed else 0)


@cli.command(name="check")
@click.argument("claims_csv")
@OUTPUT_OPTION
@REFERENCE_OPTION
def check_command(claims_csv: str, output: Path | None, reference_path: str | None,
                  reference_extra: tuple[str, ...]) -> None:
    """Add verdict, expected value, source and diagnosis to a claims CSV ("-": standard input).

    \b
    Example:
      specextract extract corpus -o claims.csv && specextract check claims.csv -o checked.csv
      specextract extract corpus | specextract check -
    """
    emit([c.as_row() for c in checked(read_claims(claims_csv), reference_path, reference_extra)],
         output)


@cli.command()
@click.argument("inputs", nargs=-1)
@click.option("--claims", "claims_csv",
              help="Read claims from this CSV (\"-\": standard input) instead of extracting "
                   "from INPUTS.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              callback=_dash_is_stdout,
              help="Write the table as CSV here (default, or \"-\": a text table on standard "
                   "output).")
@REFERENCE_OPTION
def consensus(inputs: tuple[str, ...], claims_csv: str | None, output: Path | None,
              reference_path: str | None, reference_extra: tuple[str, ...]) -> None:
    """Which values articles claim for each chip and attribute, beside the reference.

    \b
    Example:
      specextract consensus corpus
      specextract consensus --claims claims.csv -o consensus.csv
    """
    from ..check.consensus import consensus as tabulate
    from ..check.reference import load_reference
    if claims_csv:
        claims = read_claims(claims_csv)
    elif inputs:
        claims, _ = extracted(inputs)
    else:
        raise click.UsageError("give INPUTS or --claims FILE")
    table = tabulate(checked(claims, reference_path, reference_extra),
                     load_reference(reference_path, reference_extra))
    if output:
        table.to_csv(output, index=False)
    else:
        import pandas as pd
        with pd.option_context("display.max_rows", None, "display.width", 200,
                               "display.max_colwidth", 60):
            click.echo(table.to_string(index=False))


@cli.group(cls=Group)
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
    from ..store.recover import recover
    counts = recover(damaged, new)
    click.echo(f"{counts['documents']} documents and {counts['claims']} claims -> {new}; "
               f"{counts['again']} documents lost claims and will be extracted again "
               f"on the next run")
