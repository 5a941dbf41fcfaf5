"""Waiting for a run's next append by reading its head: a backoff from 2 ms doubled up to
50 ms, never past the deadline, and a failed read is read again."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from returns.result import Failure, Result, Success

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.faults import FaultyEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.application.log_wait import wait_for_append
from factledger.domain.chain import GENESIS, ChainHead
from factledger.ports.append_waiter import LONGEST_PAUSE, AppendWaiter, read_until_appended
from factledger.ports.event_store import Appended
from factledger.ports.store_errors import StoreUnavailable
from tests.contracts.store_contract import request_after

T0 = datetime(2026, 5, 1, tzinfo=UTC)
Head = Result[ChainHead | None, StoreUnavailable]


def _reads(*heads: Head) -> list[Head]:
    return list(heads)


def test_the_head_is_read_again_after_pauses_that_double_until_it_shows_the_event() -> None:
    heads = _reads(
        Success(None),
        Failure(StoreUnavailable("CONNECTION")),
        Success(ChainHead(1, "h1")),
        Success(ChainHead(2, "h2")),
    )
    pauses: list[float] = []
    assert read_until_appended(lambda: heads.pop(0), 1, 10.0, pauses.append) is True
    assert pauses == [0.002, 0.004, 0.008]
    assert heads == []


def test_the_pauses_stop_growing_at_the_longest_and_never_pass_the_deadline() -> None:
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        time.sleep(seconds)

    started = time.monotonic()
    assert read_until_appended(lambda: Success(None), 0, 0.3, pause) is False
    waited = time.monotonic() - started
    assert 0.3 <= waited < 0.3 + LONGEST_PAUSE
    assert max(pauses) == LONGEST_PAUSE
    assert pauses[:-1] == sorted(pauses[:-1])
    assert sum(pauses) <= 0.3


def test_a_store_that_cannot_be_watched_is_read_until_an_append_or_the_timeout() -> None:
    inner = MemoryEventStore(MemoryPayloadVault(ManualClock(T0)))
    store = FaultyEventStore(inner)
    assert not isinstance(store, AppendWaiter)
    assert wait_for_append(store, "run-a", 0, 0.05) is False
    assert wait_for_append(store, "run-a", 0, 0) is False
    assert isinstance(inner.append(request_after("run-a", GENESIS, 1)), Appended)
    assert wait_for_append(store, "run-a", 0, 1.0) is True
