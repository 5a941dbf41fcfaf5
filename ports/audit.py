"""The audit projection's target: audit rows, projection checkpoints and the store that holds
them in one database (ADR 0008). Leases are in ``partition_leases.py``, the event stores'
retention hooks in ``retention.py``.

Audit rows are a projection of the event log: metadata that operations may keep —
ids, codes, counts, sizes, times and the chain head — never a body, query text or literal.
Every row carries the sequence of the last event applied to it; every projection keeps one
checkpoint per partition log, written in the same transaction as the rows it covers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Protocol, TypeAlias

from attrs import field, frozen
from returns.result import Result

from factledger.domain.call_record import CallRecord
from factledger.domain.release.events import FailureStage, SemanticVerdict
from factledger.domain.run_events import ModelCallPurpose
from factledger.domain.status import (
    ApplicationStatus,
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
    StopReason,
)
from factledger.ports.store_errors import StoreFailureReason

__all__ = [
    "AUDIT_PROJECTION",
    "EXPIRY_PROJECTION",
    "START",
    "AuditChanges",
    "AuditCommit",
    "AuditStore",
    "AuditUnavailable",
    "Checkpoint",
    "CheckpointMoved",
    "CommitOutcome",
    "RowsCommitted",
    "Fold",
    "InvocationRow",
    "RunAudit",
    "RunRow",
    "TransitionLayer",
    "TransitionRow",
    "UsageRow",
]

AUDIT_PROJECTION = "audit"
"""The audit rows."""
EXPIRY_PROJECTION = "retention"
"""Run expiries set in the event store when a run ends (no rows; a checkpoint only)."""


# -- rows -----------------------------------------------------------------------------------


@frozen
class InvocationRow(CallRecord):
    """One tool call as the audit keeps it: the call's record with its latency and the event
    that last changed the row."""

    error_reason: str | None
    """The tool's short reason code, only when it is one (upper-case letters, digits, ``_``)."""
    latency_us: int | None
    """``completed_at - started_at`` in microseconds."""
    truncated: bool | None
    """Whether the projection cut anything, when READY."""
    last_sequence: int
    """The sequence of the last event applied to this row."""


@frozen
class UsageRow:
    """Model calls and tokens of one purpose in one run (cost reconciliation)."""

    run_id: str
    """The run."""
    purpose: ModelCallPurpose
    """AGENT_TURN, EVIDENCE_REPAIR or SEMANTIC_JUDGE."""
    calls: int
    """Model calls reserved."""
    prompt_tokens: int
    """Prompt tokens recorded."""
    completion_tokens: int
    """Completion tokens recorded."""
    last_sequence: int
    """The sequence of the last event applied to this row."""


class TransitionLayer(StrEnum):
    """Which state a transition row moves."""

    RUN_STATE = "RUN_STATE"
    """The run lifecycle."""
    APPLICATION_STATUS = "APPLICATION_STATUS"
    """The progress a transport shows."""


@frozen
class TransitionRow:
    """A state change of a run: written once, never updated."""

    run_id: str
    """The run."""
    sequence: int
    """The event that made the change."""
    layer: TransitionLayer
    """Which state moved."""
    from_state: str | None
    """The state before (``None`` when the run had none yet)."""
    to_state: str
    """The state after."""
    at: datetime
    """When."""


@frozen
class RunRow:
    """One run as the audit keeps it, with its chain head."""

    run_id: str
    """The run."""
    partition: int
    """The partition log the run belongs to."""
    started_at: datetime | None = None
    """When RUN_STARTED was recorded."""
    ended_at: datetime | None = None
    """When RUN_ENDED was recorded."""
    state: RunState | None = None
    """The run lifecycle state."""
    failure_code: FailureCode | None = None
    """Why the run ended, when not SUCCESS."""
    application_status: ApplicationStatus | None = None
    """The furthest progress status reached."""
    stop_reason: StopReason | None = None
    """Why evidence collection stopped, when it was stopped."""
    release_outcome: ReleaseOutcome | None = None
    """What the user received."""
    fallback_type: FallbackType | None = None
    """Why it was a fallback."""
    failure_stage: FailureStage | None = None
    """Where the release stopped short of SUCCESS."""
    release_failure_code: FailureCode | None = None
    """The release's failure code (FAILED, CANCELLED)."""
    released_at: datetime | None = None
    """When RELEASE_DECISION was recorded."""
    guard_passed: bool | None = None
    """Whether the evidence guard passed on the draft as received."""
    repair_attempts: int = 0
    """Evidence repair attempts."""
    semantic_verdict: SemanticVerdict | None = None
    """The semantic guard's final verdict."""
    semantic_attempts: int = 0
    """Semantic judge attempts."""
    tool_calls: int = 0
    """Tool calls reserved."""
    invocations_ready: int = 0
    """Calls that ended READY."""
    invocations_failed: int = 0
    """Calls that ended ERROR."""
    protocol_violations: int = 0
    """Calls refused by the progress protocol."""
    duplicate_scopes: int = 0
    """Calls refused for repeating a checked scope."""
    rejected_observations: int = 0
    """Results whose declared evidence status disagreed with their content."""
    model_calls: int = 0
    """Model calls reserved, every purpose."""
    prompt_tokens: int = 0
    """Prompt tokens recorded, every purpose."""
    completion_tokens: int = 0
    """Completion tokens recorded, every purpose."""
    undecodable_events: int = 0
    """Events this code could not decode (counted, hashed into the head, otherwise skipped)."""
    last_sequence: int = 0
    """The last sequence applied: with ``head_hash``, the chain head as the audit saw it."""
    head_hash: str = "0" * 64
    """The hash of the last applied event."""


