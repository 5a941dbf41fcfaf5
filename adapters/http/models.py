"""The HTTP API's request and response bodies (strict pydantic; unknown fields are refused).

Requests are validated strictly: no coercion (``"3"`` is not a step), no unknown keys, text that
cannot be encoded as UTF-8 (lone surrogates) is refused at the edge. Responses mirror the
facade's JSON shapes field for field; a view is metadata and digests, never a raw body.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field, JsonValue

from factledger.application.canonical_view import ContentState
from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.events import FailureStage
from factledger.domain.release.issues import IssueCode
from factledger.domain.status import (
    ApplicationStatus,
    EvidenceStatus,
    FailureCode,
    FallbackType,
    InvocationStatus,
    ReleaseOutcome,
    RunState,
    StopReason,
)

__all__ = [
    "Analysis",
    "CanonicalView",
    "CancelResult",
    "ControlView",
    "Observation",
    "ObservedFact",
    "ProgressSnapshot",
    "PublishedResult",
    "ReleaseRequest",
    "ReleaseResult",
    "RunCreated",
    "RunSummary",
    "SafeFallback",
    "Source",
    "StartRunRequest",
    "StatusChange",
    "StatusTimeline",
    "StreamError",
    "StreamTimeout",
    "ToolCallRequest",
    "ToolDefinitions",
    "ToolFormat",
    "ToolsQuery",
    "ValidationIssue",
    "reply",
]

ToolFormat = Literal["openai", "mcp"]
"""The tool definition formats the facade serves."""

_Reply = TypeVar("_Reply", bound="_Response")


def _encodable(value: object) -> object:
    """Refuse text JSON can carry but UTF-8 cannot (lone surrogates); the message names no input."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text must be valid Unicode") from None
    return value


def _text_instant(value: object) -> object:
    """Only an ISO-8601 string is an instant here (a number is not a timestamp)."""
    if not isinstance(value, str):
        raise ValueError("an instant is an ISO-8601 string with a time zone")
    return _encodable(value)


def _integral(value: object) -> object:
    """JSON Schema counts ``3.0`` as an integer, so this API does too (only a whole float)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Text = Annotated[str, BeforeValidator(_encodable)]
"""A string that encodes as UTF-8."""

Instant = Annotated[AwareDatetime, Field(strict=False), BeforeValidator(_text_instant)]
"""An ISO-8601 instant with a time zone."""


class _Request(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


class _Response(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


def reply(model: type[_Reply], data: JsonObject) -> _Reply:
    """The facade's JSON as a response model (validated in strict JSON mode, keys kept as given)."""
    return model.model_validate_json(json.dumps(data))


# -- requests -------------------------------------------------------------------------------


class StartRunRequest(_Request):
    """``POST /runs``: start a run with every configured tool granted."""

    question: Text | None = None
    """The question the agent answers."""
    service: Text | None = None
    """The service to diagnose (without it the run is released as MISSING_REQUIRED_CONTEXT)."""
    start: Instant | None = None
    """Start of the window to diagnose."""
    end: Instant | None = None
    """End of the window to diagnose (not before ``start``)."""


class ToolCallRequest(_Request):
    """``POST /runs/{run_id}/tool-calls``: one tool call as the model sent it."""

    tool_call_id: Text
    """The model's id for this call (unique in the run)."""
    tool_name: Text
    """The tool the model called."""
    arguments: Text
    """The arguments exactly as the model sent them: a JSON string, passed on verbatim."""
    step: Annotated[int, Field(ge=0, le=1_000_000), BeforeValidator(_integral)] | None = None
    """The agent step (model turn) that made the call."""


class ToolsQuery(_Request):
    """``GET /runs/{run_id}/tools``: the query (an unknown parameter is refused)."""

    format: ToolFormat = "openai"
    """``openai`` (strict-mode function tools) or ``mcp`` (MCP tool descriptions)."""


class ReleaseRequest(_Request):
    """``POST /runs/{run_id}/release``: the agent's draft, or null when it stopped without one."""

    draft: Text | None = None
    """The draft exactly as the agent wrote it (a JSON string), or null."""


# -- responses ------------------------------------------------------------------------------


class RunCreated(_Response):
    """A run was started."""

    run_id: str
    """The new run's id."""


class RunSummary(_Response):
    """A run's state, context, budget use and release decision (metadata only)."""

    run_id: str
    """The run."""
    state: RunState
    """Its RunState."""
    started_at: str
    """When it started (ISO-8601)."""
    deadline: str
    """When it times out (ISO-8601)."""
    service: str | None
    """The service under diagnosis."""
    start: str | None
    """Start of the window (ISO-8601)."""
    end: str | None
    """End of the window (ISO-8601)."""
    tool_calls: int
    """Tool calls reserved so far."""
    model_calls: int
    """Model calls reserved so far."""
    model_tokens: int
    """Model tokens used so far."""
    events: int
    """Events in the run's log."""
    stop_reason: StopReason | None
    """Why evidence collection was stopped, if it was."""
    outcome: ReleaseOutcome | None
    """The release outcome, once released."""


