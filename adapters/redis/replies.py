"""Typed readers for raw Redis replies (the client is built with ``decode_responses=False``),
and the one rule that turns a failed call or a reply of another shape into a value."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from returns.result import Failure, Result, Success

from factledger.adapters.redis.connection import REDIS_ERRORS
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["UnexpectedReply", "as_bytes", "as_optional_bytes", "call_redis", "stream_entries"]

T = TypeVar("T")


class UnexpectedReply(Exception):
    """A reply of a shape the adapter does not expect."""


def as_bytes(value: object) -> bytes:
    """A bulk-string reply."""
    if not isinstance(value, bytes):
        raise UnexpectedReply(type(value).__name__)
    return value


def as_optional_bytes(value: object) -> bytes | None:
    """A bulk-string reply or nil."""
    return None if value is None else as_bytes(value)


def stream_entries(reply: object) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """An XRANGE reply as ``(entry id, fields)`` pairs."""
    if not isinstance(reply, list):
        raise UnexpectedReply(type(reply).__name__)
    entries: list[tuple[bytes, dict[bytes, bytes]]] = []
    for item in reply:
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise UnexpectedReply("entry")
        entry_id, raw_fields = item
        if not isinstance(raw_fields, dict):
            raise UnexpectedReply("fields")
        fields = {as_bytes(key): as_bytes(value) for key, value in raw_fields.items()}
        entries.append((as_bytes(entry_id), fields))
    return entries


def call_redis(work: Callable[[], T]) -> Result[T, StoreUnavailable]:
    """What ``work`` makes of its calls to Redis, or why there is nothing: the server could
    not be used (``CONNECTION``), or a reply, a field or a number in it was not of the shape
    the adapter expects (``UNEXPECTED_REPLY``)."""
    try:
        return Success(work())
    except REDIS_ERRORS:
        return Failure(StoreUnavailable("CONNECTION"))
    except (UnexpectedReply, KeyError, ValueError):
        return Failure(StoreUnavailable("UNEXPECTED_REPLY"))
