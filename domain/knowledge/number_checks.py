"""The checks the knowledge options run on their numbers when they are built.

A bad number is a configuration error raised at construction (``ValueError``), before any
search runs; the message names the field and the value.
"""

from __future__ import annotations

__all__ = ["at_least_one", "at_least_two", "share"]


def at_least_one(_: object, attribute: object, value: int) -> None:
    """A count or size of at least 1."""
    if value < 1:
        raise ValueError(f"{attribute!r} must be at least 1, not {value!r}")


def at_least_two(_: object, attribute: object, value: int) -> None:
    """A length of at least 2: room for one character and the ellipsis."""
    if value < 2:
        raise ValueError(f"{attribute!r} must be at least 2, not {value!r}")


def share(_: object, attribute: object, value: float) -> None:
    """A share between 0 and 1, both included."""
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute!r} must be between 0 and 1, not {value!r}")