class ToolDefinitions(_Response):
    """The evidence tools a model may call in this run."""

    format: ToolFormat
    """``openai`` (strict-mode function tools) or ``mcp`` (MCP tool descriptions)."""
    tools: list[dict[str, JsonValue]]
    """The definitions, in the chosen format."""


class Observation(_Response):
    """The model observation of one call (SPEC §6); absent keys are absent, never null-filled."""

    tool_call_id: str
    """The call."""
    status: Literal["READY", "ERROR", "REFUSED"]
    """READY (evidence), ERROR (the call began and failed) or REFUSED (nothing began)."""
    evidence_status: EvidenceStatus | None = None
    """READY: whether the result holds candidate evidence."""
    scope: JsonValue = None
    """READY: the actual scope searched."""
    truncated: bool | None = None
    """READY: whether the bounded content was cut."""
    relevance_level: JsonValue = None
    """READY, knowledge: how relevant the best evidence is."""
    evidence: JsonValue = None
    """READY, knowledge: the bounded evidence blocks."""
    matched_count: JsonValue = None
    """READY, logs: how many lines matched."""
    observed_range: JsonValue = None
    """READY, logs: the times of the first and last matching line."""
    level_counts: JsonValue = None
    """READY, logs: matching lines per level."""
    pattern_count: JsonValue = None
    """READY, logs: how many patterns the matches form."""
    patterns: JsonValue = None
    """READY, logs: the bounded, redacted patterns."""
    events: JsonValue = None
    """READY, logs: the bounded, redacted sample lines."""
    truncation_reasons: JsonValue = None
    """READY, logs: why the content was cut."""
    lines_dropped: JsonValue = None
    """READY, logs: lines left out of the sample."""
    columns: JsonValue = None
    """READY, SQL: the result's columns."""
    rows: JsonValue = None
    """READY, SQL: the bounded, masked rows."""
    error_code: str | None = None
    """ERROR or REFUSED: a stable code."""
    reason: str | None = None
    """ERROR or REFUSED: the tool's safe reason code, where it gives one."""
    stop_required: bool | None = None
    """Control: the model must stop collecting evidence."""
    stop_reason: StopReason | None = None
    """Control: why it must stop."""
    repair_required: bool | None = None
    """Control: the model must repair a protocol violation."""
    violation_type: str | None = None
    """Control: which violation."""
    expected_tool_call_id: str | None = None
    """Control: the (first) call whose evaluation is expected."""
    expected_tool_call_ids: list[str] | None = None
    """Control, for a call with a step: every call whose evaluation is expected."""
    instruction: str | None = None
    """Control: how to repair."""
    checked_scope: JsonValue = None
    """Control: the scope that was already checked (a duplicate)."""


class Analysis(_Response):
    """One claim of a published result and the calls it cites."""

    kind: AnalysisKind
    """SUPPORTING_EVIDENCE or NEGATIVE_OBSERVATION."""
    claim: str
    """The claim."""
    tool_call_ids: list[str]
    """The verified calls it cites."""


class Source(_Response):
    """Where verified evidence came from."""

    source_type: str
    """The tool that found it."""
    source: str
    """The document, service or datasource."""
    scope: dict[str, JsonValue]
    """The checked scope."""


class ObservedFact(_Response):
    """One bounded, verified statement of what a call observed."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    evidence_status: EvidenceStatus
    """What it found."""
    summary: str
    """A bounded summary built from the canonical result."""


class ValidationIssue(_Response):
    """Why a draft was not released as it was."""

    code: IssueCode
    """The violation."""
    tool_call_id: str | None
    """The citation concerned."""
    analysis_index: int | None
    """The analysis concerned (0-based)."""


class PublishedResult(_Response):
    """What SUCCESS publishes."""

    conclusion: str
    """The verified conclusion."""
    analyses: list[Analysis]
    """Its analyses, each citing READY calls of the right kind."""
    source_documents: list[Source]
    """The deduplicated sources of the cited evidence."""


class SafeFallback(_Response):
    """What a FALLBACK publishes instead of a conclusion."""

    type: FallbackType
    """Why it is a fallback."""
    conclusion: None
    """Always null."""
    verified_sources: list[Source]
    """Sources of verified evidence."""
    observed_facts: list[ObservedFact]
    """What the run verifiably observed."""
    limitations: list[str]
    """What the result cannot say."""
    next_steps: list[str]
    """What to do next."""
    failure_stage: FailureStage
    """Where the release stopped short of SUCCESS."""
    validation_issues: list[ValidationIssue]
    """The guard's violations."""
    stop_reason: StopReason | None
    """Why evidence collection was stopped, if it was."""


