"""specextract: extract AI-accelerator spec claims from articles and check them.

One folder per stage, each a plain function over records::

    read_document(path) -> Document            (specextract.ingest)
    normalize(text) -> Normalized               (specextract.normalize)
    extract(text, doc_id=...) -> list[Claim]    (specextract.extract)
    check(claims) -> list[CheckedClaim]         (specextract.check)

beside them ``lexicon`` (the data files every stage reads), ``batch`` (the ``run`` job),
``store`` (the SQLite store), ``output`` (exports and the HTML report) and ``eval``
(gold sets and scores); ``codebook`` and ``records`` are the vocabulary they share.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .check import ReferenceError, check, consensus, load_reference
from .extract import extract
from .ingest import read_document
from .normalize import Normalized, normalize

__all__ = ["__version__", "read_document", "normalize", "Normalized", "extract", "check",
           "consensus", "load_reference", "ReferenceError"]
