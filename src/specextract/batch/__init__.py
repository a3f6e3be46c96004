"""Batch: input paths -> a filled store and its outputs (``specextract run``).

Enters: input arguments, an output folder, an executor.
Inside: ``tasks`` (what a worker gets per document: frozen, picklable ``DocumentTask``
and ``ReferenceSpec``, built by ``make_task``), ``run`` (the per-document function and the
parent's skip / re-check / write logic),
``executors`` (this process, a local pool, Dask; all ordered and bounded), ``versions``
(pipeline and checker versions that decide what a re-run redoes), ``job`` (``run`` as one
function: store, executor, progress, outputs, exit status).
Leaves: the store (:mod:`specextract.store`), ``claims.csv`` and the report
(:mod:`specextract.output`), a summary and an exit status.
"""