class ReleaseResult(_Response):
    """The release result, the one shape every transport returns (SPEC §8)."""

    run_id: str
    """The run."""
    outcome: ReleaseOutcome
    """SUCCESS, FALLBACK, FAILED or CANCELLED."""
    run_state: RunState
    """The run's final state."""
    failure_code: FailureCode | None
    """Null for SUCCESS and FALLBACK."""
    published_result: PublishedResult | None
    """For SUCCESS only."""
    fallback: SafeFallback | None
    """For FALLBACK only."""


class CancelResult(_Response):
    """What a cancel did."""

    run_id: str
    """The run."""
    state: RunState
    """Its state after the cancel."""
    cancelled: bool
    """True when this request cancelled it (false when it had already ended)."""


class CanonicalView(_Response):
    """A call's canonical record as metadata and digests (never a body)."""

    run_id: str
    """The run."""
    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    step: int | None
    """The agent step that made it."""
    status: InvocationStatus
    """PROJECTING, READY or ERROR."""
    evidence_status: EvidenceStatus | None
    """What it found (null while PROJECTING)."""
    error_code: str | None
    """Why it failed, for ERROR."""
    reason: str | None
    """The tool's safe reason code, for ERROR."""
    started_at: str
    """When it began (ISO-8601)."""
    completed_at: str | None
    """When it finished (ISO-8601)."""
    content_expires_at: str
    """When its bodies leave the vault (ISO-8601)."""
    content: ContentState
    """Whether its bodies can be used (the bodies themselves are never served)."""
    request_bytes: int
    """Size of the arguments."""
    raw_bytes: int | None
    """Size of the raw response."""
    projection_bytes: int | None
    """Size of the agent result."""
    request_digest: str
    """SHA-256 of the arguments."""
    raw_digest: str | None
    """SHA-256 of the raw response."""
    result_digest: str | None
    """SHA-256 of the agent result."""
    truncated: bool
    """Whether the projection cut anything."""


class ControlView(_Response):
    """The harness's control view of a call: metadata, progress bookkeeping and the projected
    agent_result (never the raw response or the request body)."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    status: InvocationStatus
    """PROJECTING, READY or ERROR."""
    evidence_status: EvidenceStatus | None
    """What it found."""
    error_code: str | None
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
    """Knowledge: how relevant the best evidence is."""
    content: dict[str, JsonValue] | None
    """The projected agent_result (bounded, redacted), while its content is available."""
    returned_count: JsonValue
    """How many items the projection kept."""
    scope_identity: str | None
    """The normalized scope's identity."""
    duplicate_of: str | None
    """The earlier call that checked the same scope."""
    evaluation: str | None
    """The model's evaluation of this call (GAINED or NO_GAIN)."""
    pending_evaluation: str | None
    """The (first) call whose evaluation the run awaits."""
    pending_evaluations: list[str]
    """Every call whose evaluation the run awaits, in the order they finished."""
    consecutive_no_gain: int
    """NO_GAIN evaluations in a row."""
    no_gain_threshold: int
    """When saturation stops the run."""
    violations: int
    """Protocol violations so far."""
    violation_limit: int
    """When violations stop the run."""
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
    payload_keys: list[str]
    """The names of its bodies in the vault."""


class ProgressSnapshot(_Response):
    """What the run verifiably observed so far."""

    verified_sources: list[Source]
    """Sources of verified evidence."""
    observed_facts: list[ObservedFact]
    """Verified facts."""
    limitations: list[str]
    """What the facts cannot say."""
    stop_reason: StopReason | None
    """Why evidence collection was stopped, if it was."""


class StatusChange(_Response):
    """The run entered ``status``."""

    status: ApplicationStatus
    """The new status."""
    at: str
    """When (ISO-8601)."""
    sequence: int
    """The event that moved it."""


class StatusTimeline(_Response):
    """Every ApplicationStatus change so far, in order (each status at most once)."""

    run_id: str
    """The run."""
    statuses: list[StatusChange]
    """The changes."""


class StreamTimeout(_Response):
    """The data of the event ``timeout``: the stream waited its longest and closed."""

    run_id: str
    """The run (not released yet: reconnect to go on waiting)."""
    waited_seconds: float
    """How long the stream waited."""


class StreamError(_Response):
    """The data of the event ``error``: the stream could not go on."""

    run_id: str
    """The run."""
    code: str
    """A facade code (``STORE_UNAVAILABLE``...)."""
