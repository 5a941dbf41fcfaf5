"""Failures every store port can report, as values."""

from __future__ import annotations

from attrs import frozen

__all__ = ["StoreUnavailable"]


@frozen
class StoreUnavailable:
    """The store could not be reached or answered with an error; nothing was written."""

    reason: str
    """A short code (``CONNECTION``, ``TIMEOUT``, ``SERVER_ERROR``), never server text."""
