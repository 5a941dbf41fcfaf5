"""A folder of runbooks → the chunks to index, in a stable order.

Every ``.md``, ``.markdown`` and ``.txt`` file below the folder is read (UTF-8; a byte that
is not UTF-8 reads as U+FFFD), in sorted path order; hidden files and folders (``.name``) are
skipped, symbolic links to folders are not followed. A document's id is its path relative to
the folder, with ``/`` separators (``card-gateway/timeouts.md``): stable across restarts and
machines as long as the file keeps its place. Its title is its first level-1 heading, else its
file name without the extension. A chunk's id is ``<document id>#<section>.<chunk>``
(1-based, document order).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from attrs import frozen

from factledger.adapters.knowledge.documents import (
    ParsedDocument,
    chunk_text,
    parse_markdown,
    parse_plain,
)

__all__ = ["SECTION_SEPARATOR", "Chunk", "Corpus", "read_corpus"]

SECTION_SEPARATOR: Final = " > "
"""Joins the headings of a section path."""
_MARKDOWN: Final = frozenset({".md", ".markdown"})
_PLAIN: Final = frozenset({".txt"})


@frozen
class Chunk:
    """One piece of one document, as it is indexed."""

    document_id: str
    """The document's path relative to the folder, ``/``-separated."""
    title: str
    """The document's title."""
    section: str
    """The section's heading path, joined with `` > ``; "" before the first sub-heading."""
    chunk_id: str
    """``<document id>#<section number>.<chunk number>``."""
    text: str
    """The chunk's text."""


@frozen
class Corpus:
    """Everything read from one folder."""

    chunks: tuple[Chunk, ...]
    """Every chunk, documents in path order, chunks in document order."""
    documents: int
    """Documents that gave at least one chunk."""
    sections: int
    """Non-empty sections over all documents."""
    skipped: tuple[str, ...]
    """Relative paths of runbook files that were not indexed (unreadable or too large)."""


def read_corpus(folder: Path, max_chunk_chars: int, max_file_bytes: int) -> Corpus:
    """The chunks of every runbook below ``folder`` (which must be a readable folder)."""
    chunks: list[Chunk] = []
    skipped: list[str] = []
    documents = 0
    sections = 0
    for path in _runbook_files(folder):
        document_id = path.relative_to(folder).as_posix()
        try:
            if path.stat().st_size > max_file_bytes:
                skipped.append(document_id)
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            skipped.append(document_id)
            continue
        parsed = _parse(path, text)
        if not parsed.sections:
            continue
        documents += 1
        sections += len(parsed.sections)
        title = parsed.title or path.stem
        for section_number, section in enumerate(parsed.sections, start=1):
            section_path = SECTION_SEPARATOR.join(section.path)
            for chunk_number, piece in enumerate(
                chunk_text(section.text, max_chunk_chars), start=1
            ):
                chunks.append(
                    Chunk(
                        document_id=document_id,
                        title=title,
                        section=section_path,
                        chunk_id=f"{document_id}#{section_number}.{chunk_number}",
                        text=piece,
                    )
                )
    return Corpus(tuple(chunks), documents, sections, tuple(skipped))


def _parse(path: Path, text: str) -> ParsedDocument:
    if path.suffix.lower() in _MARKDOWN:
        return parse_markdown(text)
    return parse_plain(text)


def _runbook_files(folder: Path) -> list[Path]:
    found: list[Path] = []
    for root, folders, files in os.walk(folder, followlinks=False):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in files:
            path = Path(root) / name
            if name.startswith(".") or path.suffix.lower() not in _MARKDOWN | _PLAIN:
                continue
            if path.is_file():
                found.append(path)
    return sorted(found, key=lambda path: path.relative_to(folder).as_posix())
