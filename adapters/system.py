"""The real clock and id factory."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

__all__ = ["SystemClock", "UuidIdFactory"]


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class UuidIdFactory:
    """Random UUID-based ids."""

    def new_run_id(self) -> str:
        return f"run-{uuid.uuid4().hex}"

    def new_command_id(self) -> str:
        return uuid.uuid4().hex
