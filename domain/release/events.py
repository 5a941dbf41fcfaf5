"""Events of the release: every guard step is recorded, so a release can be replayed and
explained from the log. They carry codes, counts and ids; never the draft's text."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final, Literal, TypeAlias

from attrs import frozen

from factledger.domain.release.issues import IssueCode
from factledger.domain.status import (
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
)

__all__ = [
    "RELEASE_STEP_EVENTS",
    "CheckedIssue",
    "DraftChecked",
    "EvidenceGuardInitialChecked",
    "EvidenceGuardRechecked",
    "EvidenceRepairAttempted",
    "FailureStage",
    "RecordedIssue",
    "ReleaseDecided",
    "ReleaseEvent",
    "ReleaseStepType",
    "RepairOutcome",
    "SemanticAttempted",
    "SemanticDecided",
    "SemanticVerdict",
]

ReleaseStepType: TypeAlias = Literal[
    "EVIDENCE_GUARD_INITIAL",
    "EVIDENCE_REPAIR_ATTEMPT",
    "EVIDENCE_GUARD_RECHECK",
    "SEMANTIC_ATTEMPT",
    "SEMANTIC_DECISION",
    "RELEASE_DECISION",
]
"""The type of an event that records one release step, in the order a release takes them
(``DRAFT_CHECK`` is the draft's format, not a step)."""


class FailureStage(StrEnum):
    """Where a release stopped short of SUCCESS."""

    DIAGNOSIS_INPUT = "DIAGNOSIS_INPUT"
    DIAGNOSIS_COLLECTION = "DIAGNOSIS_COLLECTION"
    EVIDENCE_VALIDATION = "EVIDENCE_VALIDATION"
    SEMANTIC_VALIDATION = "SEMANTIC_VALIDATION"


class RepairOutcome(StrEnum):
    """What one repair attempt produced."""

    REPAIRED = "REPAIRED"
    """A draft with the same semantics came back (the guard re-checks it)."""
    SEMANTICS_CHANGED = "SEMANTICS_CHANGED"
    """The conclusion, a claim or a kind changed: rejected."""
    MALFORMED = "MALFORMED"
    """What came back is not a draft."""
    UNAVAILABLE = "UNAVAILABLE"
    """No repair could be obtained (no model, no recorded repair, or a model failure)."""


class SemanticVerdict(StrEnum):
    """The semantic judge's answer."""

    SUPPORTED = "SUPPORTED"
    UNSUPPORTED = "UNSUPPORTED"
    UNAVAILABLE = "UNAVAILABLE"


@frozen
class RecordedIssue:
    """A validation issue as an event records it."""

    code: IssueCode
    tool_call_id: str | None
    analysis_index: int | None


@frozen
class EvidenceGuardInitialChecked:
    """EVIDENCE_GUARD_INITIAL: the mechanical citation check of the draft as received."""

    TYPE: ClassVar[Literal["EVIDENCE_GUARD_INITIAL"]] = "EVIDENCE_GUARD_INITIAL"
    passed: bool
    """True when every citation held."""
    analyses: int
    """How many analyses the draft had."""
    citations: int
    """How many distinct calls it cited."""
    issues: tuple[RecordedIssue, ...]
    """What did not hold."""


@frozen
class EvidenceGuardRechecked:
    """EVIDENCE_GUARD_RECHECK: the citation check of a repaired draft."""

    TYPE: ClassVar[Literal["EVIDENCE_GUARD_RECHECK"]] = "EVIDENCE_GUARD_RECHECK"
    attempt: int
    """The repair attempt whose draft was checked."""
    passed: bool
    """True when every citation held."""
    analyses: int
    """How many analyses the draft had."""
    citations: int
    """How many distinct calls it cited."""
    issues: tuple[RecordedIssue, ...]
    """What did not hold."""


@frozen
class EvidenceRepairAttempted:
    """EVIDENCE_REPAIR_ATTEMPT: one bounded attempt to fix citations only."""

    TYPE: ClassVar[Literal["EVIDENCE_REPAIR_ATTEMPT"]] = "EVIDENCE_REPAIR_ATTEMPT"
    attempt: int
    """1, 2, …"""
    outcome: RepairOutcome
    """What it produced."""


@frozen
class SemanticAttempted:
    """SEMANTIC_ATTEMPT: one metered call of the semantic judge."""

    TYPE: ClassVar[Literal["SEMANTIC_ATTEMPT"]] = "SEMANTIC_ATTEMPT"
    attempt: int
    """1, 2, …"""
    judge: str
    """``grounding`` or ``llm``."""
    verdict: SemanticVerdict
    """What this attempt said."""
    reason: str | None
    """A short code when unavailable or unsupported."""


@frozen
class SemanticDecided:
    """SEMANTIC_DECISION: the semantic guard's final verdict."""

    TYPE: ClassVar[Literal["SEMANTIC_DECISION"]] = "SEMANTIC_DECISION"
    verdict: SemanticVerdict
    """SUPPORTED, UNSUPPORTED or UNAVAILABLE."""
    attempts: int
    """How many attempts it took."""
    unsupported: tuple[int, ...]
    """Indexes of the analyses the judge did not find supported (-1: the conclusion)."""


@frozen
class CheckedIssue:
    """A validation issue as a check records it: codes only (never the claim's words)."""

    code: IssueCode
    tool_call_id: str | None
    analysis_index: int | None
    reason: str | None
    """A stable reason code (anything else is recorded as ``OTHER``)."""


@frozen
class DraftChecked:
    """DRAFT_CHECK: a draft was checked (EvidenceGuard, then SemanticGuard) without publishing
    it or ending the run. Counted against ``[release] check_attempts``."""

    TYPE: ClassVar[str] = "DRAFT_CHECK"
    attempt: int
    """1, 2, … within the run."""
    passed: bool
    """True when the draft would pass both guards as it is."""
    failure_stage: FailureStage | None
    """Where it failed, when it did."""
    verdict: SemanticVerdict | None
    """The semantic judge's verdict, when the evidence held and the judge was asked."""
    analyses: int
    """How many analyses the draft had."""
    citations: int
    """How many distinct calls it cited."""
    issues: tuple[CheckedIssue, ...]
    """What did not hold."""


@frozen
class ReleaseDecided:
    """RELEASE_DECISION: what the user receives. Recorded once per run."""

    TYPE: ClassVar[Literal["RELEASE_DECISION"]] = "RELEASE_DECISION"
    outcome: ReleaseOutcome
    """SUCCESS, FALLBACK, FAILED or CANCELLED."""
    run_state: RunState
    """The run's final state."""
    failure_code: FailureCode | None
    """For FAILED and CANCELLED."""
    fallback_type: FallbackType | None
    """For FALLBACK."""
    failure_stage: FailureStage | None
    """For FALLBACK (and FAILED when a stage applies)."""
    issues: tuple[RecordedIssue, ...]
    """The validation issues listed in the result."""
    facts: int
    """Observed facts in the result."""
    sources: int
    """Sources in the result."""
    result_digest: str
    """SHA-256 of the release result as published (its body is kept in the vault)."""


ReleaseEvent: TypeAlias = (
    DraftChecked
    | EvidenceGuardInitialChecked
    | EvidenceGuardRechecked
    | EvidenceRepairAttempted
    | SemanticAttempted
    | SemanticDecided
    | ReleaseDecided
)
"""Every event of the release."""

RELEASE_STEP_EVENTS: Final = (
    EvidenceGuardInitialChecked,
    EvidenceRepairAttempted,
    EvidenceGuardRechecked,
    SemanticAttempted,
    SemanticDecided,
    ReleaseDecided,
)
"""The events that record one release step, in the order of ``ReleaseStepType``."""
