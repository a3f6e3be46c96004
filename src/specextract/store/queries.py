"""The queries the report draws from: named functions over a store's connection that return
plain rows (tuples or dicts of strings and numbers), streamed from SQLite, never the whole
claims table in memory.

    per_verdict, chips, attributes = queries.verdict_tallies(store.conn)

Every function takes the ``sqlite3.Connection`` of a Store. Verdict counts come in the
order of ``codebook.VERDICTS``.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from ..codebook import CONTRADICTED, VERDICTS

_COUNTS = ", ".join(f"sum(c.verdict = '{v}')" for v in VERDICTS)
DIAGNOSIS_KIND_MAX = 40   # a diagnosis kind is the text before its first ':', if that short
DIAGNOSIS_KIND = (f"CASE WHEN instr(coalesce(c.diagnosis, ''), ':') BETWEEN 2 AND "
                  f"{DIAGNOSIS_KIND_MAX} THEN substr(c.diagnosis, 1, instr(c.diagnosis, ':') - 1)"
                  f" WHEN coalesce(c.diagnosis, '') = '' THEN '' ELSE 'other' END")
# Ranked worst-first: most contradicted claims, then the largest share of them.
_RANK = ("ORDER BY d.status = 'ok', contradicted DESC, "
         "CAST(contradicted AS REAL) / max(d.n_claims, 1) DESC, d.doc_id, d.path")


def last_run(conn: sqlite3.Connection) -> dict:
    """The newest run's row (empty when the store has none)."""
    cur = conn.execute("SELECT * FROM runs ORDER BY run_id DESC LIMIT 1")
    row = cur.fetchone()
    return dict(zip([d[0] for d in cur.description], row)) if row else {}


def page_states(conn: sqlite3.Connection) -> Iterator[tuple[str, str, str, str, str]]:
    """(path, doc_id, content_hash, pipeline_version, check_version) of every ok document."""
    return iter(conn.execute("SELECT path, doc_id, content_hash, pipeline_version, "
                             "check_version FROM documents WHERE status = 'ok'"))


def verdict_tallies(conn: sqlite3.Connection) -> tuple[dict, list[tuple], list[tuple]]:
    """The claims per verdict (as ``Store.verdict_counts``), and per chip and per attribute
    (key, count per verdict...), most claims first, from one read of the claims. A key's
    counts are None, as SQLite's sum gives them, when none of its claims has a verdict."""
    per_verdict: dict = {}
    keys: tuple[dict, dict] = ({}, {})   # key -> [claims, {verdict: claims}]
    for entity, attribute, verdict, n in conn.execute(
            "SELECT coalesce(entity, ''), coalesce(attribute, ''), verdict, count(*) "
            "FROM claims GROUP BY 1, 2, 3"):
        per_verdict[verdict] = per_verdict.get(verdict, 0) + n
        for table, key in zip(keys, (entity, attribute)):
            tally = table.setdefault(key, [0, {}])
            tally[0] += n
            if verdict is not None:
                tally[1][verdict] = tally[1].get(verdict, 0) + n
    rows = tuple([(key, *((counts.get(v, 0) if counts else None) for v in VERDICTS))
                  for key, (_, counts) in sorted(table.items(), key=lambda kv: (-kv[1][0], kv[0]))]
                 for table in keys)
    return per_verdict, rows[0], rows[1]


def documents_histogram(conn: sqlite3.Connection, bins: tuple[int, ...]) -> list[int]:
    """How many ok documents have 0, 1, ... contradicted claims: one count per bin, a bin
    holding the counts from its lower bound up to the next bin's (the last: and above)."""
    counts = [0] * len(bins)
    for n, docs in conn.execute(
            "SELECT coalesce(k, 0), count(*) FROM documents d LEFT JOIN (SELECT path, count(*) "
            "AS k FROM claims WHERE verdict = ? GROUP BY path) c ON c.path = d.path "
            "WHERE d.status = 'ok' GROUP BY 1", (CONTRADICTED,)):
        counts[max(i for i, low in enumerate(bins) if n >= low)] += docs
    return counts


def document_totals(conn: sqlite3.Connection) -> tuple[int, int]:
    """(ok documents, failed documents)."""
    ok, failed = conn.execute("SELECT coalesce(sum(status = 'ok'), 0), "
                              "coalesce(sum(status != 'ok'), 0) FROM documents").fetchone()
    return ok, failed


