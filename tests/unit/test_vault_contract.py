"""The in-memory and SQLite vaults, and the faulty vault with no fault set, pass the vault
contract (purge included)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.faults import FaultyPayloadVault
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadVault
from tests.contracts.vault_contract import Leftovers, VaultContract


class _ManualTime:
    @pytest.fixture
    def manual_clock(self) -> ManualClock:
        return ManualClock(datetime(2026, 5, 1, tzinfo=UTC))

    @pytest.fixture
    def clock(self, manual_clock: ManualClock) -> Clock:
        return manual_clock

    @pytest.fixture
    def wait(self, manual_clock: ManualClock) -> Callable[[float], None]:
        return lambda seconds: manual_clock.advance(timedelta(seconds=seconds))


class TestMemoryVault(_ManualTime, VaultContract):
    @pytest.fixture
    def memory(self, manual_clock: ManualClock) -> MemoryPayloadVault:
        return MemoryPayloadVault(manual_clock)

    @pytest.fixture
    def vault(self, memory: MemoryPayloadVault) -> PayloadVault:
        return memory

    @pytest.fixture
    def leftovers(self, memory: MemoryPayloadVault) -> Leftovers:
        return lambda: b"\n".join(memory.held_bodies())


class TestFaultyVaultWithNoFault(TestMemoryVault):
    @pytest.fixture
    def vault(self, memory: MemoryPayloadVault) -> PayloadVault:
        return FaultyPayloadVault(memory)


def read_folder(folder: Path) -> bytes:
    """Every byte of every file under ``folder``."""
    return b"".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


class TestSqliteVault(_ManualTime, VaultContract):
    @pytest.fixture
    def folder(self, tmp_path: Path) -> Path:
        return tmp_path / "state"

    @pytest.fixture
    def vault(self, folder: Path, clock: Clock) -> Iterator[PayloadVault]:
        settings = Settings(
            store=StoreSettings(kind="sqlite", path=str(folder / "store.db"), partitions=3)
        )
        _, vault, close = build_stores(settings, clock)
        yield vault
        close()

    @pytest.fixture
    def leftovers(self, folder: Path) -> Leftovers:
        return lambda: read_folder(folder)
