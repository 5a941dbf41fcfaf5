"""Load a run, decide, append — with optimistic concurrency and idempotent retries.

The repository keeps the folded log of recently used runs and reads only the events after
it. Every decision is appended with the head it was made on: a conflict means another
writer got there first, so the log is brought up to date and the command decided again. An
unknown outcome (timeout, lost reply) is retried with the *same* command id until the store
says whether it committed; it is never decided again.

A store can also lose acknowledged events (a Redis without an append-only file restarted, a
failover to a replica that had not received them; ADR 0009). The repository notices when the
store's history is no longer the one it cached: events read after the cached head that do not
chain onto it, or a conflict whose head is behind the cached one or differs from it at the same
sequence. Reading then starts again from the store's first event, so what is loaded is the
store's truth; a command being decided fails with ``DIVERGED`` instead (it was decided on a
history that is gone) and the next command starts from the store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Final, Literal, TypeAlias, assert_never

from attrs import frozen
from returns.result import Success

from factledger.domain.append_guards import counter_guards, meta_fields, unique_keys
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.domain.codec import EventCodec
from factledger.domain.events import Event, RecordedEvent
from factledger.domain.run_decisions import Decision
from factledger.domain.run_errors import BudgetExhausted, DuplicateToolCallId, RunError
from factledger.domain.run_log import RunLog, fold
from factledger.ports.clock import Clock, IdFactory
from factledger.ports.event_store import (
    Appended,
    AppendOutcome,
    AppendRequest,
    CounterLimitExceeded,
    DuplicateKey,
    EventStore,
    SequenceConflict,
    UnknownOutcome,
)
from factledger.ports.payload_vault import PayloadWrite
from factledger.ports.store_errors import StoreUnavailable

__all__ = [
    "Committed",
    "ExecuteOutcome",
    "PayloadsFor",
    "Refused",
    "RunRepository",
    "StoreFailed",
    "StoreFailureReason",
]

PayloadsFor: TypeAlias = Callable[[tuple[Event, ...]], tuple[PayloadWrite, ...]]
"""Vault bodies to write atomically with the decided events."""


@frozen
class Committed:
    """The decided events are in the store."""

    log: RunLog
    """The run as of the new head."""
    events: tuple[RecordedEvent, ...]
    """The events appended."""


@frozen
class Refused:
    """The run refused the command; nothing was written."""

    error: RunError
    """Why."""


StoreFailureReason: TypeAlias = Literal[
    "UNAVAILABLE", "UNKNOWN_OUTCOME", "CORRUPT_STREAM", "TOO_MUCH_CONTENTION", "DIVERGED"
]
"""Why a store failed: unreachable, no word on whether it wrote, stored events that do not
decode or fold, conflicts without end, or a history that lost events this process had read
(see the module doc). ``application/store_failures.py`` says what each means to a caller."""


@frozen
class StoreFailed:
    """The store was unavailable, inconsistent, or never said whether it committed."""

    reason: StoreFailureReason
    """Why."""


ExecuteOutcome: TypeAlias = Committed | Refused | StoreFailed
"""What executing one command did."""


def _no_payloads(_: tuple[Event, ...]) -> tuple[PayloadWrite, ...]:
    return ()


class RunRepository:
    """The one place that loads runs and appends their events."""

    def __init__(
        self,
        store: EventStore,
        codec: EventCodec,
        clock: Clock,
        ids: IdFactory,
        *,
        max_attempts: int = 64,
        unknown_outcome_retries: int = 3,
        cache_size: int = 4096,
    ) -> None:
        self._store = store
        self._codec = codec
        self._clock = clock
        self._ids = ids
        self._max_attempts = max_attempts
        self._unknown_retries = unknown_outcome_retries
        self._cache: OrderedDict[str, RunLog] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @property
    def store(self) -> EventStore:
        """The event store behind the repository."""
        return self._store

    @property
    def codec(self) -> EventCodec:
        """The codec events are encoded with."""
        return self._codec

    def load(self, run_id: str, *, refresh: bool = True) -> RunLog | StoreFailed:
        """The run's log. With ``refresh`` the events after the cached head are read first;
        without it the cached log is returned as is when there is one."""
        with self._lock:
            cached = self._cache.get(run_id)
        if cached is not None and not refresh:
            return cached
        if cached is None:
            return self._read_after(RunLog(run_id))
        read = self._read_after(cached)
        if read == _DIVERGED:
            return self._read_after(RunLog(run_id))  # the store's history, from its start
        return read

    def events(
        self, run_id: str, after_sequence: int = 0
    ) -> tuple[RecordedEvent, ...] | StoreFailed:
        """The run's recorded events after a sequence, decoded, in order."""
        stored = self._store.read_run(run_id, after_sequence)
        if not isinstance(stored, Success):
            return StoreFailed("UNAVAILABLE")
        decoded: list[RecordedEvent] = []
        for item in stored.unwrap():
            event = self._codec.decode(item.data, item.hash)
            if not isinstance(event, Success):
                return StoreFailed("CORRUPT_STREAM")
            decoded.append(event.unwrap())
        return tuple(decoded)

    def forget(self, run_id: str) -> None:
        """Drop a run from the cache (the next load reads it from the start)."""
        with self._lock:
            self._cache.pop(run_id, None)

    def _read_after(self, start: RunLog) -> RunLog | StoreFailed:
        """``start`` brought up to the store's head; ``DIVERGED`` (after dropping the cached
        log) when the events read do not chain onto it."""
        decoded = self.events(start.run_id, start.sequence)
        if isinstance(decoded, StoreFailed):
            return decoded
        if decoded and start.sequence and decoded[0].prev_hash != start.head_hash:
            self.forget(start.run_id)
            return _DIVERGED
        folded = fold(decoded, start)
        if not isinstance(folded, Success):
            return StoreFailed("CORRUPT_STREAM")
        log: RunLog = folded.unwrap()
        self._remember(log)
        return log

    def _remember(self, log: RunLog) -> None:
        with self._lock:
            cached = self._cache.get(log.run_id)
            if cached is None or cached.sequence <= log.sequence:
                self._cache[log.run_id] = log
            self._cache.move_to_end(log.run_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def execute(
        self,
        run_id: str,
        decide: Callable[[RunLog], Decision],
        *,
        payloads: PayloadsFor = _no_payloads,
        now: datetime | None = None,
    ) -> ExecuteOutcome:
        """Decide on the current log and append, retrying on conflicts (see module doc)."""
        loaded = self.load(run_id, refresh=False)
        if isinstance(loaded, StoreFailed):
            return loaded
        log = loaded
        fresh = False
        for _ in range(self._max_attempts):
            decision = decide(log)
            if not isinstance(decision, Success):
                if fresh:
                    return Refused(decision.failure())
                # The cached log may be behind another writer: decide once more on fresh data.
                reloaded = self._read_after(log)
                if isinstance(reloaded, StoreFailed):
                    return reloaded
                log, fresh = reloaded, True
                continue
            events: tuple[Event, ...] = decision.unwrap()
            outcome = self._append(log, events, payloads, now or self._clock.now())
            if not isinstance(outcome, SequenceConflict):
                return outcome
            if _behind(outcome.actual, log):
                # The store lost events this log holds: what was decided on them is void.
                self.forget(log.run_id)
                return _DIVERGED
            reloaded = self._read_after(log)
            if isinstance(reloaded, StoreFailed):
                return reloaded
            log, fresh = reloaded, True
        return StoreFailed("TOO_MUCH_CONTENTION")

    def _append(
        self,
        log: RunLog,
        events: tuple[Event, ...],
        payloads: PayloadsFor,
        now: datetime,
    ) -> Committed | Refused | StoreFailed | SequenceConflict:
        recorded = self._codec.seal(log.run_id, log.sequence + 1, log.head_hash, now, events)
        request = AppendRequest(
            run_id=log.run_id,
            expected=ChainHead(log.sequence, log.head_hash),
            command_id=self._ids.new_command_id(),
            events=tuple(
                StoredEvent(log.run_id, item.sequence, item.data, item.hash) for item in recorded
            ),
            unique_keys=unique_keys(events),
            counters=counter_guards(log.run.budget, events) if log.run is not None else (),
            meta=meta_fields(events),
            payloads=payloads(events),
            started_at=now if log.sequence == 0 else None,
        )
        outcome = self._append_until_known(request)
        match outcome:
            case Appended():
                folded = fold(recorded, log)
                if not isinstance(folded, Success):  # pragma: no cover - sealed just above
                    return StoreFailed("CORRUPT_STREAM")
                committed: RunLog = folded.unwrap()
                self._remember(committed)
                return Committed(committed, recorded)
            case SequenceConflict():
                return outcome
            case DuplicateKey():
                tool_call_id = outcome.key.removeprefix("tool_call_id:")
                return Refused(DuplicateToolCallId(tool_call_id))
            case CounterLimitExceeded():
                return Refused(BudgetExhausted(outcome.counter))
            case StoreUnavailable():
                return StoreFailed("UNAVAILABLE")
            case UnknownOutcome():
                return StoreFailed("UNKNOWN_OUTCOME")
            case _:
                assert_never(outcome)

    def _append_until_known(self, request: AppendRequest) -> AppendOutcome:
        outcome = self._store.append(request)
        retries = self._unknown_retries
        while isinstance(outcome, UnknownOutcome) and retries > 0:
            retries -= 1
            outcome = self._store.append(request)  # same command id: never re-decided
        return outcome


_DIVERGED: Final = StoreFailed("DIVERGED")


def _behind(actual: ChainHead, log: RunLog) -> bool:
    """True when the store's head is behind ``log`` or differs from it at its sequence."""
    return actual.sequence < log.sequence or (
        actual.sequence == log.sequence and actual.hash != log.head_hash
    )
