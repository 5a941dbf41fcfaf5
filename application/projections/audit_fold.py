"""The audit projection as a fold: events in, audit rows out.

Pure: no I/O, no clock. A batch of one partition log is folded over the rows the audit holds
for its runs; an event whose sequence is not above its run row's ``last_sequence`` was applied
before and changes nothing. Only ids, codes, counts, sizes and times are copied out of events:
no event holds content, and nothing here would copy it if one did (a tool's reason is kept
only when it has the shape of a code).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Final, assert_never

from attrs import evolve, frozen

from factledger.application.projections.run_row_fields import progress_counts, release_fields
from factledger.application.statuses import statuses_entered
from factledger.domain.chain import StoredEvent
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import RecordedEvent
from factledger.domain.progress.events import ProgressEvent
from factledger.domain.release.events import ReleaseEvent
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallFailed,
    ModelCallPurpose,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
)
from factledger.domain.safe_code import safe_code
from factledger.domain.status import (
    ApplicationStatus,
    EvidenceStatus,
    InvocationStatus,
    RunState,
)
from factledger.ports.audit import (
    AuditChanges,
    InvocationRow,
    RunAudit,
    RunRow,
    TransitionLayer,
    TransitionRow,
    UsageRow,
)

__all__ = ["LoggedEvent", "fold_batch", "fold_run"]

_STATUS_RANK: Final = {status: rank for rank, status in enumerate(ApplicationStatus)}


@frozen
class LoggedEvent:
    """An event as a partition log gave it, decoded when this code could."""

    stored: StoredEvent
    """The stored event (run, sequence, bytes, hash)."""
    recorded: RecordedEvent | None
    """The decoded event; ``None`` when its bytes are not an event this code understands."""


class _Batch:
    """Working state of one batch (mutable dictionaries of frozen rows)."""

    def __init__(self, current: Mapping[str, RunAudit], partition: int, rebuilding: bool):
        self.current = current
        self.partition = partition
        self.rebuilding = rebuilding
        self.runs: dict[str, RunRow] = {}
        self.invocations: dict[tuple[str, str], InvocationRow] = {}
        self.usage: dict[tuple[str, ModelCallPurpose], UsageRow] = {}
        self.dirty_invocations: set[tuple[str, str]] = set()
        self.dirty_usage: set[tuple[str, ModelCallPurpose]] = set()
        self.transitions: list[TransitionRow] = []
        self.reset: list[str] = []
        # The last applied (sequence, hash) of each run, set on its row once, at the end.
        self.heads: dict[str, tuple[int, str]] = {}

    def open(self, stored: StoredEvent) -> RunRow:
        run_id = stored.run_id
        row = self.runs.get(run_id)
        if row is not None:
            return row
        held = self.current.get(run_id)
        if held is None or (self.rebuilding and stored.sequence == 1):
            if held is not None:
                self.reset.append(run_id)
            row = RunRow(run_id, self.partition)
        else:
            row = held.run
            for tool_call_id, invocation in held.invocations.items():
                self.invocations[(run_id, tool_call_id)] = invocation
            for purpose, usage in held.usage.items():
                self.usage[(run_id, purpose)] = usage
        self.runs[run_id] = row
        self.heads[run_id] = (row.last_sequence, row.head_hash)
        return row

    def changes(self) -> AuditChanges:
        runs = []
        for run_id in sorted(self.runs):
            row = self.runs[run_id]
            sequence, digest = self.heads[run_id]
            if (row.last_sequence, row.head_hash) != (sequence, digest):
                row = evolve(row, last_sequence=sequence, head_hash=digest)
            runs.append(row)
        return AuditChanges(
            runs=tuple(runs),
            invocations=tuple(self.invocations[key] for key in sorted(self.dirty_invocations)),
            usage=tuple(self.usage[key] for key in sorted(self.dirty_usage)),
            transitions=tuple(self.transitions),
            reset_runs=tuple(self.reset),
        )

    # -- applying one event -------------------------------------------------------------

    def apply(self, logged: LoggedEvent) -> None:
        stored = logged.stored
        row = self.open(stored)
        if stored.sequence <= self.heads[stored.run_id][0]:
            return  # applied before: re-applying changes nothing
        self.heads[stored.run_id] = (stored.sequence, stored.hash)
        recorded = logged.recorded
        if recorded is None:
            row = evolve(row, undecodable_events=row.undecodable_events + 1)
        else:
            row = self._apply_event(row, recorded)
        self.runs[stored.run_id] = row

    def _apply_event(self, row: RunRow, recorded: RecordedEvent) -> RunRow:
        row = self._fold_event(row, recorded)
        entered = statuses_entered(recorded.event)
        if not entered:
            return row
        return self._enter(row, entered, recorded.sequence, recorded.occurred_at)

    def _fold_event(self, row: RunRow, recorded: RecordedEvent) -> RunRow:
        event = recorded.event
        at = recorded.occurred_at
        sequence = recorded.sequence
        if isinstance(event, ProgressEvent):
            return progress_counts(row, event)
        if isinstance(event, ReleaseEvent):
            return release_fields(row, event, at)
        match event:
            case RunStarted():
                row = self._move_state(row, RunState.RUNNING, sequence, at)
                return evolve(row, started_at=at)
            case RunEnded():
                row = self._move_state(row, event.state, sequence, at)
                return evolve(row, ended_at=at, failure_code=event.failure_code)
            case ToolCallReserved():
                return evolve(row, tool_calls=row.tool_calls + 1)
            case InvocationBegan() | InvocationReady() | InvocationFailed():
                return self._invocation_event(row, event, sequence, at)
            case ModelCallReserved() | ModelUsageRecorded() | ModelCallFailed():
                return self._model_event(row, event, sequence)
            case _:
                assert_never(event)

    def _invocation_event(
        self,
        row: RunRow,
        event: InvocationBegan | InvocationReady | InvocationFailed,
        sequence: int,
        at: datetime,
    ) -> RunRow:
        match event:
            case InvocationBegan():
                self._put_invocation(
                    InvocationRow(
                        run_id=row.run_id,
                        tool_call_id=event.tool_call_id,
                        tool_name=event.tool_name,
                        step=event.step,
                        status=InvocationStatus.PROJECTING,
                        evidence_status=None,
                        error_code=None,
                        error_reason=None,
                        started_at=at,
                        completed_at=None,
                        latency_us=None,
                        request_bytes=event.request_bytes,
                        raw_bytes=None,
                        projection_bytes=None,
                        truncated=None,
                        last_sequence=sequence,
                    )
                )
                return row
            case InvocationReady():
                self._finish(
                    row.run_id,
                    event.tool_call_id,
                    sequence,
                    at,
                    status=InvocationStatus.READY,
                    evidence_status=EvidenceStatus(event.evidence_status),
                    raw_bytes=event.raw_bytes,
                    projection_bytes=event.projection_bytes,
                    truncated=event.truncated,
                )
                return evolve(row, invocations_ready=row.invocations_ready + 1)
            case InvocationFailed():
                self._finish(
                    row.run_id,
                    event.tool_call_id,
                    sequence,
                    at,
                    status=InvocationStatus.ERROR,
                    evidence_status=EvidenceStatus.ERROR,
                    error_code=event.error_code,
                    error_reason=safe_code(event.reason),
                    raw_bytes=event.raw_bytes,
                )
                return evolve(row, invocations_failed=row.invocations_failed + 1)
            case _:
                assert_never(event)

    def _model_event(
        self,
        row: RunRow,
        event: ModelCallReserved | ModelUsageRecorded | ModelCallFailed,
        sequence: int,
    ) -> RunRow:
        match event:
            case ModelCallReserved():
                usage = self._usage(row.run_id, event.purpose)
                self._put_usage(evolve(usage, calls=usage.calls + 1, last_sequence=sequence))
                return evolve(row, model_calls=row.model_calls + 1)
            case ModelUsageRecorded():
                usage = self._usage(row.run_id, event.purpose)
                self._put_usage(
                    evolve(
                        usage,
                        prompt_tokens=usage.prompt_tokens + event.prompt_tokens,
                        completion_tokens=usage.completion_tokens + event.completion_tokens,
                        last_sequence=sequence,
                    )
                )
                return evolve(
                    row,
                    prompt_tokens=row.prompt_tokens + event.prompt_tokens,
                    completion_tokens=row.completion_tokens + event.completion_tokens,
                )
            case ModelCallFailed():
                return row  # the call was counted when reserved; the failure is in the log
            case _:
                assert_never(event)

    # -- helpers --------------------------------------------------------------------------

    def _move_state(self, row: RunRow, state: RunState, sequence: int, at: datetime) -> RunRow:
        if row.state is state:
            return row
        self.transitions.append(
            TransitionRow(
                row.run_id,
                sequence,
                TransitionLayer.RUN_STATE,
                None if row.state is None else row.state.value,
                state.value,
                at,
            )
        )
        return evolve(row, state=state)

    def _enter(
        self,
        row: RunRow,
        statuses: Iterable[ApplicationStatus],
        sequence: int,
        at: datetime,
    ) -> RunRow:
        for status in statuses:
            current = row.application_status
            if current is not None and _STATUS_RANK[status] <= _STATUS_RANK[current]:
                continue
            self.transitions.append(
                TransitionRow(
                    row.run_id,
                    sequence,
                    TransitionLayer.APPLICATION_STATUS,
                    None if current is None else current.value,
                    status.value,
                    at,
                )
            )
            row = evolve(row, application_status=status)
        return row

    def _put_invocation(self, invocation: InvocationRow) -> None:
        key = (invocation.run_id, invocation.tool_call_id)
        self.invocations[key] = invocation
        self.dirty_invocations.add(key)

    def _finish(
        self,
        run_id: str,
        tool_call_id: str,
        sequence: int,
        at: datetime,
        *,
        status: InvocationStatus,
        evidence_status: EvidenceStatus,
        raw_bytes: int | None,
        projection_bytes: int | None = None,
        truncated: bool | None = None,
        error_code: ToolBoundaryErrorCode | None = None,
        error_reason: str | None = None,
    ) -> None:
        invocation = self.invocations.get((run_id, tool_call_id))
        if invocation is None:
            return  # its beginning is not in the log any more (retention): counted on the run
        self._put_invocation(
            evolve(
                invocation,
                status=status,
                evidence_status=evidence_status,
                error_code=error_code,
                error_reason=error_reason,
                completed_at=at,
                latency_us=_micros(at - invocation.started_at),
                raw_bytes=raw_bytes,
                projection_bytes=projection_bytes,
                truncated=truncated,
                last_sequence=sequence,
            )
        )

    def _usage(self, run_id: str, purpose: ModelCallPurpose) -> UsageRow:
        found = self.usage.get((run_id, purpose))
        return found if found is not None else UsageRow(run_id, purpose, 0, 0, 0, 0)

    def _put_usage(self, usage: UsageRow) -> None:
        key = (usage.run_id, usage.purpose)
        self.usage[key] = usage
        self.dirty_usage.add(key)


def _micros(delta: timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def fold_batch(
    current: Mapping[str, RunAudit],
    events: Sequence[LoggedEvent],
    partition: int,
    *,
    rebuilding: bool = False,
) -> AuditChanges:
    """The changes a batch of one partition log makes to the rows in ``current`` (the rows
    held for the batch's runs). While ``rebuilding``, a run's first event resets its rows."""
    batch = _Batch(current, partition, rebuilding)
    for logged in events:
        batch.apply(logged)
    return batch.changes()


def fold_run(events: Sequence[LoggedEvent], partition: int) -> AuditChanges:
    """Every row of one run, folded from its whole stream."""
    return fold_batch({}, events, partition)
