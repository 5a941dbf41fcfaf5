"""What the facade's thread pools share: daemon threads that take their jobs from one queue,
and a stop that refuses later calls and sends each thread its end."""

from __future__ import annotations

import queue
import threading
from typing import Generic, TypeVar

__all__ = ["DaemonThreads"]

J = TypeVar("J")


class DaemonThreads(Generic[J]):
    """A job queue, the lock over a pool's counts and the count of threads that take from the
    queue (a thread ends when it takes ``None``)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[J | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._closed = False

    def shutdown(self) -> None:
        """Stop the threads once they finish what they run (later calls are refused)."""
        with self._lock:
            self._closed = True
            threads = self._threads
        for _ in range(threads):
            self._jobs.put(None)
