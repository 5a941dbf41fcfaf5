"""The SafeFallback and the release result: the one shape every transport returns."""

from __future__ import annotations

from attrs import field, frozen

from factledger.domain.evidence import ObservedFact, Source
from factledger.domain.json_shape import JsonRecord, from_json_value
from factledger.domain.json_types import JsonValue
from factledger.domain.release.draft import Analysis
from factledger.domain.release.events import FailureStage
from factledger.domain.release.issues import ValidationIssue
from factledger.domain.status import (
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
    StopReason,
)

__all__ = ["NoVerifiedFact", "PublishedResult", "ReleaseResult", "SafeFallback"]


@frozen
class NoVerifiedFact:
    """A fallback cannot be built: nothing was verified (fail closed: the release is FAILED)."""


@frozen
class SafeFallback(JsonRecord):
    """An honest, bounded answer when the conclusion cannot be published.

    It refuses to exist without at least one verified fact, except for
    MISSING_REQUIRED_CONTEXT (nothing was asked yet). Its conclusion is always null.
    """

    type: FallbackType
    """Why it is a fallback."""
    verified_sources: tuple[Source, ...]
    """Sources of verified results."""
    observed_facts: tuple[ObservedFact, ...]
    """Verified facts, evidence first."""
    limitations: tuple[str, ...]
    """What could not be verified, was truncated or expired."""
    next_steps: tuple[str, ...]
    """What a person could do next."""
    failure_stage: FailureStage
    """Where the release stopped short of SUCCESS."""
    validation_issues: tuple[ValidationIssue, ...]
    """The issues found, when the guards ran."""
    stop_reason: StopReason | None
    """Why evidence collection stopped, when it did."""
    conclusion: None = field(default=None, init=False)
    """Always null: a fallback never carries a conclusion."""

    def __attrs_post_init__(self) -> None:
        if self.type is not FallbackType.MISSING_REQUIRED_CONTEXT and not self.observed_facts:
            raise ValueError("a SafeFallback needs at least one verified fact")

    @classmethod
    def build(
        cls,
        type: FallbackType,
        *,
        verified_sources: tuple[Source, ...],
        observed_facts: tuple[ObservedFact, ...],
        limitations: tuple[str, ...],
        next_steps: tuple[str, ...],
        failure_stage: FailureStage,
        validation_issues: tuple[ValidationIssue, ...] = (),
        stop_reason: StopReason | None = None,
    ) -> SafeFallback | NoVerifiedFact:
        """The fallback, or ``NoVerifiedFact`` when it may not exist."""
        if type is not FallbackType.MISSING_REQUIRED_CONTEXT and not observed_facts:
            return NoVerifiedFact()
        return cls(
            type,
            verified_sources,
            observed_facts,
            limitations,
            next_steps,
            failure_stage,
            validation_issues,
            stop_reason,
        )


@frozen
class PublishedResult(JsonRecord):
    """What SUCCESS publishes: the conclusion, its analyses with verified citations, sources."""

    conclusion: str
    """The verified conclusion."""
    analyses: tuple[Analysis, ...]
    """Its analyses, each citing READY calls of the right kind."""
    source_documents: tuple[Source, ...]
    """The deduplicated sources of the cited evidence."""


@frozen
class ReleaseResult(JsonRecord):
    """The release result every transport returns."""

    run_id: str
    """The run."""
    outcome: ReleaseOutcome
    """SUCCESS, FALLBACK, FAILED or CANCELLED."""
    run_state: RunState
    """The run's final state: SUCCESS unless a technical terminal condition was hit."""
    failure_code: FailureCode | None
    """Null for SUCCESS and FALLBACK; a FailureCode for FAILED and CANCELLED."""
    published_result: PublishedResult | None
    """For SUCCESS only."""
    fallback: SafeFallback | None
    """For FALLBACK only."""

    def __attrs_post_init__(self) -> None:
        success = self.outcome is ReleaseOutcome.SUCCESS
        fallback = self.outcome is ReleaseOutcome.FALLBACK
        if success != (self.published_result is not None):
            raise ValueError("only SUCCESS publishes a result")
        if fallback != (self.fallback is not None):
            raise ValueError("only FALLBACK carries a SafeFallback")
        if (success or fallback) != (self.failure_code is None):
            raise ValueError("failure_code is null exactly for SUCCESS and FALLBACK")

    @classmethod
    def from_json(cls, data: JsonValue) -> ReleaseResult:
        """A recorded result read back (``ShapeError`` when it is not one)."""
        return from_json_value(cls, data)
