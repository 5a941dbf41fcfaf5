"""The event store on Redis Streams.

One stream per run with explicit entry ids ``<sequence>-0`` (Redis refuses a non-increasing
id: a second guard beside the expected-sequence check); the version is never derived from
XLEN and event streams are never trimmed by length. Runs map to one of P partitions by a
stable hash of their id; a run's keys and its partition's log share one hash tag, so the
append script is single-slot. The append is one Lua script that checks the command's
idempotency marker, the expected head, unique keys and budget counters before writing the
events, the partition-log entries, counters, metadata and vault bodies.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib.resources import files

import redis
from returns.result import Result

from factledger.adapters.redis.connection import REDIS_ERRORS, RedisClient
from factledger.adapters.redis.keys import RedisKeys
from factledger.adapters.redis.payload_vault import expiry_ms
from factledger.adapters.redis.replies import (
    UnexpectedReply,
    as_bytes,
    as_optional_bytes,
    call_redis,
    stream_entries,
)
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.ports.event_store import (
    Appended,
    AppendOutcome,
    AppendRequest,
    CounterLimitExceeded,
    DuplicateKey,
    LogEntry,
    RunIndexEntry,
    SequenceConflict,
    UnknownOutcome,
)
from factledger.ports.retention import SweepCounts, lowest_checkpoint
from factledger.ports.store_errors import StoreUnavailable

__all__ = ["RedisEventStore"]

_BLOCK_SLICE_SECONDS = 1.0
"""Longest single blocking read (below the client's socket timeout)."""

_APPEND_LUA = files("factledger.adapters.redis").joinpath("append.lua").read_text()


def _head(text: bytes) -> ChainHead:
    sequence, digest = text.decode().split(":", 1)
    return ChainHead(int(sequence), digest)


def _sequence_of(entry_id: bytes) -> int:
    return int(entry_id.split(b"-", 1)[0])


class RedisEventStore:
    """Per-run streams, heads and guards on Redis; see the module docstring."""

    def __init__(self, client: RedisClient, keys: RedisKeys) -> None:
        self._client = client
        self._keys = keys
        self._append = client.register_script(_APPEND_LUA)

    @property
    def partitions(self) -> int:
        return self._keys.partitions

    def partition_of(self, run_id: str) -> int:
        return self._keys.partition_of(run_id)

    def append(self, request: AppendRequest) -> AppendOutcome:
        run_keys = self._keys.run(request.run_id)
        script_keys: list[str] = run_keys.as_script_keys()
        args: list[bytes | str | int] = [
            request.command_id,
            request.expected.sequence,
            request.expected.hash,
            request.run_id,
            "" if request.started_at is None else _ms(request.started_at),
            len(request.events),
        ]
        for event in request.events:
            args += [event.sequence, event.data, event.hash]
        args.append(len(request.unique_keys))
        args += request.unique_keys
        args.append(len(request.counters))
        for guard in request.counters:
            args += [guard.name, guard.delta, guard.limit]
        args.append(len(request.meta))
        for field in request.meta:
            args += [field.name, field.value]
        args.append(len(request.payloads))
        for payload in request.payloads:
            script_keys.append(self._keys.payload(payload.key))
            args += [payload.body, expiry_ms(payload)]
        try:
            reply = self._append(keys=script_keys, args=args)
        except redis.TimeoutError:
            return UnknownOutcome("TIMEOUT")
        except redis.ConnectionError:
            return UnknownOutcome("CONNECTION")
        except REDIS_ERRORS:
            return StoreUnavailable("SERVER_ERROR")
        try:
            status, detail = as_bytes(reply[0]), as_bytes(reply[1])
        except (UnexpectedReply, TypeError, IndexError):
            return StoreUnavailable("UNEXPECTED_REPLY")
        if status == b"OK":
            return Appended(_head(detail))
        if status == b"DONE":
            return Appended(_head(detail), already_committed=True)
        if status == b"CONFLICT":
            return SequenceConflict(_head(detail))
        if status == b"DUPLICATE":
            return DuplicateKey(detail.decode())
        if status == b"LIMIT":
            return _limit_exceeded(request, detail)
        return StoreUnavailable("UNEXPECTED_REPLY")

    def read_run(
        self, run_id: str, after_sequence: int = 0
    ) -> Result[tuple[StoredEvent, ...], StoreUnavailable]:
        def read() -> tuple[StoredEvent, ...]:
            entries = stream_entries(
                self._client.xrange(
                    self._keys.run(run_id).events, min=f"{after_sequence + 1}-0", max="+"
                )
            )
            return tuple(
                StoredEvent(run_id, _sequence_of(entry_id), fields[b"d"], fields[b"h"].decode())
                for entry_id, fields in entries
            )

        return call_redis(read)

    def wait_for_append(self, run_id: str, after_sequence: int, timeout_seconds: float) -> bool:
        """Block on the run's stream (``XREAD BLOCK``, in slices shorter than the socket
        timeout) until it holds an entry after ``<after_sequence>-0``."""
        stream = self._keys.run(run_id).events
        deadline = time.monotonic() + timeout_seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            block_ms = max(1, int(min(left, _BLOCK_SLICE_SECONDS) * 1000))
            try:
                reply = self._client.xread({stream: f"{after_sequence}-0"}, count=1, block=block_ms)
            except REDIS_ERRORS:
                time.sleep(min(left, 0.05))  # unreachable: the caller reads and decides
                return False
            if reply:
                return True

    def read_head(self, run_id: str) -> Result[ChainHead | None, StoreUnavailable]:
        def read() -> ChainHead | None:
            sequence, digest = map(
                as_optional_bytes, self._client.hmget(self._keys.run(run_id).meta, ["seq", "hash"])
            )
            if sequence is None or digest is None:
                return None
            return ChainHead(int(sequence), digest.decode())

        return call_redis(read)

    def read_log(
        self, partition: int, after: str | None, limit: int
    ) -> Result[tuple[LogEntry, ...], StoreUnavailable]:
        low = "-" if after is None else f"({after}"

        def read() -> tuple[LogEntry, ...]:
            entries = stream_entries(
                self._client.xrange(
                    self._keys.partition_log(partition), min=low, max="+", count=limit
                )
            )
            return tuple(
                LogEntry(
                    entry_id.decode(),
                    StoredEvent(
                        fields[b"r"].decode(),
                        int(fields[b"s"]),
                        fields[b"d"],
                        fields[b"h"].decode(),
                    ),
                )
                for entry_id, fields in entries
            )

        return call_redis(read)

    def list_runs(self, limit: int) -> Result[tuple[RunIndexEntry, ...], StoreUnavailable]:
        def read() -> tuple[RunIndexEntry, ...]:
            entries: list[RunIndexEntry] = []
            for partition in range(self._keys.partitions):
                entries += self._list_partition(partition, limit)
            entries.sort(key=lambda entry: entry.started_at, reverse=True)
            return tuple(entries[:limit])

        return call_redis(read)

    def _list_partition(self, partition: int, limit: int) -> list[RunIndexEntry]:
        reply = self._client.zrevrange(self._keys.run_index(partition), 0, limit - 1)
        if not isinstance(reply, list):
            raise UnexpectedReply("zrevrange")
        run_ids = [as_bytes(item).decode() for item in reply]
        pipe = self._client.pipeline(transaction=False)
        for run_id in run_ids:
            pipe.hmget(self._keys.run(run_id).meta, ["started_at", "state", "seq", "hash"])
        entries: list[RunIndexEntry] = []
        for run_id, fields in zip(run_ids, pipe.execute(), strict=True):
            started, state, seq, digest = (as_optional_bytes(value) for value in fields)
            if started is None or seq is None or digest is None:
                continue
            entries.append(
                RunIndexEntry(
                    run_id=run_id,
                    started_at=datetime.fromtimestamp(int(started) / 1000, UTC),
                    state=(state or b"RUNNING").decode(),
                    head=ChainHead(int(seq), digest.decode()),
                )
            )
        return entries

    # -- retention (ADR 0008) -----------------------------------------------------------

    def expire_run(self, run_id: str, at: datetime) -> Result[None, StoreUnavailable]:
        """``PEXPIREAT`` on the run's stream, metadata, keys, counters and commands: they go
        at ``at`` (set again when a later event of the run asks for a later time)."""
        run_keys = self._keys.run(run_id)
        when = max(1, _ms(at))

        def expire() -> None:
            pipe = self._client.pipeline(transaction=False)
            for key in (
                run_keys.events,
                run_keys.meta,
                run_keys.unique,
                run_keys.counters,
                run_keys.commands,
            ):
                pipe.pexpireat(key, when)
            pipe.execute()

        return call_redis(expire)

    def sweep(
        self,
        now: datetime,
        horizon: datetime,
        checkpoints: Mapping[int, Sequence[str | None]],
    ) -> Result[SweepCounts, StoreUnavailable]:
        """``XTRIM MINID`` each partition log at the lowest of its checkpoints and the
        horizon (never by length; nothing when a checkpoint is missing), then drop from the
        run index the runs started before the horizon whose keys have expired."""
        horizon_id = (max(0, _ms(horizon)), 0)

        def trim() -> SweepCounts:
            trimmed = runs = 0
            for partition in range(self._keys.partitions):
                behind = lowest_checkpoint(checkpoints.get(partition, ()), _entry_id)
                if behind is None:
                    continue
                lowest = min(_entry_id(behind), horizon_id)
                trimmed += int(
                    self._client.xtrim(
                        self._keys.partition_log(partition),
                        minid=f"{lowest[0]}-{lowest[1]}",
                        approximate=False,
                    )
                )
            for partition in range(self._keys.partitions):
                runs += self._forget_expired(partition, horizon_id[0])
            return SweepCounts(log_entries=trimmed, runs=runs)

        return call_redis(trim)

    def _forget_expired(self, partition: int, before_ms: int) -> int:
        index = self._keys.run_index(partition)
        reply = self._client.zrangebyscore(index, "-inf", before_ms)
        if not isinstance(reply, list):
            raise UnexpectedReply("zrangebyscore")
        run_ids = [as_bytes(item).decode() for item in reply]
        if not run_ids:
            return 0
        pipe = self._client.pipeline(transaction=False)
        for run_id in run_ids:
            pipe.exists(self._keys.run(run_id).meta)
        gone = [run_id for run_id, found in zip(run_ids, pipe.execute(), strict=True) if not found]
        if gone:
            self._client.zrem(index, *gone)
        return len(gone)


def _limit_exceeded(
    request: AppendRequest, detail: bytes
) -> CounterLimitExceeded | StoreUnavailable:
    """The refusal of the counter the script named (one of the request's guards)."""
    named = detail.decode(errors="replace")
    for guard in request.counters:
        if guard.name == named:
            return CounterLimitExceeded(guard.name)
    return StoreUnavailable("UNEXPECTED_REPLY")


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _entry_id(position: str) -> tuple[int, int]:
    milliseconds, _, sequence = position.partition("-")
    return int(milliseconds), int(sequence or 0)
