"""Building a Redis client the adapters share, and mapping its errors to values."""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

__all__ = ["REDIS_ERRORS", "connect"]

REDIS_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, OSError)
"""Everything a Redis call can raise that means the store is unavailable or unsure."""


def connect(url: str, *, socket_timeout: float = 2.0, connect_timeout: float = 1.0) -> redis.Redis:
    """A client for ``url`` that never retries on its own: the application retries appends
    with the same command id, so an unknown outcome is never re-decided."""
    return redis.Redis.from_url(
        url,
        socket_timeout=socket_timeout,
        socket_connect_timeout=connect_timeout,
        retry=Retry(NoBackoff(), 0),
        decode_responses=False,
        health_check_interval=0,
    )
