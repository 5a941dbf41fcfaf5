"""The ``/runs`` endpoints: one per facade operation, JSON in and out.

Each endpoint calls the ``Harness`` once (in the thread pool: the facade is synchronous) and
returns its JSON through a response model; a ``HarnessError`` becomes problem+json with its
code. A tool call always answers 200 with the model observation, refused or not: the
observation is the answer the model reads, the same through every transport.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from starlette.concurrency import run_in_threadpool

from factledger.adapters.http.events import EventStreamResponse, StreamLimits, status_events
from factledger.adapters.http.models import (
    CancelResult,
    CanonicalView,
    ControlView,
    Observation,
    ProgressSnapshot,
    ReleaseRequest,
    ReleaseResult,
    RunCreated,
    RunSummary,
    StartRunRequest,
    StatusTimeline,
    ToolCallRequest,
    ToolDefinitions,
    ToolsQuery,
    reply,
)
from factledger.application.harness import Harness
from factledger.domain.json_types import JsonValue

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
_EVENTS: Responses = {
    200: {
        "description": "Events `status` (one per ApplicationStatus change, `id` = its position), "
        "then one `released` with the release result; or one `timeout` or `error`.",
        "content": {"text/event-stream": {}},
    }
}


def runs_router(harness: Harness, limits: StreamLimits) -> APIRouter:
    """The ``/runs`` endpoints over ``harness``."""
    router = APIRouter(prefix="/runs", tags=["runs"])

    @router.post(
        "",
        status_code=201,
        response_model=RunCreated,
        responses={**_STORE, 422: {"description": "Invalid request or window (`INVALID_INPUT`)."}},
        summary="Start a run",
    )
    def start_run(request: StartRunRequest) -> RunCreated:
        """Start a run with every configured tool granted."""
        run_id = harness.start_run(
            question=request.question,
            service=request.service,
            start=request.start,
            end=request.end,
        )
        return RunCreated(run_id=run_id)

    @router.get(
        "/{run_id}", response_model=RunSummary, responses={**_RUN, **_STORE}, summary="A run"
    )
    def run_summary(run_id: RunId) -> RunSummary:
        """The run's state, context, budget use and release decision (metadata only)."""
        return reply(RunSummary, harness.run_summary(run_id))

    @router.get(
        "/{run_id}/tools",
        response_model=ToolDefinitions,
        responses={**_RUN, **_STORE},
        summary="The run's tool definitions",
    )
    def tool_definitions(run_id: RunId, query: Annotated[ToolsQuery, Query()]) -> ToolDefinitions:
        """The evidence tools' definitions, as OpenAI strict-mode tools or as MCP tools."""
        tools: list[JsonValue] = list(harness.tool_definitions(run_id, query.format))
        return reply(ToolDefinitions, {"format": query.format, "tools": tools})

    @router.post(
        "/{run_id}/tool-calls",
        response_model=Observation,
        response_model_exclude_unset=True,
        responses=_STORE,
        summary="Handle one tool call",
    )
    def call_tool(run_id: RunId, request: ToolCallRequest) -> Observation:
        """The model observation of one call: READY, ERROR or REFUSED (SPEC §6)."""
        observation = harness.observe(
            run_id, request.tool_call_id, request.tool_name, request.arguments, step=request.step
        )
        return reply(Observation, observation)

    @router.post(
        "/{run_id}/release",
        response_model=ReleaseResult,
        responses={**_RUN, **_STORE, **_STATE},
        summary="Release the run",
    )
    def release(run_id: RunId, request: ReleaseRequest) -> ReleaseResult:
        """Run the guards over the draft and publish; releasing again returns the first result."""
        return reply(ReleaseResult, harness.release(run_id, request.draft))

    @router.get(
        "/{run_id}/release",
        response_model=ReleaseResult,
        responses={**_RUN, **_STORE, **_STATE},
        summary="The recorded release result",
    )
    def released(run_id: RunId) -> ReleaseResult:
        """The release result of a released run (409 `RUN_NOT_ACTIVE` before the release)."""
        return reply(ReleaseResult, harness.released(run_id))

    @router.post(
        "/{run_id}/cancel",
        response_model=CancelResult,
        responses={**_RUN, **_STORE},
        summary="Cancel the run",
    )
    def cancel(run_id: RunId) -> CancelResult:
        """Cancel a running run; every worker sees it through the log."""
        return reply(CancelResult, harness.cancel(run_id))

    @router.get(
        "/{run_id}/calls/{tool_call_id}/canonical",
        response_model=CanonicalView,
        responses={**_CALL, **_STORE},
        summary="A call's canonical record",
    )
    def canonical_view(run_id: RunId, tool_call_id: ToolCallId) -> CanonicalView:
        """A call's canonical record as metadata and digests (never a body)."""
        return reply(CanonicalView, harness.canonical_view(run_id, tool_call_id))

    @router.get(
        "/{run_id}/calls/{tool_call_id}/control",
        response_model=ControlView,
        responses={**_CALL, **_STORE},
        summary="A call's control view",
    )
    def control_view(run_id: RunId, tool_call_id: ToolCallId) -> ControlView:
        """The harness's control view: bookkeeping and the projected agent_result, no raw body."""
        return reply(ControlView, harness.control_view(run_id, tool_call_id))

    @router.get(
        "/{run_id}/progress",
        response_model=ProgressSnapshot,
        responses={**_RUN, **_STORE},
        summary="The progress snapshot",
    )
    def progress(run_id: RunId) -> ProgressSnapshot:
        """What the run verifiably observed so far."""
        return reply(ProgressSnapshot, harness.progress_snapshot(run_id))

    @router.get(
        "/{run_id}/statuses",
        response_model=StatusTimeline,
        responses={**_RUN, **_STORE},
        summary="The status timeline",
    )
    def statuses(run_id: RunId) -> StatusTimeline:
        """Every ApplicationStatus change so far, in order."""
        changes: list[JsonValue] = list(harness.statuses(run_id))
        return reply(StatusTimeline, {"run_id": run_id, "statuses": changes})

    @router.get(
        "/{run_id}/events",
        response_class=EventStreamResponse,
        responses={**_EVENTS, **_RUN, **_STORE},
        summary="Status changes as server-sent events",
    )
    async def events(
        run_id: RunId,
        request: Request,
        last_event_id: Annotated[
            int,
            Header(
                alias="Last-Event-ID",
                ge=0,
                description="The `id` of the last event received: only later ones are sent.",
            ),
        ] = 0,
    ) -> EventStreamResponse:
        """Each ApplicationStatus change once, then one `released` event, then the end."""
        first = await run_in_threadpool(harness.statuses, run_id)
        stream = status_events(
            harness,
            run_id,
            first,
            already_sent=last_event_id,
            limits=limits,
            disconnected=request.is_disconnected,
        )
        return EventStreamResponse(
            stream, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    return router
