"""The six orthogonal state layers of a run, and the transport-facing statuses.

Each enum answers exactly one question (SPEC §2); they are never merged.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ApplicationStatus",
    "EvidenceStatus",
    "FailureCode",
    "FallbackType",
    "InvocationStatus",
    "ReleaseOutcome",
    "RunState",
    "StopReason",
]


class RunState(StrEnum):
    """May the run still act; why did it stop technically."""

    RUNNING = "RUNNING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"
    TIMED_OUT = "TIMED_OUT"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"

    @property
    def is_terminal(self) -> bool:
        """True for every state except RUNNING: a run leaves RUNNING once."""
        return self is not RunState.RUNNING


class InvocationStatus(StrEnum):
    """Did this call finish into a citable record."""

    PROJECTING = "PROJECTING"
    READY = "READY"
    ERROR = "ERROR"


class EvidenceStatus(StrEnum):
    """Does the objective result hold candidate evidence."""

    EVIDENCE_FOUND = "EVIDENCE_FOUND"
    NO_EVIDENCE = "NO_EVIDENCE"
    ERROR = "ERROR"


class StopReason(StrEnum):
    """Why evidence collection was stopped in a controlled way."""

    INFORMATION_SATURATED = "INFORMATION_SATURATED"
    BUDGET_LIMIT_REACHED = "BUDGET_LIMIT_REACHED"
    PROGRESS_PROTOCOL_VIOLATED = "PROGRESS_PROTOCOL_VIOLATED"


class ReleaseOutcome(StrEnum):
    """What the user receives."""

    SUCCESS = "SUCCESS"
    FALLBACK = "FALLBACK"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class FallbackType(StrEnum):
    """Why a release was a fallback."""

    EVIDENCE_VALIDATION_FAILED = "EVIDENCE_VALIDATION_FAILED"
    SEMANTIC_UNSUPPORTED = "SEMANTIC_UNSUPPORTED"
    SEMANTIC_UNAVAILABLE = "SEMANTIC_UNAVAILABLE"
    INSUFFICIENT_EVIDENCE = "INSUFFICIENT_EVIDENCE"
    MISSING_REQUIRED_CONTEXT = "MISSING_REQUIRED_CONTEXT"


class ApplicationStatus(StrEnum):
    """Progress of a run as a transport shows it (not its outcome)."""

    RECEIVED = "RECEIVED"
    DIAGNOSIS_RUNNING = "DIAGNOSIS_RUNNING"
    COLLECTING_EVIDENCE = "COLLECTING_EVIDENCE"
    SAFETY_VALIDATING = "SAFETY_VALIDATING"
    RELEASING = "RELEASING"
    DONE = "DONE"


class FailureCode(StrEnum):
    """Why a release was FAILED or CANCELLED, for transports."""

    RUN_CANCELLED = "RUN_CANCELLED"
    RUN_TIMED_OUT = "RUN_TIMED_OUT"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    INTERNAL_FAILURE = "INTERNAL_FAILURE"
    INVALID_INPUT = "INVALID_INPUT"
