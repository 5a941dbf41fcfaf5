"""Text clean-up for knowledge blocks: one line of plain spacing, cut on a word boundary."""

from __future__ import annotations

import re
from typing import Final

from attrs import frozen

__all__ = ["ELLIPSIS", "Clipped", "clip_words", "dedup_key", "flatten"]

ELLIPSIS: Final = "…"
"""What a cut text ends with."""

_CONTROL: Final = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]"
)
_SPACE: Final = re.compile(r"\s+")


@frozen
class Clipped:
    """A text after clipping."""

    text: str
    """The text, at most the limit in characters (ellipsis included)."""
    cut: bool
    """True when anything was removed."""


def flatten(text: str) -> str:
    """``text`` with control and zero-width characters removed and every run of white space
    (line breaks included) made one space, stripped at both ends."""
    return _SPACE.sub(" ", _CONTROL.sub("", text)).strip()


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


def dedup_key(text: str) -> str:
    """The form under which two chunk texts count as the same: flattened and case-folded."""
    return flatten(text).casefold()
