"""What the commands read and write: "-" for standard input, one CSV writer for rows."""
from __future__ import annotations

import io
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ..errors import DataFileError, DocumentError
from ..ingest.inputs import iter_input_files

STDIN = "-"
STDIN_NAME = "<stdin>"


@contextmanager
def readable(path: str, suffix: str = ".csv") -> Iterator[str]:
    """``path`` itself, or for "-" standard input spooled to a temporary file; errors about
    that file name ``<stdin>``."""
    if path != STDIN:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="specextract-") as folder:
        spool = Path(folder) / f"stdin{suffix}"
        spool.write_bytes(sys.stdin.buffer.read())
        try:
            yield str(spool)
        except DataFileError as exc:
            if exc.path != str(spool):
                raise
            raise type(exc)(STDIN_NAME, exc.row, exc.problem) from None


def documents(inputs: tuple[str, ...]):
    """(Processed document or None, error) for each input; "-" is standard input."""
    from ..extract.document import process_document, process_file
    from ..ingest.read import document_from_bytes
    for item in inputs:
        paths = [None] if item == STDIN else iter_input_files((item,))
        for path in paths:
            try:
                if path is None:
                    yield process_document(document_from_bytes("stdin", sys.stdin.buffer.read())), None
                else:
                    yield process_file(path), None
            except DocumentError as exc:
                yield None, exc


def extracted(inputs: tuple[str, ...]) -> tuple[list, int]:
    """Every claim of INPUTS, and how many documents failed (each named on stderr)."""
    claims, failed = [], 0
    for result, error in documents(inputs):
        if error is not None:
            failed += 1
            click.echo(f"failed: {error}", err=True)
        else:
            claims.extend(result.claims)
    return claims, failed


def checked(claims, reference_path: str | None = None, reference_extra: tuple[str, ...] = ()):
    from ..check.checker import check
    from ..check.reference import load_reference
    return check(claims, load_reference(reference_path, reference_extra))


def read_claims(path: str) -> list:
    """Claims from a claims CSV ("-": standard input): the codebook's columns, validated
    (a bad row names file, row and problem), read with specextract.rows."""
    import csv
    from ..eval.gold import load_claims_csv
    from ..rows import claim_from_row
    with readable(path) as real:
        load_claims_csv(real)      # validates every row; the claims come from the raw cells
        with open(real, encoding="utf-8-sig", newline="") as fh:
            return [claim_from_row(raw) for raw in csv.DictReader(fh) if any(raw.values())]


def emit(rows: list[dict], output: Path | None) -> None:
    """Rows as CSV to ``output``, or to standard output (the one writer: output.export)."""
    from ..output.export import write_csv, write_csv_to
    if output is not None:
        write_csv(rows, output)
        click.echo(f"{len(rows)} claims -> {output}", err=True)
        return
    with stdout_text() as stream:
        write_csv_to(rows, stream)


@contextmanager
def stdout_text():
    """Standard output as a UTF-8 text stream that writes line ends as given."""
    sys.stdout.flush()
    stream = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="")
    try:
        yield stream
    finally:
        stream.flush()
        stream.detach()
