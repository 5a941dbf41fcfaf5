"""The check result: what the release guards would decide of a draft, without publishing.

``Harness.check`` runs the guards over a draft and records nothing as published; this is the
shape it returns, typed like every other result (a run id, whether the draft would pass, what
a release would give now, and the issues, each with its code and place). Integrations use it
to ask the model to mend a draft before the single release.
"""

from __future__ import annotations

from attrs import frozen

from factledger.domain.json_shape import from_json_value, record_json
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.issues import ValidationIssue
from factledger.domain.status import ReleaseOutcome

__all__ = ["CheckResult"]


@frozen
class CheckResult:
    """What the guards would decide of a draft now (nothing is published)."""

    run_id: str
    """The run."""
    passed: bool
    """True when every guard passed: releasing this draft now would publish it."""
    outcome: ReleaseOutcome
    """What releasing this draft now would give."""
    issues: tuple[ValidationIssue, ...]
    """Why it would not pass, each with its code and the citation or analysis concerned."""

    def to_json(self) -> JsonObject:
        """The result as JSON."""
        return record_json(self)

    @classmethod
    def from_json(cls, data: JsonValue) -> CheckResult:
        """A check result from its JSON (``ShapeError`` when it is not one)."""
        return from_json_value(cls, data)
