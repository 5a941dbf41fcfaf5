"""The release's parts, wired once: the release and the check share the opener, the guard and
the semantic guard, so a check and a release judge a draft in exactly the same way."""

from __future__ import annotations

from attrs import frozen

from factledger.application.canonical_view import CanonicalViewReader
from factledger.application.progress_snapshot import SnapshotBuilder
from factledger.application.release.check_service import CheckService
from factledger.application.release.commit import DecisionCommitter
from factledger.application.release.evidence_guard import EvidenceGuard
from factledger.application.release.opening import (
    CloseAbandoned,
    RunOpener,
)
from factledger.application.release.policy import ReleasePolicy
from factledger.application.release.recorder import ReleaseRecorder
from factledger.application.release.release_service import ReleaseService
from factledger.application.release.repair import GuardedRepair
from factledger.application.release.semantic_guard import SemanticGuard
from factledger.application.run_repository import RunRepository
from factledger.application.run_service import RunService
from factledger.application.tools.registry import ToolRegistry
from factledger.application.verification.run_verifier import RunVerifier
from factledger.ports.clock import Clock
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.semantic_judge import SemanticJudge
from factledger.ports.telemetry import SILENT, CallLog

__all__ = ["ReleaseParts", "ReleaseUseCases", "wire_release"]


@frozen
class ReleaseParts:
    """What the release needs from the rest of the application."""

    runs: RunRepository
    run_service: RunService
    canonical: CanonicalViewReader
    registry: ToolRegistry
    snapshots: SnapshotBuilder
    verifier: RunVerifier
    clock: Clock


@frozen
class ReleaseUseCases:
    """The release and the check over the same parts."""

    release: ReleaseService
    """The single release point."""
    check: CheckService
    """The guards without the release."""


def wire_release(
    parts: ReleaseParts,
    judge: SemanticJudge,
    repairer: DraftRepairer,
    policy: ReleasePolicy,
    *,
    call_log: CallLog = SILENT,
    close_abandoned: CloseAbandoned | None = None,
) -> ReleaseUseCases:
    """Wire the release and the check."""
    recorder = ReleaseRecorder(parts.runs, parts.run_service)
    guard = EvidenceGuard(parts.canonical, parts.registry)
    opener = RunOpener(
        parts.runs,
        parts.verifier,
        parts.canonical,
        parts.snapshots,
        parts.clock,
        close_abandoned=close_abandoned,
    )
    semantic = SemanticGuard(
        judge,
        recorder,
        parts.clock,
        attempts=policy.judge_attempts,
        timeout_seconds=policy.judge_timeout_seconds,
    )
    repair = GuardedRepair(parts.runs, guard, parts.canonical, policy.repair_attempts)
    committer = DecisionCommitter(parts.runs, parts.clock, policy.result_ttl)
    release = ReleaseService(
        opener, repair, semantic, committer, recorder, repairer, call_log=call_log
    )
    check = CheckService(
        parts.runs, opener, guard, semantic, recorder, attempts=policy.check_attempts
    )
    return ReleaseUseCases(release, check)
