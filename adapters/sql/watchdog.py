"""The client-side deadline of a running statement, shared by the server executors.

The server's own time limit stops a statement first; the watchdog is the second line: once
``after`` seconds have passed without ``cancel()``, it runs its stop action once (a
PostgreSQL cancel request, a MySQL ``KILL QUERY``) and sets ``fired``, which the executor
reads to report the failure as a timeout.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["Watchdog"]


class Watchdog:
    """Runs ``stop`` once the deadline has passed, unless it was cancelled first."""

    def __init__(self, after: float, stop: Callable[[], object]) -> None:
        self._stop = stop
        self._timer = threading.Timer(after, self._fire)
        self._timer.daemon = True
        self._lock = threading.Lock()
        self._cancelled = False
        self.fired = False
        """True once the deadline passed and the stop action ran."""

    def start(self) -> None:
        """Start counting down."""
        self._timer.start()

    def cancel(self) -> None:
        """The statement ended: never run the stop action from now on."""
        with self._lock:
            self._cancelled = True
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            if self._cancelled:
                return
            self.fired = True
        self._stop()
