"""The six orthogonal state layers of a run, and the transport-facing statuses.

Each enum answers exactly one question; they are never merged.
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
    """Why a release was FAILED or CANCELLED, for transports. Stable: a value is never renamed."""

    RUN_CANCELLED = "RUN_CANCELLED"
    RUN_TIMED_OUT = "RUN_TIMED_OUT"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    """The store could not be reached, or never said whether it wrote (an outage)."""
    INTERNAL_FAILURE = "INTERNAL_FAILURE"
    INVALID_INPUT = "INVALID_INPUT"
    LOG_CORRUPTED = "LOG_CORRUPTED"
    """The run's log does not verify (a hash, a link, a sequence, the head kept outside the
    stream, or an event that does not decode): nothing is published from it."""
    STORE_DIVERGED = "STORE_DIVERGED"
    """The store no longer holds the history this worker read (acknowledged events lost)."""
    EVIDENCE_EXPIRED = "EVIDENCE_EXPIRED"
    """Nothing verified remains because the content of the run's calls expired."""
    EVIDENCE_TAMPERED = "EVIDENCE_TAMPERED"
    """Nothing verified remains because cited bodies do not match their recorded digests."""
    MODEL_UNAVAILABLE = "MODEL_UNAVAILABLE"
    """Nothing verified remains and a model the release needed could not be reached."""
    NO_VERIFIED_EVIDENCE = "NO_VERIFIED_EVIDENCE"
    """A fallback was due but the run verified no fact to put in it."""
