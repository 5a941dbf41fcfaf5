"""The one check that says whether a canonical record can serve as evidence.

The progress snapshot and the EvidenceGuard both use it, so a fact the snapshot reports and a
citation the guard accepts pass exactly the same test: the call is READY, its bodies are in the
vault and match their digests, the agent result strictly deserializes, the evidence status
recomputed from the content equals the recorded one, and the control view did not reject it.
"""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from factledger.application.canonical_view import CanonicalInvocation, ContentState
from factledger.application.tool_api.spec import ToolSpec
from factledger.domain.json_types import JsonObject
from factledger.domain.status import EvidenceStatus, InvocationStatus

__all__ = ["Unverified", "UnverifiedReason", "Verified", "check_record"]


class UnverifiedReason(StrEnum):
    """Why a record cannot serve as evidence."""

    NOT_READY = "NOT_READY"
    EXPIRED = "EXPIRED"
    INCONSISTENT = "INCONSISTENT"


@frozen
class Verified:
    """A record that can serve as evidence."""

    record: CanonicalInvocation
    """The record."""
    agent_result: JsonObject
    """Its verified content."""
    evidence_status: EvidenceStatus
    """EVIDENCE_FOUND or NO_EVIDENCE, confirmed by the content."""


@frozen
class Unverified:
    """A record that cannot serve as evidence, and why."""

    record: CanonicalInvocation
    """The record."""
    reason: UnverifiedReason
    """Why."""


def check_record(
    record: CanonicalInvocation, spec: ToolSpec | None, rejected: bool
) -> Verified | Unverified:
    """Apply every check (see the module docstring)."""
    if record.status is not InvocationStatus.READY or record.evidence_status is None:
        return Unverified(record, UnverifiedReason.NOT_READY)
    if record.content is ContentState.EXPIRED:
        return Unverified(record, UnverifiedReason.EXPIRED)
    if record.content is not ContentState.AVAILABLE or record.agent_result is None:
        return Unverified(record, UnverifiedReason.INCONSISTENT)
    if spec is None or rejected:
        return Unverified(record, UnverifiedReason.INCONSISTENT)
    if spec.evidence_status(record.agent_result) is not record.evidence_status:
        return Unverified(record, UnverifiedReason.INCONSISTENT)
    return Verified(record, record.agent_result, record.evidence_status)
