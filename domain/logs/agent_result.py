"""The logs agent_result: which keys the model sees, which only the harness sees, and the
evidence status its content implies (the control view recomputes it from the content and
refuses a result whose declared status differs).

The rule: matched records with at least one pattern ⇒ EVIDENCE_FOUND; no matched record, no
pattern and no event ⇒ NO_EVIDENCE. A scope whose ``skipped`` names anything the backend did
not read or place must say so: ``truncated`` with ``SCOPE_NOT_FULLY_READ`` (and only then):
such a NO_EVIDENCE is incomplete, never "nothing matched in the scope"."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.skipped import read_skipped
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import ProjectedEvidenceStatus, ProjectionFailure

__all__ = [
    "CONTROL_ONLY_KEYS",
    "MODEL_VISIBLE_KEYS",
    "TruncationReason",
    "recompute_evidence_status",
]

MODEL_VISIBLE_KEYS: Final = (
    "scope",
    "matched_count",
    "observed_range",
    "level_counts",
    "pattern_count",
    "patterns",
    "events",
    "truncated",
    "truncation_reasons",
    "lines_dropped",
)
"""Keys of a logs agent_result that the model observation carries."""

CONTROL_ONLY_KEYS: Final = ("returned_count",)
"""Keys only the control view carries (the returned count is not shown to the model)."""


class TruncationReason(StrEnum):
    """Why a logs observation is not the whole picture (stable codes, listed in this order)."""

    SCOPE_NOT_FULLY_READ = "SCOPE_NOT_FULLY_READ"
    """The backend did not read or could not place part of the scope (``scope.skipped``):
    a match may be hidden there."""
    BACKEND_LIMIT = "BACKEND_LIMIT"
    """The backend matched more records than the request's limit let it return."""
    TEMPLATE_LIMIT = "TEMPLATE_LIMIT"
    """More distinct templates than the projector keeps; later ones were only counted."""
    PATTERNS_OMITTED = "PATTERNS_OMITTED"
    """Some templates did not fit in the byte budget."""
    MESSAGES_CLIPPED = "MESSAGES_CLIPPED"
    """A shown template, message or field value was cut to its length limit."""
    STACK_FRAMES_DROPPED = "STACK_FRAMES_DROPPED"
    """A shown stack trace was folded to its exception, cause and first frames."""


def recompute_evidence_status(
    agent_result: JsonObject,
) -> Result[ProjectedEvidenceStatus, ProjectionFailure]:
    """The evidence status a logs agent_result's content implies, or why it is malformed.

    Matched records with at least one pattern ⇒ EVIDENCE_FOUND; no matched record, no
    pattern and no event ⇒ NO_EVIDENCE; anything else is inconsistent, and so is a scope
    with skipped parts not marked ``SCOPE_NOT_FULLY_READ`` (or marked without any).
    """
    if set(agent_result) != set(MODEL_VISIBLE_KEYS) | set(CONTROL_ONLY_KEYS):
        return Failure(ProjectionFailure("UNEXPECTED_KEYS"))
    matched = agent_result["matched_count"]
    returned = agent_result["returned_count"]
    patterns = agent_result["patterns"]
    events = agent_result["events"]
    if not _is_count(matched) or not _is_count(returned):
        return Failure(ProjectionFailure("INCONSISTENT_COUNTS"))
    if not isinstance(patterns, list) or not isinstance(events, list):
        return Failure(ProjectionFailure("MALFORMED_CONTENT"))
    incomplete = _incompleteness(agent_result)
    if incomplete is None:
        return Failure(ProjectionFailure("MALFORMED_CONTENT"))
    if incomplete is not _marked_incomplete(agent_result):
        return Failure(ProjectionFailure("INCOMPLETE_SCOPE_UNMARKED"))
    if matched == 0:
        if returned == 0 and not patterns and not events:
            return Success(EvidenceStatus.NO_EVIDENCE)
        return Failure(ProjectionFailure("INCONSISTENT_COUNTS"))
    if patterns and isinstance(returned, int) and isinstance(matched, int) and returned <= matched:
        return Success(EvidenceStatus.EVIDENCE_FOUND)
    return Failure(ProjectionFailure("INCONSISTENT_COUNTS"))


def _incompleteness(agent_result: JsonObject) -> bool | None:
    """True when the scope names skipped parts, False when it names none, None when the
    scope is malformed."""
    scope = agent_result["scope"]
    if not isinstance(scope, dict) or "skipped" not in scope:
        return None
    skipped = read_skipped(scope["skipped"])
    if skipped is None or skipped != scope["skipped"]:
        return None
    return bool(skipped)


def _marked_incomplete(agent_result: JsonObject) -> bool:
    reasons = agent_result["truncation_reasons"]
    marked = isinstance(reasons, list) and TruncationReason.SCOPE_NOT_FULLY_READ.value in reasons
    return marked and agent_result["truncated"] is True


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
