"""The real clock and id factory."""

from __future__ import annotations

import os
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
        # 128 random bits as 32 hex digits, like a UUID's hex without the UUID object's cost
        # (one is drawn for every append).
        return os.urandom(16).hex()
