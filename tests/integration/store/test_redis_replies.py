"""What the Redis event store and vault answer when Redis cannot be used or a reply is not of
the shape they expect: a ``StoreUnavailable`` value (``CONNECTION`` or ``UNEXPECTED_REPLY``),
never an exception."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

import pytest
from returns.result import Failure

from factledger.adapters.redis.connection import connect
from factledger.adapters.redis.event_store import RedisEventStore
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.payload_vault import RedisPayloadVault
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite
from factledger.ports.store_errors import StoreUnavailable

pytestmark = pytest.mark.integration

T0 = datetime(2026, 5, 1, tzinfo=UTC)
CONNECTION = Failure(StoreUnavailable("CONNECTION"))
UNEXPECTED = Failure(StoreUnavailable("UNEXPECTED_REPLY"))


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_redis_nobody_listens_on_is_connection_for_every_read_and_write() -> None:
    client = connect(f"redis://127.0.0.1:{_closed_port()}/0", connect_timeout=0.2)
    keys = RedisKeys("flt-closed", 2)
    events = RedisEventStore(client, keys)
    vault = RedisPayloadVault(client, keys, rewrite_aof=True)
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    assert events.read_run("run-a") == CONNECTION
    assert events.read_head("run-a") == CONNECTION
    assert events.read_log(0, None, 10) == CONNECTION
    assert events.list_runs(10) == CONNECTION
    assert events.expire_run("run-a", T0) == CONNECTION
    assert events.sweep(T0, T0, {0: ("0-0",), 1: ("0-0",)}) == CONNECTION
    assert vault.put([PayloadWrite(key, b"raw", T0)]) == CONNECTION
    assert vault.get_many([key]) == CONNECTION
    assert vault.remaining_ttl_ms(key) == CONNECTION
    assert vault.purge_expired() == CONNECTION


def test_a_stream_entry_or_a_head_of_another_shape_is_an_unexpected_reply(
    redis_url: str, key_prefix: str
) -> None:
    client = connect(redis_url)
    keys = RedisKeys(key_prefix, 2)
    events = RedisEventStore(client, keys)
    run = keys.run("run-a")
    client.xadd(run.events, {"d": b"{}"}, id="1-0")  # no hash field
    client.xadd(keys.partition_log(keys.partition_of("run-a")), {"r": b"run-a", "s": b"x"})
    client.hset(run.meta, mapping={"seq": "not-a-number", "hash": "abc"})
    assert events.read_run("run-a") == UNEXPECTED
    assert events.read_log(keys.partition_of("run-a"), None, 10) == UNEXPECTED
    assert events.read_head("run-a") == UNEXPECTED
