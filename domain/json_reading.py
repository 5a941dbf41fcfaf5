"""Reading a decoded JSON value of an expected shape.

Each reader returns the value as its type or raises ``ShapeMismatch``; the one reading that
began it catches the exception and answers with a value (``read_strict`` for a text), so that
no reader of untrusted JSON lets it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from factledger.domain.strict_json import decode_strict

__all__ = ["ShapeMismatch", "as_dict", "as_list", "as_text", "read_strict"]

T = TypeVar("T")


class ShapeMismatch(Exception):
    """A decoded value is not of the shape its reader expects."""


def as_dict(value: object) -> dict[str, object]:
    """``value`` as a JSON object."""
    if not isinstance(value, dict):
        raise ShapeMismatch
    return value


def as_list(value: object) -> list[object]:
    """``value`` as a JSON array."""
    if not isinstance(value, list):
        raise ShapeMismatch
    return value


def as_text(value: object) -> str:
    """``value`` as a JSON string."""
    if not isinstance(value, str):
        raise ShapeMismatch
    return value


def read_strict(text: str, read: Callable[[object], T]) -> T | None:
    """``read`` over the strict decoding of ``text``; None when the text is not JSON (a key
    given twice, a non-standard constant or too deep a nesting included) or the value is not
    of the shape ``read`` expects."""
    try:
        return read(decode_strict(text))
    except (ValueError, RecursionError, ShapeMismatch):
        return None
