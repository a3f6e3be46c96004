"""Ingest: files on disk -> :class:`~specextract.records.Document` (text and how it was read).

Enters: input arguments (files, folders, globs: ``inputs``), a path or bytes.
Leaves: a stream of paths, and per file a ``Document`` with decoded text (``read``:
size and type checks; ``decode``: encodings, line by line when mixed; ``html``: visible
text of HTML), or a typed :class:`~specextract.errors.DocumentError`. The stage's
fixed regular expressions are in ``patterns``.
"""
from __future__ import annotations

from .inputs import count_input_files, iter_input_files
from .read import MAX_BYTES, decode_bytes, decode_document, document_from_bytes, read_bytes, read_document

__all__ = ["MAX_BYTES", "count_input_files", "decode_bytes", "decode_document",
           "document_from_bytes", "iter_input_files", "read_bytes", "read_document"]
