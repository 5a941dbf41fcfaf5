"""The one list of event classes a run stream may hold, and the codec built over it.

The list is the members of the ``Event`` union: an event class added to its family's union is
known to the codec with no second edit.
"""

from __future__ import annotations

from typing import get_args

from factledger.domain.codec import EventCodec
from factledger.domain.events import Event

__all__ = ["EVENT_CLASSES", "default_codec"]

EVENT_CLASSES: tuple[type, ...] = get_args(Event)
"""Every event class, each with a unique ``TYPE``."""

_CODEC = EventCodec(EVENT_CLASSES)


def default_codec() -> EventCodec:
    """The codec over every event class (built once; it holds no state but caches)."""
    return _CODEC
