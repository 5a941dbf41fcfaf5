"""The two views of one result: the harness's control view and the model's observation.

The observation has one shape for every tool and transport: ``tool_call_id`` and ``status``
(READY | ERROR | REFUSED); READY adds ``evidence_status``, ``scope``, ``truncated``,
``relevance_level`` where the tool has one, and the tool's bounded content; ERROR adds
``error_code`` and ``reason`` where the tool gives a safe one; REFUSED adds ``error_code``.
Control fields appear only when the harness must change the model's behaviour. Everything
else (counts the harness keeps, thresholds, budgets, identities, raw bodies) stays in the
control view.
"""

from __future__ import annotations

from attrs import frozen

from factledger.application.canonical_view import CanonicalInvocation
from factledger.application.tools.spec import ToolSpec
from factledger.domain.budget import BudgetName
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.progress.policy import ViolationType
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = [
    "CONTROL_FIELDS",
    "ControlView",
    "control_view",
    "error_observation",
    "ready_observation",
    "refused_observation",
    "with_checked_scope",
    "with_repair",
    "with_stop",
]

CONTROL_FIELDS = frozenset(
    {
        "stop_required", "stop_reason", "repair_required", "violation_type",
        "expected_tool_call_id", "expected_tool_call_ids", "instruction", "checked_scope",
    }
)  # fmt: skip
"""Control fields an observation may carry when the harness must steer the model."""


def ready_observation(
    tool_call_id: str, spec: ToolSpec, agent_result: JsonObject, evidence_status: EvidenceStatus
) -> JsonObject:
    """A READY observation: the whitelisted part of the canonical agent result."""
    observation: JsonObject = {
        "tool_call_id": tool_call_id,
        "status": "READY",
        "evidence_status": evidence_status.value,
        "scope": agent_result.get("scope"),
        "truncated": bool(agent_result.get("truncated", False)),
    }
    if spec.has_relevance:
        observation["relevance_level"] = agent_result.get("relevance_level")
    for key in spec.content_keys:
        if key in agent_result:
            observation[key] = agent_result[key]
    return observation


def error_observation(tool_call_id: str, error_code: str, reason: str | None) -> JsonObject:
    """An ERROR observation: the call began and failed."""
    observation: JsonObject = {"tool_call_id": tool_call_id, "status": "ERROR"}
    observation["error_code"] = error_code
    if reason is not None:
        observation["reason"] = reason
    return observation


def refused_observation(
    tool_call_id: str, error_code: str, reason: str | None = None
) -> JsonObject:
    """A REFUSED observation: nothing began, the backend did not run."""
    observation: JsonObject = {
        "tool_call_id": tool_call_id,
        "status": "REFUSED",
        "error_code": error_code,
    }
    if reason is not None:
        observation["reason"] = reason
    return observation


def with_stop(observation: JsonObject, reason: StopReason) -> JsonObject:
    """Tell the model to stop collecting evidence."""
    return {**observation, "stop_required": True, "stop_reason": reason.value}


def with_repair(
    observation: JsonObject,
    violation: ViolationType,
    expected_tool_call_ids: tuple[str, ...],
    *,
    listed: bool = False,
) -> JsonObject:
    """Tell the model how to repair a protocol violation. ``expected_tool_call_id`` names the
    first result awaiting evaluation; with ``listed`` (a call with a step)
    ``expected_tool_call_ids`` names every one."""
    repaired: JsonObject = {
        **observation,
        "repair_required": True,
        "violation_type": violation.value,
        "expected_tool_call_id": expected_tool_call_ids[0] if expected_tool_call_ids else None,
    }
    if listed:
        repaired["expected_tool_call_ids"] = list(expected_tool_call_ids)
    repaired["instruction"] = _instruction(violation, expected_tool_call_ids)
    return repaired


def _instruction(violation: ViolationType, expected: tuple[str, ...]) -> str:
    if violation is ViolationType.STALE_STEP:
        return (
            "This call names an agent step before the run's latest step: send it again as "
            "part of the current step."
        )
    if len(expected) == 1:
        only = expected[0]
        return (
            f"The result of {only} found evidence. Call again with "
            f'"previous_observation": {{"tool_call_id": "{only}", '
            '"evaluation": "GAINED" or "NO_GAIN"}.'
        )
    if expected:
        items = ", ".join(
            f'{{"tool_call_id": "{item}", "evaluation": "GAINED" or "NO_GAIN"}}'
            for item in expected
        )
        return (
            f"The results of {', '.join(expected)} found evidence. Call again with "
            f'"previous_observation": [{items}].'
        )
    return (
        'Nothing awaits evaluation: send "previous_observation": null, or name a call '
        "of this run that has finished."
    )


