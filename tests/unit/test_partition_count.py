"""Every store refuses a partition count below one, with the same message."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.sqlite.database import open_database
from factledger.domain.ids import partition_of

_MESSAGE = "partitions must be at least 1, got 0"
_CLOCK = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))


def test_hashing_into_no_partition_is_refused() -> None:
    with pytest.raises(ValueError, match=_MESSAGE):
        partition_of("run-1", 0)


def test_a_memory_store_without_partitions_is_refused() -> None:
    with pytest.raises(ValueError, match=_MESSAGE):
        MemoryEventStore(MemoryPayloadVault(_CLOCK), partitions=0)


def test_a_sqlite_file_without_partitions_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=_MESSAGE):
        open_database(tmp_path / "store.db", _CLOCK, partitions=0)
    assert not (tmp_path / "store.db").exists()
