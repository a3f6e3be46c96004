"""Which `contradicted` flags a change adds or removes on a folder of articles with no gold.

    specextract run ARTICLES --out before      # with the old code
    specextract run ARTICLES --out after       # with the new code
    python bench/flags_diff.py before/claims.csv after/claims.csv

Prints the claims and flags of each run, then every flag the change removed and every flag
it added, each with its sentence and diagnosis. Read each one: a removed flag should be a
false alarm, an added one a wrong figure in the text. Real articles that have no gold yet
are how the tool meets new text; this makes a before/after reading of them a few minutes.
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

KEY = ("doc_id", "entity", "variant", "attribute", "value", "qualifier", "baseline")


def read_claims(path: Path) -> list[dict[str, str]]:
    """The rows of a claims.csv export."""
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def flags(rows: list[dict[str, str]]) -> dict[tuple[str, ...], dict[str, str]]:
    """The contradicted claims, by their identity (first row kept)."""
    out: dict[tuple[str, ...], dict[str, str]] = {}
    for row in rows:
        if row.get("verdict") == "contradicted":
            out.setdefault(tuple(row.get(k, "") for k in KEY), row)
    return out


def diff(before: list[dict[str, str]], after: list[dict[str, str]]
         ) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """(flags only before, flags only after), each in document and text order."""
    old, new = flags(before), flags(after)

    def order(row: dict[str, str]) -> tuple[str, int]:
        return row.get("doc_id", ""), int(row.get("start") or 0)
    return (sorted((old[k] for k in old.keys() - new.keys()), key=order),
            sorted((new[k] for k in new.keys() - old.keys()), key=order))


def describe(row: dict[str, str], width: int = 160) -> str:
    """One flag on one line: where, what, what the reference says, and its sentence."""
    what = f"{row.get('entity', '')} {row.get('attribute', '')} {row.get('value', '')}"
    if row.get("baseline"):
        what += f" vs {row['baseline']}"
    why = row.get("diagnosis") or f"expected {row.get('expected', '')}"
    sentence = " ".join(row.get("sentence", "").split())[:width]
    return f"{row.get('doc_id', '')}: {what} [{row.get('link', '')}] {why} | {sentence}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="claims.csv of the old code's run")
    parser.add_argument("after", type=Path, help="claims.csv of the new code's run")
    args = parser.parse_args(argv)
    before, after = read_claims(args.before), read_claims(args.after)
    removed, added = diff(before, after)
    print(f"claims {len(before)} -> {len(after)}; "
          f"contradicted {len(flags(before))} -> {len(flags(after))} "
          f"(removed {len(removed)}, added {len(added)})")
    for title, rows in (("removed", removed), ("added", added)):
        if rows:
            print(f"\n{title}:")
            for row in rows:
                print("  " + describe(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
