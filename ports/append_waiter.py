"""An optional capability of an event store: waiting for a run's next append.

A retry of a call that is still running elsewhere waits for that call to finish. A store that
can tell when a run's stream grows (a condition in process, a blocking stream read on Redis)
offers ``wait_for_append``; for any other store the application reads the head with a short
backoff instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, Protocol, runtime_checkable

from returns.result import Result, Success

from factledger.domain.chain import ChainHead
from factledger.ports.store_errors import StoreUnavailable

__all__ = [
    "FIRST_PAUSE",
    "LONGEST_PAUSE",
    "AppendWaiter",
    "holds_event_after",
    "read_until_appended",
]

FIRST_PAUSE: Final = 0.002
"""Seconds before the second read of the head, in a wait that reads it; doubled each time."""
LONGEST_PAUSE: Final = 0.05
"""Longest pause between two reads of the head."""


def holds_event_after(
    head: Result[ChainHead | None, StoreUnavailable], after_sequence: int
) -> bool:
    """Whether a read of the run's head shows an event after ``after_sequence`` (a failed
    read shows nothing: the wait reads again)."""
    if not isinstance(head, Success):
        return False
    found = head.unwrap()
    return found is not None and found.sequence > after_sequence


def read_until_appended(
    read_head: Callable[[], Result[ChainHead | None, StoreUnavailable]],
    after_sequence: int,
    timeout_seconds: float,
    pause: Callable[[float], None] = time.sleep,
) -> bool:
    """Read the run's head until it shows an event after ``after_sequence`` (True) or the
    timeout has passed (False), pausing between reads from ``FIRST_PAUSE``, doubled up to
    ``LONGEST_PAUSE`` and never past the deadline; ``pause`` may return early (a store that
    is woken by its own appends)."""
    deadline = time.monotonic() + timeout_seconds
    wait = FIRST_PAUSE
    while True:
        if holds_event_after(read_head(), after_sequence):
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        pause(min(wait, left))
        wait = min(wait * 2, LONGEST_PAUSE)


@runtime_checkable
class AppendWaiter(Protocol):
    """An event store that can block until a run's stream grows."""

    def wait_for_append(self, run_id: str, after_sequence: int, timeout_seconds: float) -> bool:
        """Return once the run holds an event after ``after_sequence`` (True) or once
        ``timeout_seconds`` have passed (False). Never raises: a store that cannot be read
        returns False at once or at the timeout, and the caller reads again."""
        ...
