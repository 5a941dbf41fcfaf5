"""An optional capability of an event store: waiting for a run's next append.

A retry of a call that is still running elsewhere waits for that call to finish. A store that
can tell when a run's stream grows (a condition in process, a blocking stream read on Redis)
offers ``wait_for_append``; for any other store the application reads the head with a short
backoff instead.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["AppendWaiter"]


@runtime_checkable
class AppendWaiter(Protocol):
    """An event store that can block until a run's stream grows."""

    def wait_for_append(self, run_id: str, after_sequence: int, timeout_seconds: float) -> bool:
        """Return once the run holds an event after ``after_sequence`` (True) or once
        ``timeout_seconds`` have passed (False). Never raises: a store that cannot be read
        returns False at once or at the timeout, and the caller reads again."""
        ...
