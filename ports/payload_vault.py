"""The payload vault: request, raw and agent-result bodies under an absolute expiry.

A body past its expiry never reads back, and ``purge_expired`` makes it gone for good: out
of the store and out of every file the store writes (ADR 0025).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Final, Protocol

from attrs import frozen
from returns.result import Result

from factledger.ports.store_errors import StoreUnavailable

__all__ = [
    "RELEASE_BODY",
    "PayloadKey",
    "PayloadPart",
    "PayloadVault",
    "PayloadWrite",
    "VaultPurged",
]

RELEASE_BODY: Final = "release"
"""The ``tool_call_id`` slot of the key a run's release result is kept under (no call may have
it: a call's id is the model's, this one is the harness's)."""


class PayloadPart(StrEnum):
    """Which body of a call."""

    REQUEST = "request"
    RAW = "raw"
    RESULT = "result"
    RELEASE = "release"


@frozen
class PayloadKey:
    """A body's exact key: run, tool_call_id and part."""

    run_id: str
    """The run."""
    tool_call_id: str
    """The call."""
    part: PayloadPart
    """Which body."""

    @classmethod
    def of_release(cls, run_id: str) -> PayloadKey:
        """Where a run's published release result is kept (one per run)."""
        return cls(run_id, RELEASE_BODY, PayloadPart.RELEASE)


@frozen
class PayloadWrite:
    """One body to keep until ``expires_at`` (absolute: never extended)."""

    key: PayloadKey
    """Where."""
    body: bytes
    """What."""
    expires_at: datetime
    """When it disappears; a time in the past means it is never readable."""


@frozen
class VaultPurged:
    """What one purge did."""

    bodies: int
    """Expired bodies this purge deleted (a store that expires bodies itself deletes none)."""
    compacted: bool
    """True when no deleted body is left in any file of the store: the purge removed their
    bytes, or had nothing to remove. False when that must wait for the next purge (the store
    file was busy), or for a compaction the store runs in the background."""


class PayloadVault(Protocol):
    """Bodies with a time to live set once at creation; reading never renews it."""

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        """Keep bodies until their absolute expiry."""
        ...

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        """The bodies in the order of ``keys``; ``None`` where absent or expired."""
        ...

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        """Milliseconds left before a body expires; ``None`` when it is absent."""
        ...

    def purge_expired(self) -> Result[VaultPurged, StoreUnavailable]:
        """Delete every body whose expiry has passed and remove their bytes from the store's
        files (memory: dropped; SQLite: deleted with secure delete, then the write-ahead log
        checkpointed and truncated; Redis: expired by the server, and an append-only file
        rewritten when the vault was opened to do so)."""
        ...