def documents_ranked(conn: sqlite3.Connection, limit: int | None = None) -> Iterator[dict]:
    """Documents worst-first (failed ones last): path, doc_id, status, reason, error,
    script, n_claims and a count per verdict (``counts``, VERDICTS order)."""
    cur = conn.execute(
        f"SELECT d.path, d.doc_id, d.status, d.reason, d.error, d.script, d.n_claims, "
        f"{_COUNTS}, sum(c.verdict = '{CONTRADICTED}') AS contradicted "
        f"FROM documents d LEFT JOIN claims c ON c.path = d.path GROUP BY d.path {_RANK}"
        + (" LIMIT ?" if limit is not None else ""), (limit,) if limit is not None else ())
    for path, doc_id, status, reason, error, script, n_claims, *counts in cur:
        yield {"path": path, "doc_id": doc_id, "status": status, "reason": reason or "",
               "error": error or "", "script": script or "", "n_claims": n_claims,
               "counts": tuple(n or 0 for n in counts[:len(VERDICTS)])}


def failed_documents(conn: sqlite3.Connection, limit: int | None = None) -> Iterator[tuple]:
    """(path, doc_id, reason, error) of failed documents, by doc_id and path."""
    return iter(conn.execute(
        "SELECT path, doc_id, coalesce(reason, ''), coalesce(error, '') FROM documents "
        "WHERE status != 'ok' ORDER BY doc_id, path" + (" LIMIT ?" if limit else ""),
        (limit,) if limit else ()))


def contradicted_groups(conn: sqlite3.Connection) -> list[tuple[str, str, int]]:
    """(chip, diagnosis kind, claims) of the contradicted claims, largest group first; the
    kind is the diagnosis up to its first ':' ("misattributed", "unit mix-up", ...)."""
    return conn.execute(
        f"SELECT coalesce(c.entity, ''), {DIAGNOSIS_KIND}, count(*) FROM claims c "
        f"WHERE c.verdict = ? GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2", (CONTRADICTED,)).fetchall()


CLAIM_FIELDS = ("path", "doc_id", "page_doc_id", "entity", "attribute", "operator", "value",
                "unit", "surface", "variant", "qualifier", "baseline", "metric", "link",
                "verdict", "expected", "expected_variant", "expected_condition", "diagnosis",
                "source", "self_contradiction")


def contradicted_claims(conn: sqlite3.Connection, per_group: int | None = None
                        ) -> Iterator[tuple[str, str, dict]]:
    """(chip, diagnosis kind, claim) of every contradicted claim (the first ``per_group``
    of each group, if given), one group after another (by chip, then kind), each group's
    claims in the order claims are listed (doc_id, path, seq); a claim is a dict of
    CLAIM_FIELDS (``page_doc_id``: the doc_id of the document's page, "" when it has
    none). One pass over the claims for all groups."""
    others = [f for f in CLAIM_FIELDS if f != "page_doc_id"]
    cols = ", ".join(f"coalesce(c.{_q(f)}, '')" for f in others)
    cur = conn.execute(
        f"SELECT coalesce(c.entity, ''), {DIAGNOSIS_KIND}, "
        f"CASE WHEN d.status = 'ok' THEN d.doc_id ELSE '' END, {cols} FROM claims c "
        f"LEFT JOIN documents d ON d.path = c.path WHERE c.verdict = ? "
        f"ORDER BY 1, 2, c.doc_id, c.path, c.seq", (CONTRADICTED,))
    fields = ("page_doc_id", *others)
    last, taken = None, 0
    for row in cur:
        entity, kind = row[0], row[1]
        if per_group is not None:
            if (entity, kind) != last:
                last, taken = (entity, kind), 0
            if taken == per_group:
                continue
            taken += 1
        yield entity, kind, dict(zip(fields, row[2:]))


# Where a claim stands in the order claims are listed (doc_id, path, seq), as one integer:
# the rank of its (doc_id, path) among those of all claims (a NULL doc_id first, as
# ORDER BY puts it) times 2^32, plus seq (a claim's place in its document, never negative,
# below 2^32). A group's first claim is the min() of it. Ranking the documents once and
# joining the rank to each claim costs less than a sort key built per claim.
LISTED_RANKS = ("listed AS (SELECT path, doc_id, row_number() OVER (ORDER BY doc_id, path) "
                "AS rank FROM (SELECT DISTINCT path, doc_id FROM claims))")
LISTED_JOIN = "JOIN listed ON listed.path = claims.path AND listed.doc_id IS claims.doc_id"
LISTED_ORDER = "(listed.rank << 32) + claims.seq"


