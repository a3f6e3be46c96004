"""Output: claim rows and a store -> files people read.

Enters: claim rows (dicts with the codebook's columns first), a store.
Leaves: ``export`` (CSV, JSON Lines, Parquet; formula cells neutralised), ``report``
(``index.html`` from SQL aggregates, with ``index``, ``charts``, ``citation`` and
``style``), ``pages`` (one HTML page per document with its claims highlighted), ``frames``
(claims as pandas DataFrames), ``worst`` (the worst wrong figures ``run`` ends with); its
fixed regular expressions are in ``patterns``.
"""
