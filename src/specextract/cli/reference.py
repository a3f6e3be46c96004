"""``specextract reference list | show | validate``: the reference table from the user's side.

Chips are named as the user likes ("H100", "NVIDIA H100", "昇腾910B"); attributes by the
codebook's names or the table's own ("memory_size" or "memory_capacity").
"""
from __future__ import annotations

from collections import defaultdict

import click

from .group import Group, cli
from .inputs import readable

_REFERENCE_FILE = click.option("--reference", "reference_path", type=click.Path(exists=True),
                               help="This specs.csv instead of the bundled table.")
_REFERENCE_EXTRA = click.option(
    "--reference-extra", "reference_extra", multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Lay this table on top (its rows win where they overlap). Repeatable.")


def REFERENCE_FILE(f):  # noqa: N802 - used as a decorator like click's own options
    """--reference and --reference-extra."""
    return _REFERENCE_FILE(_REFERENCE_EXTRA(f))


@cli.group(cls=Group)
def reference() -> None:
    """Inspect and validate the reference table."""


@reference.command("list")
@REFERENCE_FILE
def reference_list(reference_path: str | None, reference_extra: tuple[str, ...]) -> None:
    """List the table's chips with their variants and row counts.

    \b
    Example:
      specextract reference list
    """
    from ..check.reference import load_reference
    ref = load_reference(reference_path, reference_extra)
    chips: dict[str, dict] = {}
    for row in ref.rows:
        entry = chips.setdefault(row.entity, {"chip": row.chip, "variants": set(), "lines": set()})
        entry["variants"].add(row.variant)
        entry["lines"].add(row.line)
    lines = [(e, c["chip"], str(len(c["lines"])), ", ".join(sorted(v for v in c["variants"] if v)))
             for e, c in sorted(chips.items(), key=lambda kv: kv[0].casefold())]
    click.echo(_table(("entity", "chip", "rows", "variants"), lines))
    click.echo(f"{len(chips)} chips, {len({r.line for r in ref.rows})} rows")


@reference.command("show")
@click.argument("chip")
@click.option("--attribute", help="Only this attribute (codebook or table name).")
@REFERENCE_FILE
def reference_show(chip: str, attribute: str | None, reference_path: str | None,
                   reference_extra: tuple[str, ...]) -> None:
    """Print one chip's figures: one line per attribute, one column per variant, each
    figure with its source. CHIP may be any name the extractor knows ("NVIDIA H100",
    "昇腾910B").

    \b
    Example:
      specextract reference show A100
      specextract reference show "NVIDIA H100" --attribute memory_size
    """
    from ..check.reference import load_reference
    from ..check.names import closest_chips, resolve_chip
    from ..check.rules import entity_key
    ref = load_reference(reference_path, reference_extra)
    entities = sorted({r.entity for r in ref.rows})
    entity = resolve_chip(chip, entities)
    if entity is None:
        near = closest_chips(chip, entities)
        hint = f"; did you mean {', '.join(near)}?" if near else " (see 'specextract reference list')"
        raise click.ClickException(f"no reference rows for {chip!r}{hint}")
    wanted = _attributes(attribute) if attribute else None
    rows = [r for r in ref.rows if entity_key(r.entity) == entity_key(entity)
            and (wanted is None or r.attribute in wanted)]
    if not rows:
        raise click.ClickException(f"{entity} has no reference rows for {attribute!r}")
    click.echo(f"{entity} ({rows[0].chip})")
    click.echo(show_table(rows))


def _attributes(name: str) -> set[str]:
    """Codebook attributes a user's attribute name stands for."""
    from ..check.names import closest_attribute, table_attribute
    from ..check.reference import attribute_specs
    from ..codebook import ATTRIBUTE_UNITS
    if name in ATTRIBUTE_UNITS:
        return {name}
    specs = attribute_specs().get(table_attribute(name))
    if not specs:
        hint = closest_attribute(name)
        raise click.UsageError(f"unknown attribute {name!r}"
                               + (f"; did you mean {hint!r}?" if hint else ""))
    return {s.codebook_attribute for s in specs if s.codebook_attribute}


def show_table(rows) -> str:
    """Figures as a table (attribute lines x variant columns, "[n]" naming the source),
    then the numbered sources."""
    from ..decimaltext import format_decimal
    variants = sorted({r.variant for r in rows})
    sources: dict[str, int] = {}
    cells: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        label = " ".join([r.attribute] + sorted(q for q in r.qualifiers if q != "non-tensor")
                         + (["preliminary"] if r.preliminary else []))
        n = sources.setdefault(r.source, len(sources) + 1)
        value = "not supported" if r.not_supported else f"{format_decimal(r.value)} {r.unit}"
        text = f"{value} [{n}]"
        if text not in cells[label][r.variant]:
            cells[label][r.variant].append(text)
    lines = [(label, *("; ".join(by[v]) for v in variants)) for label, by in cells.items()]
    legend = [f"[{n}] {source}" for source, n in sources.items()]
    return _table(("attribute", *(v or "(all)" for v in variants)), lines) + "\nsources:\n" + "\n".join(legend)


def _table(header: tuple[str, ...], lines: list[tuple[str, ...]]) -> str:
    """Left-aligned columns, two spaces apart, wide characters counted twice."""
    from unicodedata import east_asian_width
    def width(text: str) -> int:
        return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)
    widths = [max(width(x) for x in column) for column in zip(header, *lines)]
    return "\n".join("  ".join(cell + " " * (w - width(cell)) for cell, w in zip(line, widths)).rstrip()
                     for line in [header, *lines])


@reference.command("coverage")
@click.argument("inputs", nargs=-1, required=True)
@REFERENCE_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the gaps as JSON.")
def reference_coverage(inputs: tuple[str, ...], reference_path: str | None,
                       reference_extra: tuple[str, ...], as_json: bool) -> None:
    """What the reference table lacks for a corpus: chips with no rows, attributes with no
    row for a chip it has, speed-up pairs with neither figures nor a vendor ratio, each with
    the number of claims it leaves unverifiable (the to-do list for the next rows).

    \b
    Example:
      specextract reference coverage corpus
      specextract reference coverage articles/ --reference my_specs.csv --json
    """
    import json
    from ..check.coverage import coverage, render
    from .inputs import checked, extracted
    claims, _ = extracted(inputs)
    cov = coverage(checked(claims, reference_path, reference_extra))
    if as_json:
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


@reference.command("validate")
@click.argument("file", required=False)
def reference_validate(file: str | None) -> None:
    """Validate a reference table (default: the bundled one; "-": standard input): every
    problem, each with its row and column, and the closest attribute name for an unknown one.

    \b
    Example:
      specextract reference validate my_specs.csv
    """
    from dataclasses import replace
    from ..check.reference import load_reference
    from ..check.validate import table_problems
    from .inputs import STDIN, STDIN_NAME
    if file is None:
        return _ok(load_reference())
    with readable(file) as path:
        problems = table_problems(path)
        if not problems:
            return _ok(load_reference(path))
    for problem in problems:
        click.echo(str(replace(problem, path=STDIN_NAME) if file == STDIN else problem), err=True)
    raise click.ClickException(f"{len(problems)} problem(s) in {STDIN_NAME if file == STDIN else file}")


def _ok(ref) -> None:
    from ..check.reference import tables_text
    click.echo(f"ok: {len({r.line for r in ref.rows})} rows, {len(ref.marketing)} marketing "
               f"ratios, version {ref.version[:12]}")
    click.echo(tables_text(ref))
