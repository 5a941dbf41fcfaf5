"""The retention hooks of the event stores (``[retention] days``, separate from the vault's
time to live; ADR 0008)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from attrs import frozen
from returns.result import Result

from factledger.ports.store_errors import StoreUnavailable

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = ["LogRetention", "SweepCounts", "lowest_checkpoint"]


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


def lowest_checkpoint(
    held: Sequence[str | None], order: Callable[[str], SupportsRichComparison]
) -> str | None:
    """The position a partition's log may be swept up to: the lowest of its checkpoints in
    the store's own ``order``; None (keep it all) when it has none or one of them is None."""
    if not held or any(position is None for position in held):
        return None
    return min((position for position in held if position is not None), key=order)
