"""The in-process leases and the leases in a SQLite audit database pass the leases contract."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from factledger.adapters.audit.database import open_audit_database
from factledger.adapters.audit.leases import MemoryLeases
from factledger.adapters.audit.sql_leases import SqlLeases
from factledger.adapters.memory.clock import ManualClock
from tests.contracts.leases_contract import LeasesContract, Pair
from tests.unit.audit.support import AuditFiles


class _ManualTime:
    @pytest.fixture
    def clock(self) -> ManualClock:
        return ManualClock(datetime(2026, 5, 1, tzinfo=UTC))

    @pytest.fixture
    def wait(self, clock: ManualClock) -> Callable[[float], None]:
        return lambda seconds: clock.advance(timedelta(seconds=seconds))


class TestMemoryLeases(_ManualTime, LeasesContract):
    @pytest.fixture
    def leases(self, clock: ManualClock) -> Pair:
        shared = MemoryLeases(clock)
        return shared, shared


class TestSqliteAuditLeases(_ManualTime, LeasesContract):
    @pytest.fixture
    def leases(self, clock: ManualClock, tmp_path: Path, audit_template: Path) -> Iterator[Pair]:
        url = f"sqlite:///{AuditFiles(tmp_path, audit_template).fresh().as_posix()}"
        first = open_audit_database(url).unwrap()
        second = open_audit_database(url).unwrap()
        yield SqlLeases(first, clock), SqlLeases(second, clock)
        first.close()
        second.close()
