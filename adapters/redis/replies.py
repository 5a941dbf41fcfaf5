"""Typed readers for raw Redis replies (the client is built with ``decode_responses=False``)."""

from __future__ import annotations

__all__ = ["UnexpectedReply", "as_bytes", "as_optional_bytes", "stream_entries"]


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
