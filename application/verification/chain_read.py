"""A run's head and stream read as one moment of a store that other workers append to.

The head kept outside the stream is read first, then the stream. Every store writes an
append's events and its head together, so the stream read second holds at least the events
the head names; it may hold more when an append landed between the two reads. Those are told
from a forged tail by reading the head once more: a run that grew has a head that moved at
least as far as the stream, and the events after the first head are left out of what is
verified (a later read sees them). A head that did not move keeps the stream as read, and a
tail written past it is EXTRA_EVENTS.
"""

from __future__ import annotations

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.chain import ChainHead, StoredEvent
from factledger.ports.event_store import EventStore
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["ChainRead", "read_chain"]


@frozen
class ChainRead:
    """A run's head and the events it covers."""

    head: ChainHead
    """The head kept outside the stream, read first."""
    events: tuple[StoredEvent, ...]
    """The stream as read, without what was appended after ``head`` was read."""


def read_chain(store: EventStore, run_id: str) -> Result[ChainRead | None, StoreUnavailable]:
    """The run's head and events (``None`` for an unknown run); see the module doc."""
    head_read = store.read_head(run_id)
    if not isinstance(head_read, Success):
        return Failure(head_read.failure())
    head = head_read.unwrap()
    if head is None:
        return Success(None)
    stored = store.read_run(run_id)
    if not isinstance(stored, Success):
        return Failure(stored.failure())
    events: tuple[StoredEvent, ...] = stored.unwrap()
    if events and events[-1].sequence > head.sequence and _grew(store, run_id, head, events):
        events = tuple(item for item in events if item.sequence <= head.sequence)
    return Success(ChainRead(head, events))


def _grew(store: EventStore, run_id: str, head: ChainHead, events: tuple[StoredEvent, ...]) -> bool:
    """True when the head moved past ``head`` to at least the last event read."""
    again = store.read_head(run_id)
    if not isinstance(again, Success):
        return False
    later = again.unwrap()
    return later is not None and later != head and later.sequence >= events[-1].sequence
