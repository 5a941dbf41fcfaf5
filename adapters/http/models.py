"""The HTTP API's request and response bodies (strict pydantic; unknown fields are refused).

Requests are validated strictly: no coercion (``"3"`` is not a step), no unknown keys, text that
cannot be encoded as UTF-8 (lone surrogates) is refused at the edge. Responses are the facade's
typed results: each response model is derived from its result's fields (``shapes.py``) and the
body is the result's ``to_json()``; a view is metadata and digests, never a raw body.
"""

from __future__ import annotations

import json
from typing import Annotated, TypeVar

from attrs import frozen
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue

from factledger.adapters.http.shapes import response_model
from factledger.application.canonical_view import CanonicalView
from factledger.application.contracts.instant import Instant as ContractInstant
from factledger.application.observation import ObservationStatus
from factledger.application.progress_snapshot import ProgressSnapshot
from factledger.application.run_views import CancelResult, RunSummary
from factledger.application.statuses import StatusChange
from factledger.application.tools.registry import ToolFormat
from factledger.application.views import ControlView
from factledger.domain.json_shape import JsonRecord
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.policy import ViolationType
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = [
    "CancelResultModel",
    "CanonicalViewModel",
    "CheckRequest",
    "ControlViewModel",
    "Observation",
    "ProgressSnapshotModel",
    "ReleaseRequest",
    "ReleaseResultModel",
    "RunCreated",
    "RunCreatedModel",
    "RunSummaryModel",
    "StartRunRequest",
    "StatusChangeModel",
    "StatusTimeline",
    "StatusTimelineModel",
    "StreamError",
    "StreamTimeout",
    "ToolCallRequest",
    "ToolDefinitions",
    "ToolDefinitionsModel",
    "ToolsQuery",
    "reply",
]

_Reply = TypeVar("_Reply", bound=BaseModel)


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

Instant = Annotated[ContractInstant, Field(strict=False), BeforeValidator(_text_instant)]
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
    """A result's JSON as its response model (validated in strict JSON mode, keys as given)."""
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


class CheckRequest(_Request):
    """``POST /runs/{run_id}/check``: a draft to check without releasing it."""

    draft: Text
    """The draft exactly as the agent wrote it (a JSON string)."""


# -- responses ------------------------------------------------------------------------------


@frozen
class RunCreated(JsonRecord):
    """A run was started."""

    run_id: str
    """The new run's id."""


@frozen
class ToolDefinitions(JsonRecord):
    """The evidence tools a model may call in this run."""

    format: ToolFormat
    """``openai`` (strict-mode function tools) or ``mcp`` (MCP tool descriptions)."""
    tools: tuple[JsonObject, ...]
    """The definitions, in the chosen format."""


@frozen
class StatusTimeline(JsonRecord):
    """Every ApplicationStatus change so far, in order (each status at most once)."""

    run_id: str
    """The run."""
    statuses: tuple[StatusChange, ...]
    """The changes."""


class Observation(_Response):
    """The model observation of one call (one shape for every tool and transport); absent keys
    are absent, never null-filled. A READY observation also carries the tool's bounded content
    at the top level (``evidence`` and ``relevance_level`` for knowledge, ``patterns``,
    ``events`` and ``matched_count`` for logs, ``columns`` and ``rows`` for SQL, the declared
    keys of a team's own tool)."""

    model_config = ConfigDict(
        extra="allow", strict=True, frozen=True, use_attribute_docstrings=True
    )

    tool_call_id: str
    """The call."""
    status: ObservationStatus
    """READY (evidence), ERROR (the call began and failed) or REFUSED (nothing began)."""
    evidence_status: EvidenceStatus | None = None
    """READY: whether the result holds candidate evidence."""
    scope: JsonValue = None
    """READY: the actual scope searched."""
    truncated: bool | None = None
    """READY: whether the bounded content was cut."""
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
    violation_type: ViolationType | None = None
    """Control: which violation."""
    expected_tool_call_id: str | None = None
    """Control: the (first) call whose evaluation is expected."""
    expected_tool_call_ids: list[str] | None = None
    """Control, for a call with a step: every call whose evaluation is expected."""
    instruction: str | None = None
    """Control: how to repair."""
    checked_scope: JsonValue = None
    """Control: the scope that was already checked (a duplicate)."""


RunCreatedModel = response_model(RunCreated)
RunSummaryModel = response_model(RunSummary)
ToolDefinitionsModel = response_model(ToolDefinitions)
ReleaseResultModel = response_model(ReleaseResult)
CancelResultModel = response_model(CancelResult)
CanonicalViewModel = response_model(CanonicalView)
ControlViewModel = response_model(ControlView)
ProgressSnapshotModel = response_model(ProgressSnapshot)
StatusChangeModel = response_model(StatusChange)
StatusTimelineModel = response_model(StatusTimeline)


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
