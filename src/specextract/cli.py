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


REFERENCE_OPTION = click.option("--reference", "reference_path", type=click.Path(exists=True),
                                help="Check against this specs.csv (same format as the bundled one).")


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
    _emit(rows, output)
    sys.exit(1 if failed else 0)


@cli.command(name="eval")
@click.option("--gold", "gold_path", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--pred", "pred_path", type=click.Path(exists=True, dir_okay=False),
              help="Score this claims CSV instead of extracting from CORPUS.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Also check the extracted claims, for verdict accuracy.")
@REFERENCE_OPTION
@click.argument("corpus", required=False, type=click.Path(exists=True, file_okay=False))
def evaluate(gold_path: str, pred_path: str | None, as_json: bool, check: bool,
             reference_path: str | None, corpus: str | None) -> None:
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
            records = _checked(records, reference_path)
        pred = claims_to_rows(records)
    else:
        raise click.UsageError("give a CORPUS folder or --pred FILE")
    docs = {g.doc_id for g in gold}
    report = score(match(pred, gold, docs=docs), scripts or None)
    click.echo(report_to_json(report) if as_json else report_to_text(report))


def _checked(claims, reference_path: str | None = None):
    from .check import check
    from .reference import load_reference
    return check(claims, load_reference(reference_path))


def _read_claims(path: str):
    """Claim records from a claims CSV (codebook columns; start/end/precision if present)."""
    import csv
    from .gold import load_claims_csv
    from .numerals import significant_exp
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
                         sentence=raw.get("sentence", "")))
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
    from .export import write_csv
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
    from .check import consensus as tabulate
    from .reference import load_reference
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
    from .pipeline import process_file
    claims = []
    for path in iter_input_files(inputs):
        try:
            claims.extend(process_file(path).claims)
        except DocumentError as exc:
            click.echo(f"failed: {exc}", err=True)
    return claims


def _emit(rows, output):
    import csv, io
    from .export import columns_for, neutralise, write_csv
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
    from .reference import load_reference
    ref = load_reference(file)
    click.echo(f"ok: {len(ref.rows)} rows, {len(ref.marketing)} marketing ratios, "
               f"version {ref.version[:12]}")


@reference.command("show")
@click.argument("chip")
@click.option("--reference", "reference_path", type=click.Path(exists=True))
def reference_show(chip: str, reference_path: str | None) -> None:
    """Print one chip's reference rows as a table.

    \b
    Example:
      specextract reference show A100
    """
    from .reference import load_reference
    from .reference_rules import entity_key
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


def main() -> None:
    cli(prog_name="specextract")


if __name__ == "__main__":
    main()
