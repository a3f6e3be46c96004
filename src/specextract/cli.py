"""Command line: a thin shell over the library, one short function per command."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import __version__
from .errors import SpecExtractError
from .ingest import read_document
from .normalize import normalize as normalize_text
from .errors import DocumentError


class _Group(click.Group):
    """Turns library errors into one clean line and exit status 2 (usage) or 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecExtractError as exc:
            click.echo(f"specextract: error: {exc}", err=True)
            ctx.exit(1)


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


def iter_input_files(inputs: tuple[str, ...]):
    """Files named by INPUTS: files, folders (recursive, sorted) and globs."""
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            yield from sorted(f for f in p.rglob("*") if f.is_file() and not f.name.startswith("."))
        elif any(ch in item for ch in "*?[") and not p.exists():
            yield from sorted(Path().glob(item))
        else:
            yield p


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out"), show_default=True)
def run(inputs: tuple[str, ...], out_dir: Path) -> None:
    """Process INPUTS (files, folders, globs) into OUT.

    \b
    Example:
      specextract run corpus --out out
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    norm_dir = out_dir / "normalized"
    norm_dir.mkdir(exist_ok=True)
    ok = failed = 0
    with (out_dir / "documents.jsonl").open("w", encoding="utf-8") as index:
        for path in iter_input_files(inputs):
            try:
                doc = read_document(path)
                norm = normalize_text(doc.text)
            except SpecExtractError as exc:
                failed += 1
                click.echo(f"failed: {exc}", err=True)
                index.write(json.dumps({"path": str(path), "status": "error",
                                        "error": str(exc)}, ensure_ascii=False) + "\n")
                continue
            ok += 1
            (norm_dir / f"{doc.doc_id}.txt").write_text(norm.text, encoding="utf-8")
            index.write(json.dumps({"doc_id": doc.doc_id, "path": doc.path, "status": "ok",
                                    "encoding": doc.encoding, "script": norm.script},
                                   ensure_ascii=False) + "\n")
    click.echo(f"{ok} documents normalized, {failed} failed -> {out_dir}")
    sys.exit(1 if failed else 0)


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
    from .export import write_csv
    from .pipeline import process_file
    rows, failed = [], 0
    for path in iter_input_files(files):
        try:
            result = process_file(path)
        except DocumentError as exc:
            failed += 1
            click.echo(f"failed: {exc}", err=True)
            continue
        rows.extend(c.as_row() for c in result.claims)
    if output is None:
        import csv, io
        from .export import columns_for, neutralise
        buf = io.StringIO()
        cols = columns_for(rows)
        w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: neutralise(str(r.get(k, ""))) for k in cols})
        click.echo(buf.getvalue(), nl=False)
    else:
        write_csv(rows, output)
        click.echo(f"{len(rows)} claims -> {output}", err=True)
    sys.exit(1 if failed else 0)


@cli.command(name="eval")
@click.option("--gold", "gold_path", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--pred", "pred_path", type=click.Path(exists=True, dir_okay=False),
              help="Score this claims CSV instead of extracting from CORPUS.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Also check the extracted claims, for verdict accuracy.")
@click.argument("corpus", required=False, type=click.Path(exists=True, file_okay=False))
def evaluate(gold_path: str, pred_path: str | None, as_json: bool, check: bool,
             corpus: str | None) -> None:
    """Precision, recall and F1 of extraction against a gold set.

    \b
    Example:
      specextract eval --gold gold/claims.csv corpus
      specextract eval --gold gold/claims.csv --pred out/claims.csv --json
    """
    from .evaluate import match, report_to_json, report_to_text, score
    from .gold import claims_to_rows, load_claims_csv, load_gold
    gold = load_gold(gold_path)
    scripts: dict[str, str] = {}
    if pred_path:
        pred = load_claims_csv(pred_path)
    elif corpus:
        from .pipeline import process_file
        records = []
        for path in iter_input_files((corpus,)):
            try:
                result = process_file(path)
            except DocumentError as exc:
                click.echo(f"failed: {exc}", err=True)
                continue
            scripts[result.document.doc_id] = result.normalized.script
            records.extend(result.claims)
        if check:
            records = _checked(records)
        pred = claims_to_rows(records)
    else:
        raise click.UsageError("give a CORPUS folder or --pred FILE")
    docs = {g.doc_id for g in gold}
    report = score(match(pred, gold, docs=docs), scripts or None)
    click.echo(report_to_json(report) if as_json else report_to_text(report))


def _checked(claims):
    """Checked claims when the checker is available, else the claims as they are."""
    try:
        from .check import check
    except ImportError:
        return claims
    return check(claims)


def main() -> None:
    cli(prog_name="specextract")


if __name__ == "__main__":
    main()
