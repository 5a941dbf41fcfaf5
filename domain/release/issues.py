"""Validation issues a release or a check can list, each with a reason code.

An issue says what is wrong (``code``), where (a citation, an analysis), why (``reason``, a
stable code) and, where it helps the agent mend its draft, which words of its claim are at
fault (``token``, quoted from the claim, never from the evidence). Reasons and tokens go into
the release result and the check result; events record codes and reasons only (a token is
the draft's text).
"""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from factledger.domain.json_shape import JsonRecord

__all__ = ["GuardReason", "IssueCode", "ValidationIssue"]


class IssueCode(StrEnum):
    """What is wrong with a draft or its evidence."""

    MISSING_CITATION = "MISSING_CITATION"
    UNKNOWN_TOOL_CALL = "UNKNOWN_TOOL_CALL"
    NOT_READY = "NOT_READY"
    EVIDENCE_KIND_MISMATCH = "EVIDENCE_KIND_MISMATCH"
    EVIDENCE_EXPIRED = "EVIDENCE_EXPIRED"
    PROJECTION_INCONSISTENT = "PROJECTION_INCONSISTENT"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    MALFORMED_DRAFT = "MALFORMED_DRAFT"
    UNGROUNDED_CLAIM = "UNGROUNDED_CLAIM"
    """The semantic judge found a claim its citations do not support (``reason`` says how)."""
    PROTOCOL_VIOLATED = "PROTOCOL_VIOLATED"
    """Evidence collection was stopped for breaking the progress protocol: no conclusion of
    this run is published, however well its citations hold."""


class GuardReason(StrEnum):
    """Why the EvidenceGuard (or the draft parser) raised an issue."""

    NO_ANALYSES = "NO_ANALYSES"
    """MISSING_CITATION: the draft has a conclusion and no analysis."""
    NO_CITATIONS = "NO_CITATIONS"
    """MISSING_CITATION: the analysis cites no call."""
    NOT_IN_RUN = "NOT_IN_RUN"
    """UNKNOWN_TOOL_CALL: no call with this id began in this run."""
    CALL_PROJECTING = "CALL_PROJECTING"
    """NOT_READY: the call never finished."""
    CALL_FAILED = "CALL_FAILED"
    """NOT_READY: the call ended as ERROR."""
    CITES_NO_EVIDENCE = "CITES_NO_EVIDENCE"
    """EVIDENCE_KIND_MISMATCH: a SUPPORTING_EVIDENCE analysis cites a call that found nothing."""
    CITES_EVIDENCE = "CITES_EVIDENCE"
    """EVIDENCE_KIND_MISMATCH: a NEGATIVE_OBSERVATION cites a call that found evidence."""
    KIND_UNSUPPORTED = "KIND_UNSUPPORTED"
    """EVIDENCE_KIND_MISMATCH: the cited tool's results cannot back this kind of analysis."""
    CONTENT_EXPIRED = "CONTENT_EXPIRED"
    """EVIDENCE_EXPIRED: the call's bodies have left the vault."""
    BODY_TAMPERED = "BODY_TAMPERED"
    """PROJECTION_INCONSISTENT: a body does not match the digest its event recorded (or the
    agent result is not a JSON object)."""
    BODY_MISSING = "BODY_MISSING"
    """PROJECTION_INCONSISTENT: a body is gone before its expiry."""
    STATUS_MISMATCH = "STATUS_MISMATCH"
    """PROJECTION_INCONSISTENT: the content does not say what its evidence status says."""
    OBSERVATION_REJECTED = "OBSERVATION_REJECTED"
    """PROJECTION_INCONSISTENT: the control view rejected the observation."""
    TOOL_UNREGISTERED = "TOOL_UNREGISTERED"
    """PROJECTION_INCONSISTENT: the call's tool is not registered here to re-check it."""
    STORE_UNREADABLE = "STORE_UNREADABLE"
    """STORE_UNAVAILABLE: the vault could not be read."""
    STOPPED_FOR_PROTOCOL = "STOPPED_FOR_PROTOCOL"
    """PROTOCOL_VIOLATED: collection stopped with PROGRESS_PROTOCOL_VIOLATED."""


@frozen
class ValidationIssue(JsonRecord):
    """One issue, located at a citation and/or an analysis when it has a place."""

    code: IssueCode
    """What is wrong."""
    tool_call_id: str | None = None
    """The citation concerned."""
    analysis_index: int | None = None
    """The analysis concerned (0-based; null for the conclusion or the draft as a whole)."""
    reason: str | None = None
    """Why, as a stable code (a ``GuardReason``, a draft parse reason, or the judge's
    reason such as ``UNGROUNDED_NUMBER`` or ``POLARITY_MISMATCH``)."""
    token: str | None = None
    """The offending words, quoted from the claim (never from the evidence)."""
