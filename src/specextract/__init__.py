"""specextract: extract AI-accelerator spec claims from articles and check them.

Stages, each a plain function over records::

    read_document(path) -> Document          (specextract.ingest)
    normalize(text) -> Normalized             (specextract.normalize)
"""
from __future__ import annotations

__version__ = "0.1.0"

from .ingest import read_document
from .normalize import Normalized, normalize

__all__ = ["__version__", "read_document", "normalize", "Normalized"]
