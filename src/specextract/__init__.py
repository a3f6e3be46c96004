"""specextract: extract AI-accelerator spec claims from articles and check them.

Stages, each a plain function over records::

    read_document(path) -> Document            (specextract.ingest)
    normalize(text) -> Normalized               (specextract.normalize)
    extract(text, doc_id=...) -> list[Claim]    (specextract.extract)
    check(claims) -> list[CheckedClaim]         (specextract.check)
"""
from __future__ import annotations

__version__ = "0.1.0"

from .check import check, consensus
from .extract import extract
from .ingest import read_document
from .normalize import Normalized, normalize
from .reference import ReferenceError, load_reference

__all__ = ["__version__", "read_document", "normalize", "Normalized", "extract", "check",
           "consensus", "load_reference", "ReferenceError"]
