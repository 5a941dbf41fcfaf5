"""Waiting, bounded, for a run's stream to grow past a sequence.

Event-driven where the store can be watched (``AppendWaiter``); otherwise the head is read
with a backoff from 2 ms to 50 ms, so a short wait stays short and a long one costs few reads.
"""

from __future__ import annotations

from factledger.ports.append_waiter import AppendWaiter, read_until_appended
from factledger.ports.event_store import EventStore

__all__ = ["wait_for_append"]


def wait_for_append(
    store: EventStore, run_id: str, after_sequence: int, timeout_seconds: float
) -> bool:
    """True once the run holds an event after ``after_sequence``; False at the timeout."""
    if timeout_seconds <= 0:
        return False
    if isinstance(store, AppendWaiter):
        return store.wait_for_append(run_id, after_sequence, timeout_seconds)
    return read_until_appended(lambda: store.read_head(run_id), after_sequence, timeout_seconds)
