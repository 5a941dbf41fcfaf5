"""Finding the lines that may hold a query term, on raw bytes, before anything is decoded.

One term (the anchor: an ASCII one when there is one, the longest) is searched in a whole
chunk at a time; only the lines holding it are decoded and checked against the full query.
The search never misses a line the reference match (``term in text.lower()``) would find:

* an ASCII term is searched in the chunk lower-cased byte by byte (``bytes.lower`` folds
  ASCII only, which is all an ASCII term can meet: no other character lower-cases to ASCII
  except ``İ`` (U+0130) and the Kelvin sign (U+212A), and a chunk holding either is searched
  as text instead); a term without letters is searched in the bytes as they are;
* any other term is searched in the chunk decoded and lower-cased as text: lower-casing goes
  character by character, and its one rule that looks at the letters around (a final sigma)
  stops at a line break, so a line lower-cased within its chunk reads as it does alone.

Terms holding a line break never reach this search (the scan reads those files line by line).
"""

from __future__ import annotations

from typing import Final, Protocol

from factledger.adapters.logs.file_reader import Chunk

__all__ = ["ChunkHits", "TermFinder"]

_ASCII_FOLDS: Final = ("\u0130".encode(), "\u212a".encode())
"""The only non-ASCII characters whose lower case holds an ASCII character."""


class ChunkHits(Protocol):
    """The lines of one chunk that hold the anchor, found in increasing order."""

    def next_line(self, start: int) -> int:
        """The chunk-relative start of the first line at or after ``start`` (itself a line
        start, never less than the one asked before) that holds the anchor, or -1."""
        ...


class _ByteHits:
    __slots__ = ("_haystack", "_needle", "_size")

    def __init__(self, haystack: bytes, needle: bytes, size: int) -> None:
        self._haystack = haystack
        self._needle = needle
        self._size = size

    def next_line(self, start: int) -> int:
        haystack = self._haystack
        found = haystack.find(self._needle, start, self._size)
        if found < 0:
            return -1
        return haystack.rfind(b"\n", start, found) + 1 or start


class _TextHits:
    __slots__ = ("_byte", "_char", "_data", "_needle", "_text")

    def __init__(self, chunk: Chunk, needle: str) -> None:
        self._data = chunk.data
        self._text = chunk.data[: chunk.size].decode("utf-8", "replace").lower()
        self._needle = needle
        self._byte = 0
        self._char = 0

    def next_line(self, start: int) -> int:
        if start > self._byte:
            segment = self._data[self._byte : start].decode("utf-8", "replace")
            self._char += len(segment.lower())
            self._byte = start
        text = self._text
        found = text.find(self._needle, self._char)
        if found < 0:
            return -1
        line_char = text.rfind("\n", self._char, found) + 1 or self._char
        data = self._data
        position = self._byte
        for _ in range(text.count("\n", self._char, line_char)):
            position = data.find(b"\n", position) + 1
        self._byte = position
        self._char = line_char
        return position


class TermFinder:
    """Finds, chunk by chunk, the lines that may hold a query's anchor term."""

    def __init__(self, terms: tuple[str, ...]) -> None:
        """``terms`` are lower-cased (``query_terms``) and hold no line break."""
        anchor = max(terms, key=lambda term: (term.isascii(), len(term)))
        self.anchor = anchor
        self._ascii = anchor.isascii()
        self._needle = anchor.encode("utf-8") if self._ascii else b""
        self._has_letters = self._needle.lower() != self._needle.upper()
        self._text_needle = anchor
        self._single = len(terms) == 1 and not anchor.isspace()

    def decides(self, hits: ChunkHits) -> bool:
        """True when a line ``hits`` found matches the query's text on its own: one term,
        searched on the line's bytes (so the decoded, lower-cased line holds it too)."""
        return self._single and isinstance(hits, _ByteHits)

    def hits(self, chunk: Chunk) -> ChunkHits:
        """The anchor's lines in ``chunk``."""
        data = chunk.data
        if not self._ascii:
            return _TextHits(chunk, self._text_needle)
        if not self._has_letters:
            return _ByteHits(data, self._needle, chunk.size)
        if not data.isascii() and any(fold in data for fold in _ASCII_FOLDS):
            return _TextHits(chunk, self._text_needle)
        return _ByteHits(data.lower(), self._needle, chunk.size)
