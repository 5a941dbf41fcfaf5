"""The payload vault on Redis: each body its own key with an absolute expiry (``PXAT``).

Redis 7.0 has no per-field expiry in hashes, so bodies are separate keys; ``PXAT`` means an
update or a rebuild can never extend or resurrect a body, and ``GET`` never renews it.
"""

from __future__ import annotations

from collections.abc import Sequence

from returns.result import Failure, Result, Success

from factledger.adapters.redis.connection import REDIS_ERRORS, RedisClient
from factledger.adapters.redis.keys import RedisKeys
from factledger.ports.payload_vault import PayloadKey, PayloadWrite
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["RedisPayloadVault", "expiry_ms"]


def expiry_ms(write: PayloadWrite) -> int:
    """The absolute expiry of a write in Unix milliseconds (never below 1)."""
    return max(1, int(write.expires_at.timestamp() * 1000))


class RedisPayloadVault:
    """Bodies as plain keys with ``PXAT``; reads are ``MGET`` (one round trip)."""

    def __init__(self, client: RedisClient, keys: RedisKeys) -> None:
        self._client = client
        self._keys = keys

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        try:
            pipe = self._client.pipeline(transaction=False)
            for write in writes:
                pipe.set(self._keys.payload(write.key), write.body, pxat=expiry_ms(write))
            pipe.execute()
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(None)

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        if not keys:
            return Success(())
        names = [self._keys.payload(key) for key in keys]
        try:
            if len({self._keys.partition_of(key.run_id) for key in keys}) == 1:
                values = self._client.mget(names)
            else:
                pipe = self._client.pipeline(transaction=False)
                for name in names:
                    pipe.get(name)
                values = pipe.execute()
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(tuple(value if isinstance(value, bytes) else None for value in values))

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        try:
            ttl = int(self._client.pttl(self._keys.payload(key)))
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(None if ttl < 0 else ttl)
