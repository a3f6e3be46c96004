"""The lexicon: the bundled data files (or a user's own) and the regexes built from them.

Enters: TSV files with a ``#`` header (``data/``, or files a user names).
Leaves: rows of each file (``files``), and word-list regexes (``trie``: one factored
alternation per lexicon) for the finders in :mod:`specextract.extract` and
:mod:`specextract.normalize`.
"""
from __future__ import annotations

from .files import data_path, parse_codepoints, read_tsv
from .lexicon import DATA_FILES, DataFile, Lexicon, default_lexicon
from .trie import plain_trie, scan, squash, trie_regex

__all__ = ["DATA_FILES", "DataFile", "Lexicon", "data_path", "default_lexicon",
           "parse_codepoints", "read_tsv", "plain_trie", "scan", "squash", "trie_regex"]
