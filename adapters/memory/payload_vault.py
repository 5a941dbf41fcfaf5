"""An in-process payload vault with absolute expiry (never renewed on read)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime

from returns.result import Result, Success

from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadWrite, VaultPurged
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["MemoryPayloadVault"]


class MemoryPayloadVault:
    """Bodies in a dict, each with its absolute expiry; expired bodies read as absent."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._bodies: dict[PayloadKey, tuple[bytes, datetime]] = {}
        self._lock = threading.Lock()

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        with self._lock:
            self.put_while_locked(writes)
        return Success(None)

    def put_while_locked(self, writes: Sequence[PayloadWrite]) -> None:
        """Write bodies while the caller holds ``lock`` (an event store appending with them)."""
        now = self._clock.now()
        for write in writes:
            if write.expires_at <= now:
                self._bodies.pop(write.key, None)
            else:
                self._bodies[write.key] = (write.body, write.expires_at)

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        now = self._clock.now()
        with self._lock:
            return Success(tuple(self._live(key, now) for key in keys))

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        now = self._clock.now()
        with self._lock:
            entry = self._bodies.get(key)
            if entry is None or entry[1] <= now:
                return Success(None)
            return Success(int((entry[1] - now).total_seconds() * 1000))

    def purge_expired(self) -> Result[VaultPurged, StoreUnavailable]:
        """Drop every expired body (nothing of it stays in this process's dict)."""
        now = self._clock.now()
        with self._lock:
            expired = [key for key, (_, at) in self._bodies.items() if at <= now]
            for key in expired:
                del self._bodies[key]
            return Success(VaultPurged(len(expired), compacted=True))

    def held_bodies(self) -> tuple[bytes, ...]:
        """Every body this process holds, expired ones not purged yet included (what a dump of
        its memory would show)."""
        with self._lock:
            return tuple(body for body, _ in self._bodies.values())

    def replace_body(self, key: PayloadKey, body: bytes) -> None:
        """Replace a body, keeping its expiry (a tampering drill)."""
        with self._lock:
            _, expires_at = self._bodies[key]
            self._bodies[key] = (body, expires_at)

    def _live(self, key: PayloadKey, now: datetime) -> bytes | None:
        entry = self._bodies.get(key)
        if entry is None:
            return None
        body, expires_at = entry
        if expires_at <= now:
            del self._bodies[key]
            return None
        return body

    @property
    def lock(self) -> threading.Lock:
        """The lock an event store sharing this vault appends under."""
        return self._lock
