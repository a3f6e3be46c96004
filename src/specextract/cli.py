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


def main() -> None:
    cli(prog_name="specextract")


if __name__ == "__main__":
    main()
