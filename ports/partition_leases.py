"""Partition leases: which worker follows which partition log (ADR 0008, 0024).

One owner per partition for a time to live that the owner renews; a crashed owner's
partitions are free once its leases have lapsed. Leases only decide who works: correctness
never rests on them, because a projection batch commits only if its checkpoint is still the
one it was read after.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final, Protocol

from returns.result import Result

from factledger.ports.store_errors import StoreUnavailable

__all__ = ["MAINTENANCE_LEASE", "PartitionLeases"]

MAINTENANCE_LEASE: Final = -1
"""The lease whose holder runs the store-wide jobs (retention sweep, vault purge and
compaction): one worker at a time, taken over like a partition when its holder dies."""


class PartitionLeases(Protocol):
    """Leases on partition numbers (and ``MAINTENANCE_LEASE``) and the workers' heartbeats."""

    def heartbeat(self, owner: str, ttl: timedelta) -> Result[int, StoreUnavailable]:
        """Say ``owner`` is alive for ``ttl``; returns how many owners are (itself included)."""
        ...

    def acquire(self, partition: int, owner: str, ttl: timedelta) -> Result[bool, StoreUnavailable]:
        """Take the partition if it is free or renew it if ``owner`` holds it."""
        ...

    def release(self, partition: int, owner: str) -> Result[None, StoreUnavailable]:
        """Give the partition up if ``owner`` holds it."""
        ...

    def leave(self, owner: str) -> Result[None, StoreUnavailable]:
        """Say ``owner`` has stopped: it no longer counts among the live workers."""
        ...
