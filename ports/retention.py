"""The retention hooks of the event stores (``[retention] days``, separate from the vault's
time to live; ADR 0008)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from attrs import frozen
from returns.result import Result

from factledger.ports.store_errors import StoreUnavailable

__all__ = ["LogRetention", "SweepCounts"]


@frozen
class SweepCounts:
    """What a retention sweep removed from the event store."""

    log_entries: int = 0
    """Partition-log entries removed."""
    runs: int = 0
    """Runs removed (their stream, head, guards and index entry)."""


class LogRetention(Protocol):
    """Run expiries and the sweep that removes what retention allows."""

    def expire_run(self, run_id: str, at: datetime) -> Result[None, StoreUnavailable]:
        """The run's stream, head, guards and index entry go at ``at`` (Redis ``PEXPIREAT``;
        an embedded store records it and its sweep removes the run once it has passed)."""
        ...

    def sweep(
        self,
        now: datetime,
        horizon: datetime,
        checkpoints: Mapping[int, Sequence[str | None]],
    ) -> Result[SweepCounts, StoreUnavailable]:
        """Remove what retention allows: log entries only behind every checkpoint of their
        partition (a partition missing from ``checkpoints``, or with any ``None``, keeps all)
        and older than ``horizon``; runs whose expiry has passed ``now``."""
        ...
