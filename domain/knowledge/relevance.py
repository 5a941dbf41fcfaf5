"""How relevant a knowledge block is: a coarse level, never a raw score.

The model sees only the level. HIGH and MEDIUM say that the text matches the query well;
REFERENCE says that it is related and shown for reference only: it is still
evidence (EVIDENCE_FOUND), never by itself NO_GAIN, and never by itself root-cause evidence.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = ["RelevanceLevel", "best_level", "normalise_relevance"]


class RelevanceLevel(StrEnum):
    """The coarse relevance of one evidence block, best first."""

    HIGH = "HIGH"
    """Matches the query closely."""
    MEDIUM = "MEDIUM"
    """Matches part of the query."""
    REFERENCE = "REFERENCE"
    """Related; for reference only."""

    @property
    def rank(self) -> int:
        """0 for HIGH, 1 for MEDIUM, 2 for REFERENCE: sorting by it puts the best first."""
        return _RANKS[self]


_RANKS: Final = {RelevanceLevel.HIGH: 0, RelevanceLevel.MEDIUM: 1, RelevanceLevel.REFERENCE: 2}
_BY_NAME: Final = {level.value: level for level in RelevanceLevel}


def normalise_relevance(value: object) -> RelevanceLevel:
    """The level a backend's value names, read case-insensitively and without surrounding
    white space; anything else (unknown names, numbers, null, a missing value) is REFERENCE,
    the most modest claim."""
    if not isinstance(value, str):
        return RelevanceLevel.REFERENCE
    return _BY_NAME.get(value.strip().upper(), RelevanceLevel.REFERENCE)


def best_level(levels: tuple[RelevanceLevel, ...]) -> RelevanceLevel | None:
    """The best of ``levels``, or None when there are none."""
    if not levels:
        return None
    return min(levels, key=_RANKS.__getitem__)
