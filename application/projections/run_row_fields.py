"""How one event changes a run's audit row where no other row is involved: the progress
counters and the release fields (pure, like the fold that calls them)."""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from attrs import evolve

from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationEvaluated,
    ObservationRejected,
    ProgressEvent,
    ProtocolViolationRecorded,
)
from factledger.domain.release.events import (
    DraftChecked,
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    EvidenceRepairAttempted,
    ReleaseDecided,
    ReleaseEvent,
    SemanticAttempted,
    SemanticDecided,
)
from factledger.ports.audit import RunRow

__all__ = ["progress_counts", "release_fields"]


def progress_counts(
    row: RunRow,
    event: ProgressEvent,
) -> RunRow:
    match event:
        case ProtocolViolationRecorded():
            return evolve(row, protocol_violations=row.protocol_violations + 1)
        case DuplicateScopeRecorded():
            return evolve(row, duplicate_scopes=row.duplicate_scopes + 1)
        case ObservationRejected():
            return evolve(row, rejected_observations=row.rejected_observations + 1)
        case CollectionStopped():
            return evolve(row, stop_reason=event.reason)
        case ObservationEvaluated() | CallOutcomeRecorded():
            return row
        case _:
            assert_never(event)


def release_fields(
    row: RunRow,
    event: ReleaseEvent,
    at: datetime,
) -> RunRow:
    match event:
        case EvidenceGuardInitialChecked():
            return evolve(row, guard_passed=event.passed)
        case EvidenceRepairAttempted():
            return evolve(row, repair_attempts=row.repair_attempts + 1)
        case SemanticAttempted():
            return evolve(row, semantic_attempts=row.semantic_attempts + 1)
        case SemanticDecided():
            return evolve(row, semantic_verdict=event.verdict)
        case ReleaseDecided():
            return evolve(
                row,
                release_outcome=event.outcome,
                fallback_type=event.fallback_type,
                failure_stage=event.failure_stage,
                release_failure_code=event.failure_code,
                released_at=at,
            )
        case EvidenceGuardRechecked() | DraftChecked():
            return row
        case _:
            assert_never(event)
