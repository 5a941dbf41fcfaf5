"""The SQLite adapters, built by the production composition root, pass the store contract."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.ports.clock import Clock
from tests.contracts.store_contract import StoreContract, StoreFactory


class TestSqliteStore(StoreContract):
    @pytest.fixture
    def manual_clock(self) -> ManualClock:
        return ManualClock(datetime(2026, 5, 1, tzinfo=UTC))

    @pytest.fixture
    def clock(self, manual_clock: ManualClock) -> Clock:
        return manual_clock

    @pytest.fixture
    def make_store(self, tmp_path: Path, clock: Clock) -> Iterator[StoreFactory]:
        path = tmp_path / "state" / "store.db"
        settings = Settings(store=StoreSettings(kind="sqlite", path=str(path), partitions=3))
        store, vault, close = build_stores(settings, clock)
        yield lambda: (store, vault)
        close()

    @pytest.fixture
    def wait(self, manual_clock: ManualClock) -> Callable[[float], None]:
        return lambda seconds: manual_clock.advance(timedelta(seconds=seconds))
