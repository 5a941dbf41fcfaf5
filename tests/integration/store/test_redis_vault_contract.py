"""The Redis vault passes the vault contract on a real redis-server with an append-only file:
the server expires bodies itself, and the purge of a vault opened to rewrite the file leaves
no byte of an expired body in the server's files."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
import redis

from factledger.adapters.redis.connection import connect
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.payload_vault import RedisPayloadVault
from factledger.adapters.system import SystemClock
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault, PayloadWrite
from tests.contracts.vault_contract import Leftovers, VaultContract
from tests.support.processes import wait_until
from tests.support.redis_server import INSTALL_HINT, RedisProcess, redis_binary
from tests.unit.test_vault_contract import read_folder

pytestmark = pytest.mark.integration


@pytest.fixture
def aof_server() -> Iterator[RedisProcess]:
    binary = redis_binary()
    if binary is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = RedisProcess(binary, appendonly=True, appendfsync="always")
    server.start()
    try:
        yield server
    finally:
        server.cleanup()


def _rewrite_done(client: redis.Redis) -> Callable[[], bool]:
    def done() -> bool:
        info = client.info("persistence")
        return not int(info["aof_rewrite_in_progress"]) and not int(info["aof_rewrite_scheduled"])

    return done


class TestRedisVaultWithAnAppendOnlyFile(VaultContract):
    EXPIRES_ITSELF = True

    @pytest.fixture
    def clock(self) -> Clock:
        return SystemClock()

    @pytest.fixture
    def client(self, aof_server: RedisProcess) -> Iterator[redis.Redis]:
        client = redis.Redis.from_url(aof_server.url)
        yield client
        client.close()

    @pytest.fixture
    def vault(self, aof_server: RedisProcess) -> Iterator[PayloadVault]:
        client = connect(aof_server.url)
        yield RedisPayloadVault(client, RedisKeys("flt", 3), rewrite_aof=True)
        client.close()

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        return time.sleep

    @pytest.fixture
    def leftovers(self, aof_server: RedisProcess, client: redis.Redis) -> Leftovers:
        def read() -> bytes:
            # A rewrite runs in the background: the files are read once it has finished.
            wait_until(_rewrite_done(client), 30, "the append-only file rewrite")
            return read_folder(aof_server.workdir)

        return read


def test_without_a_rewrite_an_expired_body_stays_in_the_append_only_file(
    aof_server: RedisProcess,
) -> None:
    """Why the worker's vault rewrites: the server's expiry alone leaves the body in the file."""
    client = connect(aof_server.url)
    vault = RedisPayloadVault(client, RedisKeys("flt", 3))
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    soon = SystemClock().now() + timedelta(milliseconds=200)
    vault.put([PayloadWrite(key, b"sk_live_kept_in_aof", soon)])
    time.sleep(0.4)
    assert vault.get_many([key]).unwrap() == (None,)
    assert vault.purge_expired().unwrap().bodies == 0
    assert b"sk_live_kept_in_aof" in read_folder(aof_server.workdir)
    client.close()