def with_checked_scope(observation: JsonObject, scope: JsonObject) -> JsonObject:
    """Name the scope that was already checked (a duplicate)."""
    return {**observation, "checked_scope": scope}


@frozen
class ControlView:
    """Everything the harness knows of one call (never shown to the model)."""

    tool_call_id: str
    tool_name: str
    status: str
    evidence_status: str | None
    error_code: str | None
    reason: str | None
    content_state: str
    scope: JsonValue
    truncated: bool
    relevance_level: JsonValue
    content: JsonObject | None
    returned_count: JsonValue
    scope_identity: str | None
    duplicate_of: str | None
    evaluation: str | None
    pending_evaluation: str | None
    pending_evaluations: tuple[str, ...]
    consecutive_no_gain: int
    no_gain_threshold: int
    violations: int
    violation_limit: int
    stop_reason: str | None
    remaining_budget: dict[str, int]
    request_bytes: int
    raw_bytes: int | None
    projection_bytes: int | None
    payload_keys: tuple[str, ...]

    def to_json(self) -> JsonObject:
        """The control view as JSON (metadata; bodies only through ``content``)."""
        return {
            "tool_call_id": self.tool_call_id,
            "tool_name": self.tool_name,
            "status": self.status,
            "evidence_status": self.evidence_status,
            "error_code": self.error_code,
            "reason": self.reason,
            "content_state": self.content_state,
            "scope": self.scope,
            "truncated": self.truncated,
            "relevance_level": self.relevance_level,
            "content": self.content,
            "returned_count": self.returned_count,
            "scope_identity": self.scope_identity,
            "duplicate_of": self.duplicate_of,
            "evaluation": self.evaluation,
            "pending_evaluation": self.pending_evaluation,
            "pending_evaluations": list(self.pending_evaluations),
            "consecutive_no_gain": self.consecutive_no_gain,
            "no_gain_threshold": self.no_gain_threshold,
            "violations": self.violations,
            "violation_limit": self.violation_limit,
            "stop_reason": self.stop_reason,
            "remaining_budget": dict(self.remaining_budget),
            "request_bytes": self.request_bytes,
            "raw_bytes": self.raw_bytes,
            "projection_bytes": self.projection_bytes,
            "payload_keys": list(self.payload_keys),
        }


def control_view(record: CanonicalInvocation, log: RunLog) -> ControlView:
    """The control view of one call, from its canonical record and the run's state."""
    progress = log.progress
    scope_identity = progress.call_scopes.get(record.tool_call_id)
    result = record.agent_result or {}
    run = log.run
    remaining = {name.value: run.remaining(name) for name in BudgetName} if run is not None else {}
    duplicate_of = None
    if scope_identity is not None:
        first = progress.checked_scopes.get(scope_identity)
        duplicate_of = first if first not in (None, record.tool_call_id) else None
    evaluation = progress.evaluations.get(record.tool_call_id)
    return ControlView(
        tool_call_id=record.tool_call_id,
        tool_name=record.tool_name,
        status=record.status.value,
        evidence_status=None if record.evidence_status is None else record.evidence_status.value,
        error_code=None if record.error_code is None else record.error_code.value,
        reason=record.reason,
        content_state=record.content.value,
        scope=result.get("scope"),
        truncated=record.truncated,
        relevance_level=result.get("relevance_level"),
        content=record.agent_result,
        returned_count=result.get("returned_count"),
        scope_identity=scope_identity,
        duplicate_of=duplicate_of,
        evaluation=None if evaluation is None else evaluation.value,
        pending_evaluation=progress.pending[0] if progress.pending else None,
        pending_evaluations=progress.pending,
        consecutive_no_gain=progress.consecutive_no_gain,
        no_gain_threshold=progress.policy.no_gain_threshold,
        violations=progress.violations,
        violation_limit=progress.policy.protocol_violation_limit,
        stop_reason=None if progress.stop_reason is None else progress.stop_reason.value,
        remaining_budget=remaining,
        request_bytes=record.request_bytes,
        raw_bytes=record.raw_bytes,
        projection_bytes=record.projection_bytes,
        payload_keys=tuple(
            f"{record.run_id}/{record.tool_call_id}/{part}" for part in ("request", "raw", "result")
        ),
    )
