"""The ``/runs`` endpoints: one per facade operation, JSON in and out.

Each endpoint calls the ``Harness`` once (in the thread pool: the facade is synchronous) and
returns its typed result's JSON through the response model derived from that result; a
``HarnessError`` becomes problem+json with its code. A tool call in a run that exists answers
200 with the model observation, refused or not: the observation is the answer the model reads,
the same through every transport. A run id no run has is 404 ``UNKNOWN_RUN`` everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from attrs import field, frozen
from fastapi import APIRouter, Header, Path, Query, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from factledger.adapters.http.access import RunAccess
from factledger.adapters.http.events import EventStreamResponse, StreamLimits, status_events
from factledger.adapters.http.models import (
    CancelResultModel,
    CanonicalViewModel,
    ControlViewModel,
    Observation,
    ProgressSnapshotModel,
    ReleaseRequest,
    ReleaseResultModel,
    RunCreatedModel,
    RunSummaryModel,
    StartRunRequest,
    StatusTimeline,
    StatusTimelineModel,
    ToolCallRequest,
    ToolDefinitions,
    ToolDefinitionsModel,
    ToolsQuery,
    reply,
)
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonObject

__all__ = ["runs_router"]

RunId = Annotated[str, Path(description="The run's id.")]
ToolCallId = Annotated[str, Path(description="The call's id in this run.")]

Responses = dict[int | str, dict[str, Any]]
"""Documented responses of an operation (FastAPI's shape)."""

_RUN: Responses = {404: {"description": "No run with this id (`UNKNOWN_RUN`)."}}
_STORE: Responses = {503: {"description": "The store could not be used (`STORE_UNAVAILABLE`)."}}
_CALL: Responses = {
    404: {"description": "No such run (`UNKNOWN_RUN`) or call (`UNKNOWN_TOOL_CALL`)."}
}
_STATE: Responses = {
    409: {"description": "The run is not in a state for this (`RUN_NOT_ACTIVE`...)."}
}
_NO_TOOLS: Responses = {
    409: {"description": "The harness has no evidence tool (`NO_EVIDENCE_TOOLS`)."}
}
_EVENTS: Responses = {
    200: {
        "description": "Events `status` (one per ApplicationStatus change) and `call` (one per "
        "tool-call transition), `id` = the position in the run's timeline; then one "
        "`released` with the release result; or one `timeout` or `error`.",
        "content": {"text/event-stream": {}},
    }
}


def runs_router(harness: Harness, limits: StreamLimits, access: RunAccess) -> APIRouter:
    """The ``/runs`` endpoints over ``harness``; ``access`` knows who each request is."""
    router = APIRouter(prefix="/runs", tags=["runs"])
    _run_endpoints(router, harness, access)
    _call_endpoints(router, harness)
    _view_endpoints(router, harness)
    _event_endpoints(router, harness, limits)
    return router


_CREATED: Responses = {
    201: {
        "description": "The run was started; `Location` is its URL.",
        "headers": {"Location": {"description": "`/runs/{run_id}`", "schema": {"type": "string"}}},
    }
}


def _run_endpoints(router: APIRouter, harness: Harness, access: RunAccess) -> None:
    @router.post(
        "",
        status_code=201,
        response_model=RunCreatedModel,
        responses={
            **_CREATED,
            **_STORE,
            422: {"description": "Invalid request or window (`INVALID_INPUT`)."},
        },
        summary="Start a run",
    )
    def start_run(request: StartRunRequest, response: Response, http: Request) -> BaseModel:
        """Start a run with every configured tool granted."""
        run_id = harness.start_run(
            question=request.question,
            service=request.service,
            start=request.start,
            end=request.end,
            principal=access.caller(http).principal,
        )
        response.headers["Location"] = f"/runs/{run_id}"
        return reply(RunCreatedModel, {"run_id": run_id})

    _add_read(router, harness, _RUN_SUMMARY)

    @router.get(
        "/{run_id}/tools",
        response_model=ToolDefinitionsModel,
        responses={**_RUN, **_STORE, **_NO_TOOLS},
        summary="The run's tool definitions",
    )
    def tool_definitions(run_id: RunId, query: Annotated[ToolsQuery, Query()]) -> BaseModel:
        """The evidence tools' definitions, as OpenAI strict-mode tools or as MCP tools."""
        tools = tuple(harness.tool_definitions(run_id, query.format))
        return reply(ToolDefinitionsModel, ToolDefinitions(query.format, tools).to_json())


def _call_endpoints(router: APIRouter, harness: Harness) -> None:
    @router.post(
        "/{run_id}/tool-calls",
        response_model=Observation,
        response_model_exclude_unset=True,
        responses={**_RUN, **_STORE},
        summary="Handle one tool call",
    )
    def call_tool(run_id: RunId, request: ToolCallRequest) -> Observation:
        """The model observation of one call: READY, ERROR or REFUSED."""
        observation = harness.observe(
            run_id, request.tool_call_id, request.tool_name, request.arguments, step=request.step
        )
        return reply(Observation, observation.to_json())

    @router.post(
        "/{run_id}/release",
        response_model=ReleaseResultModel,
        responses={**_RUN, **_STORE, **_STATE},
        summary="Release the run",
    )
    def release(run_id: RunId, request: ReleaseRequest) -> BaseModel:
        """Run the guards over the draft and publish; releasing again returns the first result."""
        return reply(ReleaseResultModel, harness.release(run_id, request.draft).to_json())

    _add_read(router, harness, _RELEASED)

    @router.post(
        "/{run_id}/cancel",
        response_model=CancelResultModel,
        responses={**_RUN, **_STORE},
        summary="Cancel the run",
    )
    def cancel(run_id: RunId) -> BaseModel:
        """Cancel a running run; every worker sees it through the log."""
        return reply(CancelResultModel, harness.cancel(run_id).to_json())


@frozen
class _Read:
    """A GET answering one typed result through its response model (a row of the table)."""

    name: str
    """The operation's name (its OpenAPI id is derived from it)."""
    path: str
    """Below ``/runs``: with ``{tool_call_id}``, a call's view."""
    model: type[BaseModel]
    summary: str
    description: str
    read: Callable[..., JsonObject]
    """The facade call on (harness, run id[, call id]), as the result's JSON."""
    responses: Responses = field(factory=lambda: {**_RUN, **_STORE})


_RUN_SUMMARY = _Read(
    "run_summary",
    "/{run_id}",
    RunSummaryModel,
    "A run",
    "The run's state, context, budget use and release decision (metadata only).",
    lambda harness, run_id: harness.run_summary(run_id).to_json(),
)
_RELEASED = _Read(
    "released",
    "/{run_id}/release",
    ReleaseResultModel,
    "The recorded release result",
    "The release result of a released run (409 `RUN_NOT_ACTIVE` before the release).",
    lambda harness, run_id: harness.released(run_id).to_json(),
    {**_RUN, **_STORE, **_STATE},
)
_VIEWS = (
    _Read(
        "canonical_view",
        "/{run_id}/calls/{tool_call_id}/canonical",
        CanonicalViewModel,
        "A call's canonical record",
        "A call's canonical record as metadata and digests (never a body).",
        lambda harness, run_id, call: harness.canonical_view(run_id, call).to_json(),
        {**_CALL, **_STORE},
    ),
    _Read(
        "control_view",
        "/{run_id}/calls/{tool_call_id}/control",
        ControlViewModel,
        "A call's control view",
        "The harness's control view: bookkeeping and the projected agent_result, no raw body.",
        lambda harness, run_id, call: harness.control_view(run_id, call).to_json(),
        {**_CALL, **_STORE},
    ),
    _Read(
        "progress",
        "/{run_id}/progress",
        ProgressSnapshotModel,
        "The progress snapshot",
        "What the run verifiably observed so far.",
        lambda harness, run_id: harness.progress_snapshot(run_id).to_json(),
    ),
    _Read(
        "statuses",
        "/{run_id}/statuses",
        StatusTimelineModel,
        "The status timeline",
        "Every ApplicationStatus change so far, in order.",
        lambda harness, run_id: StatusTimeline(run_id, harness.statuses(run_id)).to_json(),
    ),
)


def _add_read(router: APIRouter, harness: Harness, read: _Read) -> None:
    def run_read(run_id: RunId) -> BaseModel:
        return reply(read.model, read.read(harness, run_id))

    def call_read(run_id: RunId, tool_call_id: ToolCallId) -> BaseModel:
        return reply(read.model, read.read(harness, run_id, tool_call_id))

    router.add_api_route(
        read.path,
        call_read if "{tool_call_id}" in read.path else run_read,
        methods=["GET"],
        name=read.name,
        response_model=read.model,
        responses=read.responses,
        summary=read.summary,
        description=read.description,
    )


def _view_endpoints(router: APIRouter, harness: Harness) -> None:
    for view in _VIEWS:
        _add_read(router, harness, view)


def _event_endpoints(router: APIRouter, harness: Harness, limits: StreamLimits) -> None:
    @router.get(
        "/{run_id}/events",
        response_class=EventStreamResponse,
        responses={**_EVENTS, **_RUN, **_STORE},
        summary="Status changes and call transitions as server-sent events",
    )
    async def events(
        run_id: RunId,
        request: Request,
        last_event_id: Annotated[
            str,
            Header(
                alias="Last-Event-ID",
                pattern=r"^[0-9]{1,18}$",
                description=(
                    "The `id` of the last event received, as sent (decimal digits): only later "
                    "ones are sent."
                ),
            ),
        ] = "0",
    ) -> EventStreamResponse:
        """Each status change and call transition once, then one `released` event, then the
        end."""
        first = await run_in_threadpool(harness.timeline, run_id)
        stream = status_events(
            harness,
            run_id,
            first,
            already_sent=int(last_event_id),
            limits=limits,
            disconnected=request.is_disconnected,
        )
        return EventStreamResponse(
            stream, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