def _q(name: str) -> str:
    return f'"{name}"'


# One line per (entity, attribute, baseline, metric, value) over all claims: documents (by
# path) and claims stating it, its verdicts by count (ties: first seen), most-stated first;
# groups in the order claims are listed (doc_id, path, seq) break the remaining ties. This
# is what consensus means: check.consensus runs the same query over a temporary store.
_VERDICT_SUMS = ", ".join(f"sum(verdict = '{v}'), min(CASE WHEN verdict = '{v}' THEN rn END)"
                          for v in VERDICTS)
CONSENSUS_SQL = f"""
WITH {LISTED_RANKS},
c AS (
  SELECT coalesce(claims.entity, '') AS entity, coalesce(claims.attribute, '') AS attribute,
         coalesce(claims.baseline, '') AS baseline, coalesce(claims.metric, '') AS metric,
         coalesce(claims.value, '') AS value, claims.verdict AS verdict,
         claims.expected AS expected, claims.path AS path, {LISTED_ORDER} AS rn
  FROM claims {LISTED_JOIN})
SELECT entity, attribute, baseline, metric, value, count(DISTINCT path) AS documents,
       count(*), {_VERDICT_SUMS},
       group_concat(DISTINCT CASE WHEN attribute = 'speedup' AND expected != ''
                                  THEN expected END),
       min(rn) AS first
FROM c GROUP BY entity, attribute, baseline, metric, value
ORDER BY documents DESC, entity, attribute, value, first
"""


def consensus(conn: sqlite3.Connection, limit: int | None = None) -> Iterator[dict]:
    """Consensus lines: entity, attribute, baseline, metric, value, documents, claims,
    verdicts ("supported:3; contradicted:1", most first) and ``speedup_expected`` (the
    expected values of speed-up claims, comma-separated)."""
    sql = CONSENSUS_SQL + (" LIMIT ?" if limit is not None else "")
    for row in conn.execute(sql, (limit,) if limit is not None else ()):
        entity, attribute, baseline, metric, value, documents, claims = row[:7]
        counts = row[7:7 + 2 * len(VERDICTS)]
        seen = sorted((-counts[2 * i], counts[2 * i + 1], v) for i, v in enumerate(VERDICTS)
                      if counts[2 * i])
        yield {"entity": entity, "attribute": attribute, "baseline": baseline,
               "metric": metric, "value": value, "documents": documents, "claims": claims,
               "verdicts": "; ".join(f"{v}:{-n}" for n, _, v in seen),
               "speedup_expected": row[7 + 2 * len(VERDICTS)] or ""}


def consensus_count(conn: sqlite3.Connection) -> int:
    """How many consensus lines there are."""
    (n,) = conn.execute("SELECT count(*) FROM (SELECT 1 FROM claims GROUP BY "
                        "coalesce(entity, ''), coalesce(attribute, ''), coalesce(baseline, ''),"
                        " coalesce(metric, ''), coalesce(value, ''))").fetchone()
    return n


# One row per distinct contradicted figure: (chip, attribute, value, baseline, metric), how
# many documents (distinct doc_ids) and claims state it, where its first claim stands (as
# LISTED_ORDER), and that first claim's unit, expected value and diagnosis (SQLite takes a
# bare column from the row of the group's one min()).
WRONG_FIGURES_SQL = f"""
WITH {LISTED_RANKS}
SELECT coalesce(claims.entity, ''), coalesce(claims.attribute, ''), coalesce(claims.value, ''),
       count(DISTINCT coalesce(claims.doc_id, '')), count(*), min({LISTED_ORDER}),
       coalesce(claims.unit, ''), coalesce(claims.expected, ''), coalesce(claims.diagnosis, '')
FROM claims {LISTED_JOIN}
WHERE claims.verdict = ?
GROUP BY 1, 2, 3, coalesce(claims.baseline, ''), coalesce(claims.metric, '')
"""


def wrong_figures(conn: sqlite3.Connection) -> Iterator[tuple[str, str, str, int, int, int,
                                                              str, str, str]]:
    """(chip, attribute, value, documents, claims, first, unit, expected, diagnosis) of each
    distinct contradicted figure, in no set order; ``first`` orders figures by where their
    first claim is listed (doc_id, path, seq). Grouped by SQLite: memory stays bounded
    however many figures a store holds."""
    return iter(conn.execute(WRONG_FIGURES_SQL, (CONTRADICTED,)))