@frozen
class RunAudit:
    """Everything the audit holds about one run."""

    run: RunRow
    """The run row."""
    invocations: Mapping[str, InvocationRow] = field(factory=dict)
    """Invocation rows by tool_call_id."""
    usage: Mapping[ModelCallPurpose, UsageRow] = field(factory=dict)
    """Model usage rows by purpose."""


@frozen
class AuditChanges:
    """What one batch of events does to the audit rows."""

    runs: tuple[RunRow, ...] = ()
    """Run rows to insert or update."""
    invocations: tuple[InvocationRow, ...] = ()
    """Invocation rows to insert or update."""
    usage: tuple[UsageRow, ...] = ()
    """Usage rows to insert or update."""
    transitions: tuple[TransitionRow, ...] = ()
    """Transition rows to insert (an existing one is left as it is)."""
    reset_runs: tuple[str, ...] = ()
    """Runs whose rows are deleted before these are written (a rebuild met their first event)."""

    @property
    def rows(self) -> int:
        """How many rows the changes write."""
        return len(self.runs) + len(self.invocations) + len(self.usage) + len(self.transitions)


# -- checkpoints and commits ----------------------------------------------------------------


@frozen
class Checkpoint:
    """Where a projection stands in one partition log."""

    position: str | None
    """The last applied position (``None``: nothing applied yet)."""
    rebuilding: bool = False
    """True while a rebuild replays this partition: a run's first event resets its rows."""


START = Checkpoint(None)
"""Nothing applied yet."""


@frozen
class AuditCommit:
    """One batch: move a checkpoint from ``expected`` to ``then`` with the rows it covers."""

    projection: str
    """Which projection."""
    partition: int
    """Which partition log."""
    expected: Checkpoint
    """The checkpoint the batch was read after; the commit fails if it moved."""
    then: Checkpoint
    """The checkpoint after the batch."""
    run_ids: tuple[str, ...] = ()
    """The runs whose current rows the fold needs."""


@frozen
class RowsCommitted:
    """Rows and checkpoint are written, together."""

    rows: int
    """How many rows were written."""


@frozen
class CheckpointMoved:
    """Another worker moved the checkpoint first: nothing was written."""

    found: Checkpoint
    """The checkpoint found."""


@frozen
class AuditUnavailable:
    """The audit database could not be reached or refused: nothing was written."""

    reason: StoreFailureReason
    """Why (the same reasons every store reports), never server text."""


CommitOutcome: TypeAlias = RowsCommitted | CheckpointMoved | AuditUnavailable
"""What a commit did."""

Fold: TypeAlias = Callable[[Mapping[str, RunAudit]], AuditChanges]
"""Turns the current rows of a batch's runs into the batch's changes (called in the
transaction, after the checkpoint is locked)."""


class AuditStore(Protocol):
    """Audit rows and projection checkpoints in one database."""

    def checkpoints(
        self, projection: str, partitions: int
    ) -> Result[tuple[Checkpoint, ...], AuditUnavailable]:
        """The checkpoint of each partition log, by partition number."""
        ...

    def commit(self, commit: AuditCommit, fold: Fold) -> CommitOutcome:
        """In one transaction: move the checkpoint if it is still ``expected`` (else
        ``CheckpointMoved``), load the current rows of ``run_ids``, apply ``fold`` and write
        what it returns; a row is only written over one with a lower ``last_sequence``."""
        ...

    def begin_rebuild(
        self, projection: str, partitions: Sequence[int]
    ) -> Result[None, AuditUnavailable]:
        """Put the checkpoints of ``partitions`` back to the start, rebuilding."""
        ...

    def replace_run(
        self, projection: str, partition: int, run_id: str, changes: AuditChanges
    ) -> Result[int, AuditUnavailable]:
        """Delete a run's rows and write ``changes`` instead, holding the partition's
        checkpoint so no batch of that partition commits in between."""
        ...

    def read_run(self, run_id: str) -> Result[RunAudit | None, AuditUnavailable]:
        """Everything held about one run; ``None`` when there is no run row."""
        ...
