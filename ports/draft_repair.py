"""EvidenceRepair's model: asked to fix a draft's citations, and nothing else."""

from __future__ import annotations

from typing import Protocol

from attrs import frozen

from factledger.domain.json_types import JsonObject
from factledger.domain.release.issues import ValidationIssue
from factledger.domain.status import EvidenceStatus

__all__ = ["CitableCall", "DraftRepairer", "RepairRequest", "RepairUnavailable"]


@frozen
class CitableCall:
    """A call the draft may cite: metadata the model has already seen, never a body."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    scope: JsonObject
    """What it searched (as its observation showed)."""
    evidence_status: EvidenceStatus
    """EVIDENCE_FOUND or NO_EVIDENCE."""

    def to_json(self) -> JsonObject:
        return {
            "tool_call_id": self.tool_call_id,
            "tool_name": self.tool_name,
            "scope": self.scope,
            "evidence_status": self.evidence_status.value,
        }


@frozen
class RepairRequest:
    """What the repairer sees."""

    draft: JsonObject
    """The draft as the agent wrote it."""
    issues: tuple[ValidationIssue, ...]
    """What the guard found."""
    citable: tuple[CitableCall, ...]
    """Every READY call of this run, with id, tool, scope and evidence status."""
    attempt: int
    """1, 2, …"""


@frozen
class RepairUnavailable:
    """No repaired draft could be obtained."""

    reason: str
    """A short code."""


class DraftRepairer(Protocol):
    """Returns a repaired draft as text (strict JSON), or why there is none."""

    @property
    def uses_model(self) -> bool:
        """True when an attempt is a model call (metered against the model budget)."""
        ...

    def repair(self, request: RepairRequest) -> str | RepairUnavailable:
        """One attempt."""
        ...
