"""Text clean-up for knowledge blocks: one line of plain spacing, cut on a word boundary."""

from __future__ import annotations

import re
from typing import Final

from attrs import frozen

__all__ = ["ELLIPSIS", "Clipped", "clip_words", "flatten"]

ELLIPSIS: Final = "…"
"""What a cut text ends with."""

_INVISIBLE: Final[dict[int, None]] = dict.fromkeys(
    [
        *range(0x00, 0x09),  # C0 controls before TAB
        *range(0x0E, 0x1C),  # C0 controls that are not white space
        0x7F,
        *range(0x80, 0x85),  # C1 controls (NEL, 0x85, is white space)
        *range(0x86, 0xA0),
        *range(0x200B, 0x2010),  # zero-width spaces, joiners and direction marks
        0x2060,  # word joiner
        *range(0xD800, 0xE000),  # lone surrogates: no UTF-8 encoding exists for them
        0xFEFF,  # byte order mark
    ]
)


@frozen
class Clipped:
    """A text after clipping."""

    text: str
    """The text, at most the limit in characters (ellipsis included)."""
    cut: bool
    """True when anything was removed."""


def _character_class(codes: list[int]) -> str:
    """A regular-expression class matching exactly ``codes`` (runs written as ranges)."""
    parts: list[str] = []
    ordered = sorted(codes)
    start = previous = ordered[0]
    for code in [*ordered[1:], -1]:
        if code == previous + 1:
            previous = code
            continue
        first, last = re.escape(chr(start)), re.escape(chr(previous))
        parts.append(first if start == previous else f"{first}-{last}")
        start = previous = code
    return "[" + "".join(parts) + "]"


_ANY_INVISIBLE: Final = re.compile(_character_class(list(_INVISIBLE)))


def flatten(text: str) -> str:
    """``text`` with control characters, zero-width characters and lone surrogates removed
    and every run of white space (line breaks included) made one space, stripped at both
    ends: one line that always encodes as UTF-8."""
    if _ANY_INVISIBLE.search(text) is not None:  # rare: skip the translation when clean
        text = text.translate(_INVISIBLE)
    return " ".join(text.split())


def clip_words(text: str, max_chars: int) -> Clipped:
    """``text`` cut to at most ``max_chars`` characters, ending with an ellipsis when cut.

    The cut falls after the last whole word that fits, unless that would keep less than half
    of the room (one very long word): then the word itself is cut.
    """
    if len(text) <= max_chars:
        return Clipped(text, cut=False)
    if max_chars <= 1:
        return Clipped(ELLIPSIS[:max_chars], cut=True)
    room = max_chars - len(ELLIPSIS)
    head = text[: room + 1]
    boundary = head.rfind(" ")
    kept = head[:boundary] if boundary >= room // 2 else head[:room]
    return Clipped(kept.rstrip(" ,;:") + ELLIPSIS, cut=True)
