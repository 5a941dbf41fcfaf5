"""Every event a run's stream can hold, and the envelope it is recorded in.

The stream of a run is one sequence shared by its aggregates (Run, Invocation, and the
aggregates later modules add); ``Event`` is their closed union.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias

from attrs import frozen

from factledger.domain.progress.events import ProgressEvent
from factledger.domain.release.events import ReleaseEvent
from factledger.domain.run_events import RunEvent

__all__ = ["Event", "GENESIS_HASH", "RecordedEvent"]

GENESIS_HASH = "0" * 64
"""The ``prev_hash`` of a run's first event."""

Event: TypeAlias = RunEvent | ProgressEvent | ReleaseEvent
"""Every event type a run stream can hold."""


@frozen
class RecordedEvent:
    """An event as recorded: its place in the run's chain and its exact stored bytes."""

    run_id: str
    """The run whose stream holds it."""
    sequence: int
    """1, 2, … within the run."""
    occurred_at: datetime
    """When it was decided (from the application's clock)."""
    event: Event
    """The domain event."""
    prev_hash: str
    """The hash of the previous event (``GENESIS_HASH`` for the first)."""
    hash: str
    """SHA-256 over the previous hash and ``data``."""
    data: bytes
    """The canonical encoding, exactly as stored."""
