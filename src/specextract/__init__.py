"""specextract: extract AI-accelerator spec claims from articles and check them.

One folder per stage, each a plain function over records::

    read_document(path) -> Document            (specextract.ingest)
    normalize(text) -> Normalized               (specextract.normalize)
    extract(text, doc_id=...) -> list[Claim]    (specextract.extract)
    check(claims) -> list[CheckedClaim]         (specextract.check)
    to_frame(claims) -> pandas.DataFrame        (specextract.output.frames)
    open_store(path).claims() -> DataFrame      (a store ``specextract run`` wrote)

beside them ``lexicon`` (the data files every stage reads), ``batch`` (the ``run`` job),
``store`` (the SQLite store), ``output`` (exports and the HTML report) and ``eval``
(gold sets and scores); ``codebook``, ``records`` and ``rows`` (records to rows and
back) are the vocabulary they share.
"""
from __future__ import annotations

__version__ = "0.1.0"

from . import compiled

compiled.install()  # the compiled extraction modules, when built from these sources

from .check import ReferenceTableError, check, consensus, load_reference
from .errors import DataFileError, DocumentError, SpecExtractError, StoreError
from .extract import extract
from .ingest import read_document
from .normalize import Normalized, normalize
from .output.frames import open_store, to_frame
from .records import CheckedClaim, Claim

__all__ = ["__version__", "read_document", "normalize", "Normalized", "extract", "check",
           "consensus", "load_reference", "to_frame", "open_store", "Claim", "CheckedClaim",
           "SpecExtractError", "DocumentError", "DataFileError", "StoreError",
           "ReferenceTableError"]
