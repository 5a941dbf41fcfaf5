"""The follower loop: projector workers split the partition logs with leases and follow them
from their checkpoints.

Each turn a worker (1) says it is alive and learns how many workers are, (2) renews the
leases it holds and gives up those beyond its fair share (``ceil(partitions / workers)``),
(3) takes free partitions up to its share, starting from a place its name chooses, and (4)
catches up every projection on each partition it holds, a bounded number of batches at a
time, renewing the partition's lease right before. A worker that crashes stops renewing: its
leases lapse after their time to live and the others take its partitions over on their next
turn. A lease only decides who works: a worker that lost its lease without knowing finds the
checkpoint moved and writes nothing (``AuditStore.commit``).

An unavailable audit database or event store ends the turn; the loop waits and tries again,
so when the database returns the projections catch up from their checkpoints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from typing import Protocol

from attrs import frozen
from returns.result import Success

from factledger.application.projections.projector import PartitionReport, Projector
from factledger.domain.ids import partition_of
from factledger.ports.audit import AuditUnavailable
from factledger.ports.partition_leases import PartitionLeases
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["Follower", "FollowerSettings", "StopSignal", "TurnReport"]


class StopSignal(Protocol):
    """What tells the loop to stop (``threading.Event``, ``multiprocessing.Event``)."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float | None = None) -> bool: ...


@frozen
class FollowerSettings:
    """How a worker follows the partition logs."""

    owner: str
    """This worker's name (unique among the workers)."""
    lease_ttl: timedelta = timedelta(seconds=10)
    """How long a lease lasts without renewal (how soon a crashed worker is replaced)."""
    poll_interval: float = 0.2
    """Seconds to wait when a turn found nothing new."""
    retry_interval: float = 1.0
    """Seconds to wait after the audit database or the event store failed."""
    batches_per_turn: int = 5
    """Batches per partition and projection in one turn (the lease is renewed in between)."""


@frozen
class TurnReport:
    """What one turn did."""

    owned: tuple[int, ...]
    """The partitions held at the end of the turn."""
    events: int
    """Events applied, every projection."""
    failure: AuditUnavailable | StoreUnavailable | None = None
    """Why the turn stopped early, if it did."""
    caught_up: bool = False
    """True when every partition held was caught up, every projection."""


class Follower:
    """One projector worker; see the module docstring."""

    def __init__(
        self,
        projectors: Sequence[Projector],
        leases: PartitionLeases,
        settings: FollowerSettings,
    ) -> None:
        if not projectors:
            raise ValueError("a follower needs at least one projection")
        self._projectors = tuple(projectors)
        self._leases = leases
        self._settings = settings
        self._partitions = projectors[0].partitions
        self._owned: set[int] = set()

    @property
    def owned(self) -> tuple[int, ...]:
        """The partitions this worker holds."""
        return tuple(sorted(self._owned))

    def turn(self, stop: StopSignal | None = None) -> TurnReport:
        """Balance leases, then catch up the partitions held (see the module docstring). With
        ``stop``, the turn ends after the batch in hand once it is set."""
        settings = self._settings
        alive = self._leases.heartbeat(settings.owner, settings.lease_ttl)
        if not isinstance(alive, Success):
            return TurnReport(self.owned, 0, alive.failure())
        share = math.ceil(self._partitions / max(1, alive.unwrap()))
        failure = self._balance(share)
        if failure is not None:
            return TurnReport(self.owned, 0, failure)
        events = 0
        caught_up = True
        for partition in self.owned:
            if not self._renew(partition):
                caught_up = False
                continue
            for projector in self._projectors:
                if stop is not None and stop.is_set():
                    return TurnReport(self.owned, events)
                report = projector.catch_up_partition(
                    partition, max_batches=settings.batches_per_turn, until=stop
                )
                if not isinstance(report, PartitionReport):
                    return TurnReport(self.owned, events, report)
                events += report.events
                caught_up = caught_up and report.caught_up
        return TurnReport(self.owned, events, caught_up=caught_up)

    def run(self, stop: StopSignal) -> None:
        """Turn until ``stop`` is set; leases are given up on the way out."""
        settings = self._settings
        try:
            while not stop.is_set():
                report = self.turn(stop)
                if report.failure is not None:
                    stop.wait(settings.retry_interval)
                elif report.events == 0:
                    stop.wait(settings.poll_interval)
        finally:
            self.release_all()

    def release_all(self) -> None:
        """Give up every lease held and leave the live workers (best effort), so the others
        take the partitions over at their next turn instead of after the leases lapse."""
        for partition in self.owned:
            self._leases.release(partition, self._settings.owner)
        self._owned.clear()
        self._leases.leave(self._settings.owner)

    def _renew(self, partition: int) -> bool:
        settings = self._settings
        held = self._leases.acquire(partition, settings.owner, settings.lease_ttl)
        if isinstance(held, Success) and held.unwrap():
            return True
        self._owned.discard(partition)
        return False

    def _balance(self, share: int) -> StoreUnavailable | None:
        settings = self._settings
        for partition in self.owned:
            self._renew(partition)
        while len(self._owned) > share:
            extra = max(self._owned)
            self._leases.release(extra, settings.owner)
            self._owned.discard(extra)
        first = partition_of(settings.owner, self._partitions)
        for offset in range(self._partitions):
            if len(self._owned) >= share:
                break
            partition = (first + offset) % self._partitions
            if partition in self._owned:
                continue
            taken = self._leases.acquire(partition, settings.owner, settings.lease_ttl)
            if not isinstance(taken, Success):
                return taken.failure()
            if taken.unwrap():
                self._owned.add(partition)
        return None
