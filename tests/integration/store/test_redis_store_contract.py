"""The Redis adapters, built by the production composition root, pass the store contract."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.system import SystemClock
from factledger.ports.clock import Clock
from tests.contracts.store_contract import StoreContract, StoreFactory

pytestmark = pytest.mark.integration


class TestRedisStore(StoreContract):
    @pytest.fixture
    def clock(self) -> Clock:
        return SystemClock()

    @pytest.fixture
    def make_store(self, redis_url: str, key_prefix: str, clock: Clock) -> Iterator[StoreFactory]:
        settings = Settings(
            store=StoreSettings(kind="redis", url=redis_url, key_prefix=key_prefix, partitions=3)
        )
        store, vault, close = build_stores(settings, clock)
        yield lambda: (store, vault)
        close()

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        return time.sleep
