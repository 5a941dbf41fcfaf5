"""Partition leases for projector workers: on Redis (several processes or hosts), or in one
process (the in-memory store; the SQLite store's workers lease in the audit database,
``sql_leases.py``).

Redis: one key per partition holding its owner, set with ``SET NX PX`` and renewed by the
owner only (a script compares the owner first, so a worker whose lease lapsed and was taken
over cannot renew or release the new owner's); a sorted set of worker heartbeats, scored by
the server's clock, says how many workers are alive so each takes its fair share. Leases only
decide who works: correctness never depends on them, because a batch commits only if the
partition's checkpoint is still the one it was read after.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Final

from returns.result import Failure, Result, Success

from factledger.adapters.redis.connection import REDIS_ERRORS, RedisClient
from factledger.ports.clock import Clock
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["MemoryLeases", "RedisLeases"]

_ACQUIRE: Final = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
_HEARTBEAT: Final = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', KEYS[1], ms, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('ZCARD', KEYS[1])
"""


def _ms(ttl: timedelta) -> int:
    return max(1, int(ttl.total_seconds() * 1000))


class RedisLeases:
    """Leases as Redis keys under ``<prefix>:projector:``."""

    def __init__(self, client: RedisClient, prefix: str) -> None:
        self._prefix = f"{prefix}:projector"
        self._client = client
        self._acquire = client.register_script(_ACQUIRE)
        self._release = client.register_script(_RELEASE)
        self._heartbeat = client.register_script(_HEARTBEAT)

    def _lease(self, partition: int) -> str:
        return f"{self._prefix}:lease:{partition}"

    def heartbeat(self, owner: str, ttl: timedelta) -> Result[int, StoreUnavailable]:
        try:
            alive = self._heartbeat(keys=[f"{self._prefix}:workers"], args=[owner, _ms(ttl)])
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(int(alive))

    def acquire(self, partition: int, owner: str, ttl: timedelta) -> Result[bool, StoreUnavailable]:
        try:
            taken = self._acquire(keys=[self._lease(partition)], args=[owner, _ms(ttl)])
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(int(taken) == 1)

    def release(self, partition: int, owner: str) -> Result[None, StoreUnavailable]:
        try:
            self._release(keys=[self._lease(partition)], args=[owner])
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(None)

    def leave(self, owner: str) -> Result[None, StoreUnavailable]:
        try:
            self._client.zrem(f"{self._prefix}:workers", owner)
        except REDIS_ERRORS:
            return Failure(StoreUnavailable("CONNECTION"))
        return Success(None)


class MemoryLeases:
    """Leases in one process (the embedded stores), judged by a ``Clock``."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._leases: dict[int, tuple[str, datetime]] = {}
        self._workers: dict[str, datetime] = {}

    def heartbeat(self, owner: str, ttl: timedelta) -> Result[int, StoreUnavailable]:
        now = self._clock.now()
        with self._lock:
            self._workers[owner] = now + ttl
            self._workers = {name: until for name, until in self._workers.items() if until > now}
            return Success(len(self._workers))

    def acquire(self, partition: int, owner: str, ttl: timedelta) -> Result[bool, StoreUnavailable]:
        now = self._clock.now()
        with self._lock:
            held = self._leases.get(partition)
            if held is not None and held[0] != owner and held[1] > now:
                return Success(False)
            self._leases[partition] = (owner, now + ttl)
            return Success(True)

    def release(self, partition: int, owner: str) -> Result[None, StoreUnavailable]:
        with self._lock:
            held = self._leases.get(partition)
            if held is not None and held[0] == owner:
                del self._leases[partition]
            return Success(None)

    def leave(self, owner: str) -> Result[None, StoreUnavailable]:
        with self._lock:
            self._workers.pop(owner, None)
            return Success(None)
