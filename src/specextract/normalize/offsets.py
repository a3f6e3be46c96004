"""A compact, monotone map from normalized-text positions to original-text positions.

The map is stored as runs: run ``r`` covers output positions ``starts[r]`` up to the
next run's start, and maps position ``i`` to ``bases[r] + slopes[r] * (i - starts[r])``
with a slope of 1 (copied text) or 0 (text produced by a replacement, pinned to the
last character of what it replaced). A normalizer that deletes a few characters or
swaps a few phrases therefore costs a handful of runs, not one integer per character.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import NamedTuple


class Edit(NamedTuple):
    """Replace ``text[start:end]`` (non-empty) by ``replacement`` (possibly empty)."""

    start: int
    end: int
    replacement: str


class OffsetMap(Sequence):
    """``m[i]`` is the index in the original text of the character that made output ``i``."""

    __slots__ = ("starts", "bases", "slopes", "length")

    def __init__(self, starts: list[int], bases: list[int], slopes: list[int], length: int):
        self.starts, self.bases, self.slopes, self.length = starts, bases, slopes, length

    @classmethod
    def identity(cls, length: int) -> "OffsetMap":
        return cls([0] if length else [], [0] if length else [], [1] if length else [], length)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.length))]
        if i < 0:
            i += self.length
        if not 0 <= i < self.length:
            raise IndexError(i)
        r = bisect_right(self.starts, i) - 1
        return self.bases[r] + self.slopes[r] * (i - self.starts[r])

    def __iter__(self) -> Iterator[int]:
        ends = self.starts[1:] + [self.length]
        for s, e, b, k in zip(self.starts, ends, self.bases, self.slopes):
            if k:
                yield from range(b, b + e - s)
            else:
                yield from (b for _ in range(e - s))

    def is_identity(self) -> bool:
        return len(self.starts) <= 1 and (not self.starts or (self.bases[0] == 0 and self.slopes[0] == 1))

    def to_list(self) -> list[int]:
        return list(self)

    def runs(self) -> Iterator[tuple[int, int, int, int]]:
        """(start, end, base, slope) for each run."""
        ends = self.starts[1:] + [self.length]
        return zip(self.starts, ends, self.bases, self.slopes)

    def span(self, start: int, end: int, original_length: int) -> tuple[int, int]:
        """Original half-open span covering output ``[start, end)``."""
        if end <= start:
            pos = self[start] if start < self.length else original_length
            return pos, pos
        if not 0 <= start < end <= self.length:
            return self[start], self[end - 1] + 1  # negative or out of range: as indexing does
        starts, bases, slopes = self.starts, self.bases, self.slopes
        r = bisect_right(starts, start) - 1
        first = bases[r] + slopes[r] * (start - starts[r])
        last = end - 1
        if r + 1 < len(starts) and starts[r + 1] <= last:
            r = bisect_right(starts, last, r + 1) - 1
        return first, bases[r] + slopes[r] * (last - starts[r]) + 1

    def then(self, step: "OffsetMap") -> "OffsetMap":
        """Compose: a map for text produced by ``step`` from the text this map describes."""
        if self.is_identity():
            return step
        out = RunBuilder()
        for s, e, b, k in step.runs():
            if k == 0:
                out.add(s, self[b], 0)
                continue
            pos, stop = b, b + (e - s)  # copied range of the intermediate text
            r = bisect_right(self.starts, pos) - 1
            while pos < stop:
                run_end = self.starts[r + 1] if r + 1 < len(self.starts) else self.length
                take = min(stop, run_end) - pos
                value = self.bases[r] + self.slopes[r] * (pos - self.starts[r])
                out.add(s + (pos - b), value, self.slopes[r])
                pos += take
                r += 1
        return out.build(step.length)


class RunBuilder:
    def __init__(self) -> None:
        self.starts: list[int] = []
        self.bases: list[int] = []
        self.slopes: list[int] = []

    def add(self, start: int, base: int, slope: int) -> None:
        if self.starts:
            prev = len(self.starts) - 1
            expected = self.bases[prev] + self.slopes[prev] * (start - self.starts[prev])
            if slope == self.slopes[prev] and base == expected:
                return  # continues the previous run
        self.starts.append(start)
        self.bases.append(base)
        self.slopes.append(slope)

    def build(self, length: int) -> OffsetMap:
        return OffsetMap(self.starts, self.bases, self.slopes, length)


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, OffsetMap | None]:
    """Apply sorted, non-overlapping edits. Returns the new text and its map into ``text``
    (``None`` when nothing changed)."""
    pieces: list[str] = []
    out = RunBuilder()
    pos = out_pos = 0
    changed = False
    for start, end, repl in edits:
        if start < pos or end <= start:
            continue  # overlapping or empty edit: keep the earlier one
        if start > pos:
            pieces.append(text[pos:start])
            out.add(out_pos, pos, 1)
            out_pos += start - pos
        if repl:
            n, width = len(repl), end - start
            out.add(out_pos, start, 1)
            if n > width:
                out.add(out_pos + width, end - 1, 0)
            pieces.append(repl)
            out_pos += n
        pos = end
        changed = True
    if not changed:
        return text, None
    if pos < len(text):
        pieces.append(text[pos:])
        out.add(out_pos, pos, 1)
        out_pos += len(text) - pos
    return "".join(pieces), out.build(out_pos)


def delete_matches(text: str, pattern: re.Pattern) -> tuple[str, OffsetMap | None]:
    """Delete every match of ``pattern`` (one capturing group around the whole pattern).

    ``pattern.split`` does the scanning in C; the map's runs come from the piece lengths.
    """
    parts = pattern.split(text)
    if len(parts) == 1:
        return text, None
    in_starts = list(accumulate(map(len, parts), initial=0))
    kept = parts[0::2]
    out_starts = list(accumulate(map(len, kept), initial=0))
    starts, bases = [], []
    for out_start, in_start, piece in zip(out_starts, in_starts[0::2], kept):
        if piece:
            starts.append(out_start)
            bases.append(in_start)
    return "".join(kept), OffsetMap(starts, bases, [1] * len(starts), out_starts[-1])
