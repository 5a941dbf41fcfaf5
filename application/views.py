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

from factledger.application.canonical_view import CanonicalInvocation, ContentState
from factledger.application.tool_api.spec import ToolSpec
from factledger.domain.budget import BudgetName
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.json_shape import JsonRecord
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.progress.policy import Evaluation, ViolationType
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, InvocationStatus, StopReason

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
class ControlView(JsonRecord):
    """Everything the harness knows of one call (never shown to the model): metadata, progress
    bookkeeping and the projected agent result, never the raw response or the request body."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    status: InvocationStatus
    """PROJECTING, READY or ERROR."""
    evidence_status: EvidenceStatus | None
    """What it found (None while PROJECTING)."""
    error_code: ToolBoundaryErrorCode | None
    """Why it failed, for ERROR."""
    reason: str | None
    """The tool's safe reason code."""
    content_state: ContentState
    """Whether its bodies can be used."""
    scope: JsonValue
    """The actual scope."""
    truncated: bool
    """Whether the projection cut anything."""
    relevance_level: JsonValue
    """How relevant the best evidence is, for tools that report it."""
    content: JsonObject | None
    """The projected agent result (bounded, redacted), while its content is available."""
    returned_count: JsonValue
    """How many items the projection kept."""
    scope_identity: str | None
    """The normalised scope's identity (duplicate detection)."""
    duplicate_of: str | None
    """The earlier call that checked the same scope."""
    evaluation: Evaluation | None
    """The model's evaluation of this call (GAINED or NO_GAIN)."""
    pending_evaluation: str | None
    """The first call whose evaluation the run awaits (kept for one-call-at-a-time hosts)."""
    pending_evaluations: tuple[str, ...]
    """Every call whose evaluation the run awaits (a step's calls are evaluated together)."""
    consecutive_no_gain: int
    """NO_GAIN outcomes in a row."""
    no_gain_threshold: int
    """When saturation stops collection."""
    violations: int
    """Protocol violations so far."""
    violation_limit: int
    """When violations stop collection."""
    stop_reason: StopReason | None
    """Why evidence collection was stopped."""
    remaining_budget: dict[str, int]
    """What is left of each budget."""
    request_bytes: int
    """Size of the arguments."""
    raw_bytes: int | None
    """Size of the raw response."""
    projection_bytes: int | None
    """Size of the agent result."""
    payload_keys: tuple[str, ...]
    """The names of its bodies in the vault."""


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
        status=record.status,
        evidence_status=record.evidence_status,
        error_code=record.error_code,
        reason=record.reason,
        content_state=record.content,
        scope=result.get("scope"),
        truncated=record.truncated,
        relevance_level=result.get("relevance_level"),
        content=record.agent_result,
        returned_count=result.get("returned_count"),
        scope_identity=scope_identity,
        duplicate_of=duplicate_of,
        evaluation=evaluation,
        pending_evaluation=progress.pending[0] if progress.pending else None,
        pending_evaluations=progress.pending,
        consecutive_no_gain=progress.consecutive_no_gain,
        no_gain_threshold=progress.policy.no_gain_threshold,
        violations=progress.violations,
        violation_limit=progress.policy.protocol_violation_limit,
        stop_reason=progress.stop_reason,
        remaining_budget=remaining,
        request_bytes=record.request_bytes,
        raw_bytes=record.raw_bytes,
        projection_bytes=record.projection_bytes,
        payload_keys=tuple(
            f"{record.run_id}/{record.tool_call_id}/{part}" for part in ("request", "raw", "result")
        ),
    )
