"""Runbook text → title, sections and chunks.

Markdown (``.md``, ``.markdown``): the first level-1 ATX heading (``# Title``) is the title;
every other ATX heading (``#`` to ``######``) starts a section whose path is the chain of
headings above it, below the title (``Remedy > Pool exhausted``). Text before the first
sub-heading has the path ``()``. Headings inside fenced code blocks are text; a YAML front
matter block is skipped; setext headings (underlined) are read as text. Plain text
(``.txt``): one section, no title. A section's text is cut into chunks of at most
``max_chars`` characters at paragraph boundaries, a longer paragraph at word boundaries.
"""

from __future__ import annotations

import re
from typing import Final

from attrs import frozen

__all__ = ["ParsedDocument", "Section", "chunk_text", "parse_markdown", "parse_plain"]

_HEADING: Final = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_CLOSING_HASHES: Final = re.compile(r"(?:^|[ \t]+)#+$")
_FENCE: Final = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BLANK_LINES: Final = re.compile(r"\n[ \t]*\n")
_MAX_FRONT_MATTER_LINES: Final = 200


@frozen
class Section:
    """A run of text under one heading."""

    path: tuple[str, ...]
    """The headings above it, outermost first, the title excluded."""
    text: str
    """Its text, without the heading line, stripped."""


@frozen
class ParsedDocument:
    """A document split into sections."""

    title: str | None
    """The first level-1 heading, if any."""
    sections: tuple[Section, ...]
    """The non-empty sections, in document order."""


def parse_plain(text: str) -> ParsedDocument:
    """A plain-text document: one section, no title."""
    body = _normalise_newlines(text).strip()
    return ParsedDocument(None, (Section((), body),) if body else ())


def parse_markdown(text: str) -> ParsedDocument:
    """A Markdown document's title and sections."""
    lines = _skip_front_matter(_normalise_newlines(text).split("\n"))
    title: str | None = None
    stack: list[tuple[int, str]] = []
    sections: list[Section] = []
    body: list[str] = []
    fence: str | None = None

    def flush() -> None:
        content = "\n".join(body).strip()
        if content:
            sections.append(Section(tuple(heading for _, heading in stack), content))
        body.clear()

    for line in lines:
        fence_match = _FENCE.match(line)
        if fence is not None:
            if (
                fence_match
                and fence_match.group(1)[0] == fence[0]
                and (len(fence_match.group(1)) >= len(fence))
            ):
                fence = None
            body.append(line)
            continue
        if fence_match:
            fence = fence_match.group(1)
            body.append(line)
            continue
        heading = _HEADING.match(line)
        if heading is None:
            body.append(line)
            continue
        flush()
        level = len(heading.group(1))
        heading_text = _CLOSING_HASHES.sub("", heading.group(2) or "").strip()
        if level == 1 and title is None and heading_text:
            title = heading_text
            stack.clear()
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        if heading_text:
            stack.append((level, heading_text))
    flush()
    return ParsedDocument(title, tuple(sections))


def chunk_text(text: str, max_chars: int) -> tuple[str, ...]:
    """``text`` in chunks of at most ``max_chars`` characters: whole paragraphs packed
    together while they fit; a paragraph longer than that is cut between words (a single word
    longer than that is cut inside)."""
    pieces: list[str] = []
    for paragraph in _BLANK_LINES.split(text):
        stripped = paragraph.strip("\n")
        if stripped.strip():
            pieces.extend(_split_long(stripped, max_chars))
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        if not current:
            current = piece
        elif len(current) + 2 + len(piece) <= max_chars:
            current = f"{current}\n\n{piece}"
        else:
            chunks.append(current)
            current = piece
    if current:
        chunks.append(current)
    return tuple(chunks)


def _split_long(paragraph: str, max_chars: int) -> list[str]:
    if len(paragraph) <= max_chars:
        return [paragraph]
    parts: list[str] = []
    rest = paragraph
    while len(rest) > max_chars:
        cut = max(rest.rfind(" ", 0, max_chars + 1), rest.rfind("\n", 0, max_chars + 1))
        if cut <= 0:
            cut = max_chars
        parts.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        parts.append(rest)
    return parts


def _normalise_newlines(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _skip_front_matter(lines: list[str]) -> list[str]:
    if not lines or lines[0].strip() != "---":
        return lines
    for index in range(1, min(len(lines), _MAX_FRONT_MATTER_LINES)):
        if lines[index].strip() in ("---", "..."):
            return lines[index + 1 :]
    return lines
