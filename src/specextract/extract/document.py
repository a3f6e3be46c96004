"""One document through the stages: read -> normalize -> extract (-> check, when asked)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .claims import extract_normalized
from ..ingest.read import read_document
from ..normalize.text import Normalized, normalize
from ..records import Claim, Document


@dataclass(frozen=True)
class Processed:
    document: Document
    normalized: Normalized
    claims: list[Claim]


def process_file(path: str | Path) -> Processed:
    """Read, normalize and extract one article file (raises DocumentError)."""
    return process_document(read_document(path))


def process_document(doc: Document) -> Processed:
    """Normalize and extract a document already read (the batch runner's entry point)."""
    norm = normalize(doc.text)
    return Processed(doc, norm, extract_normalized(doc.text, norm, doc.doc_id))
