"""The Redis leases and the leases in a MariaDB audit database pass the leases contract."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from factledger.adapters.audit.database import open_audit_database
from factledger.adapters.audit.leases import RedisLeases
from factledger.adapters.audit.sql_leases import SqlLeases
from factledger.adapters.redis.connection import connect
from factledger.adapters.system import SystemClock
from tests.contracts.leases_contract import LeasesContract, Pair

pytestmark = pytest.mark.integration


class _RealTime:
    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        return time.sleep


class TestRedisLeases(_RealTime, LeasesContract):
    @pytest.fixture
    def leases(self, redis_url: str, key_prefix: str) -> Iterator[Pair]:
        first, second = connect(redis_url), connect(redis_url)
        yield RedisLeases(first, key_prefix), RedisLeases(second, key_prefix)
        first.close()
        second.close()


class TestMariaDbAuditLeases(_RealTime, LeasesContract):
    @pytest.fixture
    def leases(self, mariadb_audit_url: str) -> Iterator[Pair]:
        first = open_audit_database(mariadb_audit_url).unwrap()
        second = open_audit_database(mariadb_audit_url).unwrap()
        clock = SystemClock()
        yield SqlLeases(first, clock), SqlLeases(second, clock)
        first.close()
        second.close()
