"""The faulty vault: chosen operations answer as an unreachable vault and touch nothing; the
others reach the wrapped vault; every call is counted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from returns.result import Failure, Success

from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.memory.faults import FaultyPayloadVault, VaultOperation
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from factledger.ports.store_errors import StoreUnavailable

T0 = datetime(2026, 5, 1, tzinfo=UTC)
KEY = PayloadKey("run-a", "c1", PayloadPart.RAW)
DOWN = Failure(StoreUnavailable("CONNECTION"))


def test_an_operation_set_down_fails_and_writes_nothing_while_the_others_work() -> None:
    inner = MemoryPayloadVault(ManualClock(T0))
    vault = FaultyPayloadVault(inner)
    vault.set_down(True, VaultOperation.PUT)
    assert vault.put([PayloadWrite(KEY, b"body", T0 + timedelta(hours=1))]) == DOWN
    assert inner.held_bodies() == ()
    assert vault.get_many([KEY]) == Success((None,))
    vault.set_down(False, VaultOperation.PUT)
    assert vault.put([PayloadWrite(KEY, b"body", T0 + timedelta(hours=1))]) == Success(None)
    assert vault.get_many([KEY]) == Success((b"body",))


def test_setting_every_operation_down_fails_each_of_them_and_every_call_is_counted() -> None:
    vault = FaultyPayloadVault(MemoryPayloadVault(ManualClock(T0)))
    vault.set_down(True)
    assert vault.put([]) == DOWN
    assert vault.get_many([KEY]) == DOWN
    assert vault.remaining_ttl_ms(KEY) == DOWN
    assert vault.purge_expired() == DOWN
    vault.set_down(False)
    assert isinstance(vault.purge_expired(), Success)
    assert [vault.calls(operation) for operation in VaultOperation] == [1, 1, 1, 2]
