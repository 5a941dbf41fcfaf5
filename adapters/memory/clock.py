"""A clock and an id factory that are set by hand: deterministic runs, replays and tests."""

from __future__ import annotations

import itertools
import threading
from datetime import UTC, datetime, timedelta

__all__ = ["ManualClock", "SequentialIdFactory"]


class ManualClock:
    """Time that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta) -> None:
        """Move time forward."""
        with self._lock:
            self._now += delta

    def set(self, moment: datetime) -> None:
        """Jump to a moment (forward or back: clocks of different workers disagree)."""
        with self._lock:
            self._now = moment


class SequentialIdFactory:
    """Ids ``<prefix>-1``, ``<prefix>-2``, … in the order they are asked for."""

    def __init__(self, prefix: str = "run") -> None:
        self._prefix = prefix
        self._runs = itertools.count(1)
        self._commands = itertools.count(1)
        self._lock = threading.Lock()

    def new_run_id(self) -> str:
        with self._lock:
            return f"{self._prefix}-{next(self._runs)}"

    def new_command_id(self) -> str:
        with self._lock:
            return f"{self._prefix}-cmd-{next(self._commands)}"
