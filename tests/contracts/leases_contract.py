"""One contract suite for the PartitionLeases port.

Each adapter subclasses ``LeasesContract``, providing ``leases`` (two handles on the same
leases, as two workers would hold) and ``wait`` (move time on: a manual clock, or a real sleep
of a fraction of a second). Leases here last ``TTL``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Final

import pytest
from returns.result import Success

from factledger.ports.partition_leases import MAINTENANCE_LEASE, PartitionLeases

TTL: Final = timedelta(milliseconds=400)
Pair = tuple[PartitionLeases, PartitionLeases]


class LeasesContract:
    """Every adapter of the leases port must pass these."""

    @pytest.fixture
    def leases(self) -> Pair:
        raise NotImplementedError

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        raise NotImplementedError

    def test_a_free_partition_is_taken_and_then_refused_to_another_owner(
        self, leases: Pair
    ) -> None:
        one, two = leases
        assert one.acquire(0, "a", TTL) == Success(True)
        assert two.acquire(0, "b", TTL) == Success(False)
        assert two.acquire(1, "b", TTL) == Success(True)

    def test_the_owner_renews_its_lease_and_keeps_it_past_the_first_ttl(
        self, leases: Pair, wait: Callable[[float], None]
    ) -> None:
        one, two = leases
        assert one.acquire(0, "a", TTL) == Success(True)
        wait(0.25)
        assert one.acquire(0, "a", TTL) == Success(True)
        wait(0.25)
        assert two.acquire(0, "b", TTL) == Success(False)

    def test_a_lapsed_lease_is_taken_over_and_its_old_owner_cannot_renew_it(
        self, leases: Pair, wait: Callable[[float], None]
    ) -> None:
        one, two = leases
        assert one.acquire(0, "a", TTL) == Success(True)
        wait(0.6)
        assert two.acquire(0, "b", TTL) == Success(True)
        assert one.acquire(0, "a", TTL) == Success(False)

    def test_only_the_owner_releases_a_lease(self, leases: Pair) -> None:
        one, two = leases
        assert one.acquire(0, "a", TTL) == Success(True)
        assert two.release(0, "b") == Success(None)
        assert two.acquire(0, "b", TTL) == Success(False)
        assert one.release(0, "a") == Success(None)
        assert two.acquire(0, "b", TTL) == Success(True)

    def test_the_maintenance_lease_is_a_lease_like_the_others(self, leases: Pair) -> None:
        one, two = leases
        assert one.acquire(MAINTENANCE_LEASE, "a", TTL) == Success(True)
        assert two.acquire(MAINTENANCE_LEASE, "b", TTL) == Success(False)
        assert two.acquire(0, "b", TTL) == Success(True)
        assert one.release(MAINTENANCE_LEASE, "a") == Success(None)
        assert two.acquire(MAINTENANCE_LEASE, "b", TTL) == Success(True)

    def test_heartbeats_count_the_live_workers_and_a_silent_one_lapses(
        self, leases: Pair, wait: Callable[[float], None]
    ) -> None:
        one, two = leases
        assert one.heartbeat("a", TTL) == Success(1)
        assert two.heartbeat("b", TTL) == Success(2)
        assert one.heartbeat("a", TTL) == Success(2)
        wait(0.25)
        assert one.heartbeat("a", TTL) == Success(2)
        wait(0.25)
        assert one.heartbeat("a", TTL) == Success(1)

    def test_a_worker_that_leaves_no_longer_counts_at_once(self, leases: Pair) -> None:
        one, two = leases
        one.heartbeat("a", TTL)
        assert two.heartbeat("b", TTL) == Success(2)
        assert two.leave("b") == Success(None)
        assert one.heartbeat("a", TTL) == Success(1)
