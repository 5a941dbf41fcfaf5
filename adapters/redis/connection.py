"""Building a Redis client the adapters share, and mapping its errors to values."""

from __future__ import annotations

from typing import TypeAlias

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

__all__ = ["REDIS_ERRORS", "RedisClient", "connect"]

RedisClient: TypeAlias = redis.Redis | RedisCluster
"""A standalone Redis or a Redis Cluster: the adapters use only single-slot commands."""

REDIS_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, OSError)
"""Everything a Redis call can raise that means the store is unavailable or unsure."""


def connect(
    url: str,
    *,
    cluster: bool = False,
    socket_timeout: float = 2.0,
    connect_timeout: float = 1.0,
) -> RedisClient:
    """A client for ``url`` that never retries on its own: the application retries appends
    with the same command id, so an unknown outcome is never re-decided. With ``cluster`` the
    URL names any node of a Redis Cluster; every key of a run shares one hash tag, so every
    command and script goes to one slot."""
    if cluster:
        return RedisCluster.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=connect_timeout,
            decode_responses=False,
            retry=Retry(NoBackoff(), 0),
        )
    return redis.Redis.from_url(
        url,
        socket_timeout=socket_timeout,
        socket_connect_timeout=connect_timeout,
        retry=Retry(NoBackoff(), 0),
        decode_responses=False,
        health_check_interval=0,
    )
