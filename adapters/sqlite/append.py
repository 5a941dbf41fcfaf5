"""The atomic append, step for step the semantics of ``adapters/redis/append.lua``.

Inside one ``BEGIN IMMEDIATE`` transaction it checks, before writing anything: the command
id's idempotency marker (→ ``Appended(already_committed=True)``), the expected head, sequence
and hash (→ ``SequenceConflict``), the unique keys (→ ``DuplicateKey``, the first taken one in
request order) and the budget counters, each against its stored value (→
``CounterLimitExceeded``). A refusal rolls back. Otherwise it writes the events, one
partition-log entry per event, the keys, the counters, the run metadata, the vault bodies,
the new head and the command marker, and commits: all of it or none of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from sqlalchemy import Connection, and_, bindparam, delete, func, insert, select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from factledger.adapters.sqlite.database import micros
from factledger.adapters.sqlite.schema import (
    commands,
    counters,
    events,
    partition_log,
    run_meta,
    runs,
    unique_keys,
    vault,
)
from factledger.domain.chain import GENESIS, ChainHead
from factledger.ports.event_store import (
    Appended,
    AppendOutcome,
    AppendRequest,
    CounterLimitExceeded,
    DuplicateKey,
    SequenceConflict,
)
from factledger.ports.payload_vault import PayloadWrite

__all__ = ["append_in", "write_bodies"]

# Statements are built once; SQLAlchemy caches their compiled form.
_FIND_COMMAND: Final = select(commands.c.head_sequence, commands.c.head_hash).where(
    commands.c.run_id == bindparam("run_id"), commands.c.command_id == bindparam("command_id")
)
_FIND_HEAD: Final = select(runs.c.head_sequence, runs.c.head_hash).where(
    runs.c.run_id == bindparam("run_id")
)
_TAKEN_KEYS: Final = select(unique_keys.c.key).where(
    unique_keys.c.run_id == bindparam("run_id"),
    unique_keys.c.key.in_(bindparam("keys", expanding=True)),
)
_COUNTER_VALUES: Final = select(counters.c.name, counters.c.value).where(
    counters.c.run_id == bindparam("run_id"),
    counters.c.name.in_(bindparam("names", expanding=True)),
)
_INSERT_EVENT: Final = insert(events)
_INSERT_LOG_ENTRY: Final = insert(partition_log)
_TAKE_KEY: Final = sqlite_insert(unique_keys).on_conflict_do_nothing()

_add = sqlite_insert(counters)
_ADD_TO_COUNTER: Final = _add.on_conflict_do_update(
    index_elements=[counters.c.run_id, counters.c.name],
    set_={"value": counters.c.value + _add.excluded.value},
)
_meta = sqlite_insert(run_meta)
_SET_META: Final = _meta.on_conflict_do_update(
    index_elements=[run_meta.c.run_id, run_meta.c.name], set_={"value": _meta.excluded.value}
)
_run = sqlite_insert(runs)
_SET_HEAD: Final = _run.on_conflict_do_update(
    index_elements=[runs.c.run_id],
    set_={
        "head_sequence": _run.excluded.head_sequence,
        "head_hash": _run.excluded.head_hash,
        "started_at": func.coalesce(_run.excluded.started_at, runs.c.started_at),
    },
)
_INSERT_COMMAND: Final = insert(commands)
_body = sqlite_insert(vault)
_PUT_BODY: Final = _body.on_conflict_do_update(
    index_elements=[vault.c.run_id, vault.c.tool_call_id, vault.c.part],
    set_={"body": _body.excluded.body, "expires_at": _body.excluded.expires_at},
)
_DROP_BODY: Final = delete(vault).where(
    and_(
        vault.c.run_id == bindparam("k_run_id"),
        vault.c.tool_call_id == bindparam("k_tool_call_id"),
        vault.c.part == bindparam("k_part"),
    )
)


def append_in(
    connection: Connection, request: AppendRequest, partition: int, now: datetime
) -> tuple[AppendOutcome, bool]:
    """Check, then write; returns the outcome and whether to commit."""
    refusal = _check(connection, request)
    if refusal is not None:
        return refusal, False
    return Appended(_write(connection, request, partition, now)), True


def _check(connection: Connection, request: AppendRequest) -> AppendOutcome | None:
    run_id = request.run_id
    done = connection.execute(
        _FIND_COMMAND, {"run_id": run_id, "command_id": request.command_id}
    ).first()
    if done is not None:
        return Appended(ChainHead(done[0], done[1]), already_committed=True)
    row = connection.execute(_FIND_HEAD, {"run_id": run_id}).first()
    head = GENESIS if row is None else ChainHead(row[0], row[1])
    if head != request.expected:
        return SequenceConflict(head)
    if request.unique_keys:
        taken = set(
            connection.execute(
                _TAKEN_KEYS, {"run_id": run_id, "keys": list(request.unique_keys)}
            ).scalars()
        )
        for key in request.unique_keys:
            if key in taken:
                return DuplicateKey(key)
    if request.counters:
        names = list(dict.fromkeys(guard.name for guard in request.counters))
        rows = connection.execute(_COUNTER_VALUES, {"run_id": run_id, "names": names})
        current: dict[str, int] = dict(rows.all())
        for guard in request.counters:
            if current.get(guard.name, 0) + guard.delta > guard.limit:
                return CounterLimitExceeded(guard.name)
    return None


def _write(
    connection: Connection, request: AppendRequest, partition: int, now: datetime
) -> ChainHead:
    run_id = request.run_id
    head = request.expected
    if request.events:
        connection.execute(
            _INSERT_EVENT,
            [
                {"run_id": run_id, "sequence": e.sequence, "data": e.data, "hash": e.hash}
                for e in request.events
            ],
        )
        connection.execute(
            _INSERT_LOG_ENTRY,
            [
                {"partition": partition, "run_id": run_id, "sequence": e.sequence}
                for e in request.events
            ],
        )
        last = request.events[-1]
        head = ChainHead(last.sequence, last.hash)
    if request.unique_keys:
        connection.execute(_TAKE_KEY, [{"run_id": run_id, "key": k} for k in request.unique_keys])
    if request.counters:
        connection.execute(
            _ADD_TO_COUNTER,
            [{"run_id": run_id, "name": g.name, "value": g.delta} for g in request.counters],
        )
    if request.meta:
        connection.execute(
            _SET_META, [{"run_id": run_id, "name": m.name, "value": m.value} for m in request.meta]
        )
    write_bodies(connection, request.payloads, now)
    connection.execute(
        _SET_HEAD,
        {
            "run_id": run_id,
            "partition": partition,
            "head_sequence": head.sequence,
            "head_hash": head.hash,
            "started_at": None if request.started_at is None else micros(request.started_at),
        },
    )
    connection.execute(
        _INSERT_COMMAND,
        {
            "run_id": run_id,
            "command_id": request.command_id,
            "head_sequence": head.sequence,
            "head_hash": head.hash,
        },
    )
    return head


def write_bodies(connection: Connection, writes: Sequence[PayloadWrite], now: datetime) -> None:
    """Keep bodies until their absolute expiry; a body already expired is removed instead,
    so it is never readable (as ``SET … PXAT`` in the past does on Redis)."""
    if not writes:
        return
    now_us = micros(now)
    live = [
        {
            "run_id": w.key.run_id,
            "tool_call_id": w.key.tool_call_id,
            "part": w.key.part.value,
            "body": w.body,
            "expires_at": expires_at,
        }
        for w in writes
        if (expires_at := micros(w.expires_at)) > now_us
    ]
    dead = [
        {
            "k_run_id": w.key.run_id,
            "k_tool_call_id": w.key.tool_call_id,
            "k_part": w.key.part.value,
        }
        for w in writes
        if micros(w.expires_at) <= now_us
    ]
    if live:
        connection.execute(_PUT_BODY, live)
    if dead:
        connection.execute(_DROP_BODY, dead)
