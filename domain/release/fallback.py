"""The SafeFallback and the release result: the one shape every transport returns (SPEC §8)."""

from __future__ import annotations

from attrs import frozen

from factledger.domain.evidence import ObservedFact, Source
from factledger.domain.json_types import JsonObject
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
class SafeFallback:
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

    def to_json(self) -> JsonObject:
        return {
            "type": self.type.value,
            "conclusion": None,
            "verified_sources": [source.to_json() for source in self.verified_sources],
            "observed_facts": [fact.to_json() for fact in self.observed_facts],
            "limitations": list(self.limitations),
            "next_steps": list(self.next_steps),
            "failure_stage": self.failure_stage.value,
            "validation_issues": [issue.to_json() for issue in self.validation_issues],
            "stop_reason": None if self.stop_reason is None else self.stop_reason.value,
        }


@frozen
class PublishedResult:
    """What SUCCESS publishes: the conclusion, its analyses with verified citations, sources."""

    conclusion: str
    """The verified conclusion."""
    analyses: tuple[Analysis, ...]
    """Its analyses, each citing READY calls of the right kind."""
    source_documents: tuple[Source, ...]
    """The deduplicated sources of the cited evidence."""

    def to_json(self) -> JsonObject:
        return {
            "conclusion": self.conclusion,
            "analyses": [analysis.to_json() for analysis in self.analyses],
            "source_documents": [source.to_json() for source in self.source_documents],
        }


@frozen
class ReleaseResult:
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

    def to_json(self) -> JsonObject:
        return {
            "run_id": self.run_id,
            "outcome": self.outcome.value,
            "run_state": self.run_state.value,
            "failure_code": None if self.failure_code is None else self.failure_code.value,
            "published_result": None
            if self.published_result is None
            else self.published_result.to_json(),
            "fallback": None if self.fallback is None else self.fallback.to_json(),
        }
