"""Time and identifiers come from outside the domain."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

__all__ = ["Clock", "IdFactory"]


class Clock(Protocol):
    """The current time, timezone-aware UTC."""

    def now(self) -> datetime:
        """The current time."""
        ...


class IdFactory(Protocol):
    """New unique identifiers."""

    def new_run_id(self) -> str:
        """A new run id (``[A-Za-z0-9_.-]{1,64}``)."""
        ...

    def new_command_id(self) -> str:
        """A new id for one logical append, reused when retrying an unknown outcome."""
        ...
