"""The progress protocol's vocabulary and thresholds."""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen
from attrs.validators import ge

__all__ = ["CallOutcome", "Evaluation", "ProgressPolicy", "RejectionReason", "ViolationType"]


@frozen
class ProgressPolicy:
    """Thresholds of one run (``[progress]``)."""

    no_gain_threshold: int = field(default=3, validator=ge(1))
    """Consecutive NO_GAIN results that stop collection (INFORMATION_SATURATED)."""
    protocol_violation_limit: int = field(default=2, validator=ge(1))
    """Protocol violations that stop collection (PROGRESS_PROTOCOL_VIOLATED)."""
    max_observed_facts: int = field(default=12, validator=ge(1))
    """Observed facts a progress snapshot keeps."""


class RejectionReason(StrEnum):
    """Why a finished call's observation was not shown to the model."""

    OBSERVATION_CONTRACT_MISMATCH = "OBSERVATION_CONTRACT_MISMATCH"
    """The evidence status the projector declared and the content disagree."""


class Evaluation(StrEnum):
    """The model's verdict on an EVIDENCE_FOUND result."""

    GAINED = "GAINED"
    NO_GAIN = "NO_GAIN"


class ViolationType(StrEnum):
    """How a call broke the progress protocol."""

    MISSING_EVALUATION = "MISSING_EVALUATION"
    """A result awaits evaluation and the call carries none."""
    WRONG_OBSERVATION = "WRONG_OBSERVATION"
    """The call evaluates another tool_call_id than the one awaiting evaluation."""
    UNKNOWN_OBSERVATION = "UNKNOWN_OBSERVATION"
    """The call evaluates a tool_call_id that has no finished result in this run."""
    STALE_STEP = "STALE_STEP"
    """The call names an agent step before the latest step a call of the run began in."""


class CallOutcome(StrEnum):
    """What a finished call means for progress."""

    AWAITING_EVALUATION = "AWAITING_EVALUATION"
    """READY + EVIDENCE_FOUND: the next call must say GAINED or NO_GAIN."""
    NO_GAIN_EMPTY = "NO_GAIN_EMPTY"
    """READY + NO_EVIDENCE: NO_GAIN at once."""
    NO_GAIN_ERROR = "NO_GAIN_ERROR"
    """ERROR: NO_GAIN at once."""
