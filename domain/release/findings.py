"""What the release decides on: the state of the run as its verified log says, and what the
release's steps found (a closed union: every way a release can end has one finding)."""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from factledger.domain.evidence import ObservedFact, Source
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.release.draft import DraftFormatReason
from factledger.domain.release.fallback import PublishedResult
from factledger.domain.release.issues import ValidationIssue
from factledger.domain.status import FailureCode, RunState, StopReason

__all__ = [
    "Collected",
    "DraftMalformed",
    "EvidenceRejected",
    "InternalFailure",
    "LogUnverified",
    "NOTHING_COLLECTED",
    "NoDraft",
    "ProtocolViolated",
    "ReleaseFinding",
    "ReleaseState",
    "SemanticRejected",
    "SemanticSupported",
    "SemanticUnavailable",
    "Terminated",
]


@frozen
class Collected:
    """What the run verifiably observed (its progress snapshot)."""

    verified_sources: tuple[Source, ...]
    """Deduplicated sources of verified results."""
    observed_facts: tuple[ObservedFact, ...]
    """Verified facts."""
    limitations: tuple[str, ...]
    """What could not be verified, was truncated or expired."""
    stop_reason: StopReason | None
    """Why collection stopped, when it did."""


NOTHING_COLLECTED = Collected((), (), (), None)
"""The snapshot of a run whose log may not be read for facts."""


@frozen
class ReleaseState:
    """The run as the decision sees it."""

    run_id: str
    """The run."""
    run_state: RunState
    """Its state now."""
    run_failure_code: FailureCode | None
    """Why it ended, when it ended."""
    context_complete: bool
    """A service and a time window were given."""
    collected: Collected
    """What it verifiably observed."""
    expired_calls: int = 0
    """Calls whose content has expired (their facts are gone)."""
    agent_model_failure: ModelFailureReason | None = None
    """Why the agent's last turn failed, when it did."""


@frozen
class LogUnverified:
    """The run's log does not verify, or is no longer the log this worker read."""

    code: FailureCode
    """LOG_CORRUPTED or STORE_DIVERGED."""


@frozen
class InternalFailure:
    """Something the release relies on failed unexpectedly (a crashing judge, say)."""


@frozen
class Terminated:
    """The run left RUNNING (cancelled, timed out, out of budget) before its release."""


@frozen
class NoDraft:
    """The agent stopped without a draft."""


@frozen
class DraftMalformed:
    """The text is not a draft."""

    reason: DraftFormatReason
    """Why the text is not a draft."""


@frozen
class ProtocolViolated:
    """Collection stopped with PROGRESS_PROTOCOL_VIOLATED; the draft was only guard-checked."""

    issues: tuple[ValidationIssue, ...]
    """What the EvidenceGuard found besides."""


@frozen
class EvidenceRejected:
    """The EvidenceGuard's violations stood after repair."""

    issues: tuple[ValidationIssue, ...]
    """The violations."""
    repair_outage: ModelFailureReason | None = None
    """Why the repair model could not be reached, when it could not."""


@frozen
class SemanticSupported:
    """The evidence held and the judge found every claim supported."""

    published: PublishedResult
    """What SUCCESS publishes."""


@frozen
class SemanticRejected:
    """The judge found claims the evidence does not support."""

    issues: tuple[ValidationIssue, ...]
    """One UNGROUNDED_CLAIM per finding, with its reason and token."""


@frozen
class SemanticUnavailable:
    """The judge gave no verdict within its attempts."""

    outage: ModelFailureReason | None = None
    """Why the judge's model could not be reached, when it is a model."""


ReleaseFinding: TypeAlias = (
    LogUnverified
    | InternalFailure
    | Terminated
    | NoDraft
    | DraftMalformed
    | ProtocolViolated
    | EvidenceRejected
    | SemanticSupported
    | SemanticRejected
    | SemanticUnavailable
)
"""Everything a release can find before it decides."""
