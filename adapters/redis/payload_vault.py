"""The payload vault on Redis: each body its own key with an absolute expiry (``PXAT``).

Redis 7.0 has no per-field expiry in hashes, so bodies are separate keys; ``PXAT`` means an
update or a rebuild can never extend or resurrect a body, and ``GET`` never renews it. The
server removes expired keys itself, and a snapshot (RDB) never holds an expired key; but an
append-only file keeps the ``SET`` that wrote a body until the file is rewritten. A vault
opened with ``rewrite_aof`` (the worker's, ``[worker] redis_aof_rewrite``) therefore asks every
primary with an append-only file to rewrite it (``BGREWRITEAOF``) at each purge when the file
has grown since its last rewrite; the rewrite skips expired keys (ADR 0025).
"""

from __future__ import annotations

from collections.abc import Sequence

import redis
from redis.cluster import RedisCluster
from returns.result import Result, Success

from factledger.adapters.redis.connection import RedisClient
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.replies import call_redis
from factledger.ports.payload_vault import PayloadKey, PayloadWrite, VaultPurged
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["RedisPayloadVault", "expiry_ms"]


def expiry_ms(write: PayloadWrite) -> int:
    """The absolute expiry of a write in Unix milliseconds (never below 1)."""
    return max(1, int(write.expires_at.timestamp() * 1000))


class RedisPayloadVault:
    """Bodies as plain keys with ``PXAT``; reads are ``MGET`` (one round trip)."""

    def __init__(self, client: RedisClient, keys: RedisKeys, *, rewrite_aof: bool = False) -> None:
        self._client = client
        self._keys = keys
        self._rewrite_aof = rewrite_aof

    def rewriting_aof(self, rewrite_aof: bool) -> RedisPayloadVault:
        """The same vault (same client and keys) with the given purge policy."""
        return RedisPayloadVault(self._client, self._keys, rewrite_aof=rewrite_aof)

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        def put() -> None:
            pipe = self._client.pipeline(transaction=False)
            for write in writes:
                pipe.set(self._keys.payload(write.key), write.body, pxat=expiry_ms(write))
            pipe.execute()

        return call_redis(put)

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        if not keys:
            return Success(())
        names = [self._keys.payload(key) for key in keys]

        def read() -> tuple[bytes | None, ...]:
            if len({self._keys.partition_of(key.run_id) for key in keys}) == 1:
                values = self._client.mget(names)
            else:
                pipe = self._client.pipeline(transaction=False)
                for name in names:
                    pipe.get(name)
                values = pipe.execute()
            return tuple(value if isinstance(value, bytes) else None for value in values)

        return call_redis(read)

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        def read() -> int | None:
            ttl = int(self._client.pttl(self._keys.payload(key)))
            return None if ttl < 0 else ttl

        return call_redis(read)

    def purge_expired(self) -> Result[VaultPurged, StoreUnavailable]:
        """The server expires bodies itself (none deleted here); with ``rewrite_aof`` every
        append-only file that grew since its last rewrite is rewritten in the background."""
        if not self._rewrite_aof:
            return Success(VaultPurged(0, compacted=True))

        def rewrite() -> VaultPurged:
            compacted = all(_rewrite_if_grown(node) for node in _primaries(self._client))
            return VaultPurged(0, compacted)

        return call_redis(rewrite)


def _primaries(client: RedisClient) -> list[redis.Redis]:
    if isinstance(client, RedisCluster):
        return [
            node.redis_connection or client.get_redis_connection(node)
            for node in client.get_primaries()  # type: ignore[no-untyped-call]  # untyped in redis-py
        ]
    return [client]


def _rewrite_if_grown(node: redis.Redis) -> bool:
    """Rewrite the node's append-only file if it has one that grew; ``False`` while a rewrite
    is already running (its snapshot may predate the latest expiries: try again next time)."""
    info = node.info("persistence")
    if not int(info.get("aof_enabled", 0)):
        return True
    if int(info.get("aof_rewrite_in_progress", 0)) or int(info.get("aof_rewrite_scheduled", 0)):
        return False
    if int(info.get("aof_current_size", 0)) <= int(info.get("aof_base_size", 0)):
        return True
    try:
        node.bgrewriteaof()
    except redis.ResponseError:
        # The server refused (a rewrite began in between, or the command is disabled).
        return False
    return True
