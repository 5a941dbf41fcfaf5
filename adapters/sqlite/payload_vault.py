"""The payload vault in the embedded SQLite file: one row per body with an absolute expiry.

A body whose expiry has passed reads as absent; reading never renews it; a write whose expiry
is already past removes the body instead; ``purge_expired`` deletes what has expired and
compacts the file so no byte of it stays on disk (``compaction.py``). Expiry is judged by the
``Clock`` the store was opened with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from returns.result import Failure, Result, Success
from sqlalchemy import Connection, bindparam, delete, select, tuple_

from factledger.adapters.sqlite.append import write_bodies
from factledger.adapters.sqlite.compaction import compact
from factledger.adapters.sqlite.database import SqliteDatabase, micros, stored_bytes
from factledger.adapters.sqlite.schema import vault
from factledger.ports.payload_vault import PayloadKey, PayloadWrite, VaultPurged
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["SqlitePayloadVault"]

_KEYS_PER_QUERY: Final = 300

_GET_MANY: Final = select(vault.c.run_id, vault.c.tool_call_id, vault.c.part, vault.c.body).where(
    tuple_(vault.c.run_id, vault.c.tool_call_id, vault.c.part).in_(
        bindparam("keys", expanding=True)
    ),
    vault.c.expires_at > bindparam("now"),
)
_EXPIRY: Final = select(vault.c.expires_at).where(
    vault.c.run_id == bindparam("run_id"),
    vault.c.tool_call_id == bindparam("tool_call_id"),
    vault.c.part == bindparam("part"),
    vault.c.expires_at > bindparam("now"),
)
_PURGE: Final = delete(vault).where(vault.c.expires_at <= bindparam("now"))


def _key_row(key: PayloadKey) -> tuple[str, str, str]:
    return (key.run_id, key.tool_call_id, key.part.value)


class SqlitePayloadVault:
    """Bodies with an absolute expiry column; see the module docstring."""

    def __init__(self, database: SqliteDatabase) -> None:
        self._db = database

    def put(self, writes: Sequence[PayloadWrite]) -> Result[None, StoreUnavailable]:
        now = self._db.clock.now()

        def work(connection: Connection) -> tuple[None, bool]:
            write_bodies(connection, writes, now)
            return None, True

        return self._db.write_or_unavailable(work)

    def get_many(
        self, keys: Sequence[PayloadKey]
    ) -> Result[tuple[bytes | None, ...], StoreUnavailable]:
        if not keys:
            return Success(())
        now = micros(self._db.clock.now())
        wanted = list(dict.fromkeys(_key_row(key) for key in keys))

        def read(connection: Connection) -> dict[tuple[str, str, str], bytes]:
            found: dict[tuple[str, str, str], bytes] = {}
            for start in range(0, len(wanted), _KEYS_PER_QUERY):
                chunk = wanted[start : start + _KEYS_PER_QUERY]
                rows = connection.execute(_GET_MANY, {"keys": chunk, "now": now})
                for run_id, tool_call_id, part, body in rows:
                    found[(run_id, tool_call_id, part)] = stored_bytes(body)
            return found

        return self._db.read(read).map(
            lambda found: tuple(found.get(_key_row(key)) for key in keys)
        )

    def remaining_ttl_ms(self, key: PayloadKey) -> Result[int | None, StoreUnavailable]:
        now = micros(self._db.clock.now())

        def read(connection: Connection) -> int | None:
            params = {"run_id": key.run_id, "tool_call_id": key.tool_call_id}
            expires_at = connection.execute(
                _EXPIRY, {**params, "part": key.part.value, "now": now}
            ).scalar()
            return None if expires_at is None else (expires_at - now) // 1000

        return self._db.read(read)

    def purge_expired(self) -> Result[VaultPurged, StoreUnavailable]:
        now = micros(self._db.clock.now())

        def work(connection: Connection) -> tuple[int, bool]:
            return connection.execute(_PURGE, {"now": now}).rowcount, True

        purged = self._db.write_or_unavailable(work)
        if not isinstance(purged, Success):
            return Failure(purged.failure())
        deleted = purged.unwrap()
        return compact(self._db).map(lambda compacted: VaultPurged(deleted, compacted))
