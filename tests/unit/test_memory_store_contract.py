"""The in-memory adapters pass the store contract."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.ports.clock import Clock
from tests.contracts.store_contract import StoreContract, StoreFactory


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def manual_clock(self) -> ManualClock:
        return ManualClock(datetime(2026, 5, 1, tzinfo=UTC))

    @pytest.fixture
    def clock(self, manual_clock: ManualClock) -> Clock:
        return manual_clock

    @pytest.fixture
    def make_store(self, manual_clock: ManualClock) -> StoreFactory:
        vault = MemoryPayloadVault(manual_clock)
        store = MemoryEventStore(vault, partitions=3)
        return lambda: (store, vault)

    @pytest.fixture
    def wait(self, manual_clock: ManualClock) -> Callable[[float], None]:
        return lambda seconds: manual_clock.advance(timedelta(seconds=seconds))
