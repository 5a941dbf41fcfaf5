"""The check result: what the release guards decide of a draft, without publishing it.

``Harness.check`` verifies the run's log, runs the EvidenceGuard and, when the evidence holds,
the SemanticGuard over a draft as the release would, and records the check (codes and reasons
only); nothing is published and the run goes on. This is the shape it returns, typed like every
other result. Integrations use it to ask the model to mend a draft before the single release.
"""

from __future__ import annotations

from attrs import frozen

from factledger.domain.json_shape import JsonRecord, from_json_value
from factledger.domain.json_types import JsonValue
from factledger.domain.release.events import FailureStage, SemanticVerdict
from factledger.domain.release.issues import ValidationIssue

__all__ = ["CheckResult"]


@frozen
class CheckResult(JsonRecord):
    """What checking one draft found (nothing is published)."""

    run_id: str
    """The run."""
    passed: bool
    """True when the release would publish the draft as it is."""
    attempt: int
    """Which check of the run this was (1, 2, …)."""
    attempts_left: int
    """How many more drafts the run may have checked (``[release] check_attempts``)."""
    failure_stage: FailureStage | None
    """Where it failed: DIAGNOSIS_COLLECTION (malformed, or the protocol violated),
    EVIDENCE_VALIDATION or SEMANTIC_VALIDATION; null when it passed."""
    semantic_verdict: SemanticVerdict | None
    """The judge's verdict, when it was asked."""
    validation_issues: tuple[ValidationIssue, ...]
    """What to mend, each with its reason and, where it helps, the claim's offending words."""

    @classmethod
    def from_json(cls, data: JsonValue) -> CheckResult:
        """A check result from its JSON (``ShapeError`` when it is not one)."""
        return from_json_value(cls, data)
