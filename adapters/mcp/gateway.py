"""What an MCP ``tools/call`` does, without any MCP types: the server's transport-free core.

Each call names its run, either through the session (a run started with ``start_run`` in
this session) or through the call's ``_meta`` (``factledger/run_id``), in that order; a call
that names no run, or whose session run and ``_meta`` run differ, is answered with a tool
error carrying a stable code. MCP has no tool_call_id: an evidence call is cited by the one
its ``_meta`` brings (``factledger/tool_call_id``), else by the host's own JSON-RPC id when
that is a string that can be a tool_call_id (a host that names its calls, ``toolu_…``), else
by a fresh one (``mcp-<server>-<n>``; numeric request ids are counters, not names); the
observation carries it, and the draft cites it. A client that sends several calls of one model
turn names that turn in ``_meta`` as ``factledger/step`` (a non-negative integer): the calls of
one step are admitted together; without it every call is a step of its own.

A run is usable only by the principal that started it: ``start_run`` records the caller's
principal as the run's owner, and a run named in ``_meta`` or to ``verify_run`` goes through
the facade's ``require_access`` (``tokens_configured``: behind a token a run nobody owns is
refused too), answering ``UNKNOWN_RUN`` exactly as for a run that does not exist.
"""

from __future__ import annotations

import itertools
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Final, Literal, TypeVar

from attrs import frozen
from pydantic import BaseModel, ValidationError

from factledger.adapters.mcp.control_tools import (
    CHECK_DRAFT,
    CONTROL_TOOLS,
    RELEASE,
    START_RUN,
    VERIFY_RUN,
    CheckDraftArguments,
    ReleaseArguments,
    StartRunArguments,
    VerifyRunArguments,
    control_definitions,
)
from factledger.adapters.mcp.tool_contracts import annotations_of, output_schema_of
from factledger.application.harness import Harness, HarnessError
from factledger.application.run_access import Caller
from factledger.domain.ids import is_valid_tool_call_id
from factledger.domain.json_types import JsonObject

__all__ = [
    "META_RUN_ID",
    "META_STEP",
    "META_TOOL_CALL_ID",
    "GatewayErrorCode",
    "McpGateway",
    "ToolReply",
]

META_RUN_ID: Final = "factledger/run_id"
"""The ``_meta`` key naming the run a call belongs to."""

META_TOOL_CALL_ID: Final = "factledger/tool_call_id"
"""The ``_meta`` key carrying the caller's own tool_call_id for an evidence call."""

META_STEP: Final = "factledger/step"
"""The ``_meta`` key carrying the agent step (model turn) that made an evidence call."""

GatewayErrorCode = Literal["RUN_REQUIRED", "RUN_CONFLICT", "INVALID_META", "INVALID_ARGUMENTS"]
"""Codes of the calls the gateway answers itself (the harness's codes pass through as they are:
``UNKNOWN_RUN``, ``INVALID_INPUT``, ``STORE_UNAVAILABLE``…; ``INTERNAL_ERROR`` comes from the
server when something unexpected happened)."""

_Arguments = TypeVar("_Arguments", bound=BaseModel)

_MAX_SESSIONS = 4096


@frozen
class ToolReply:
    """What one tool call returns to the MCP client."""

    payload: JsonObject
    """The JSON object sent back: an observation, a release result,
    ``{"run_id", "session_bound"}``, or ``{"error_code", "message"}``."""
    is_error: bool
    """True for a tool error: no run, bad arguments, or an observation that is not READY."""


def _error(code: str, message: str) -> ToolReply:
    return ToolReply({"error_code": code, "message": message}, is_error=True)


class McpGateway:
    """Routes MCP tool calls to a ``Harness``; thread-safe (calls run on worker threads)."""

    def __init__(
        self, harness: Harness, *, id_prefix: str | None = None, tokens_configured: bool = False
    ) -> None:
        self._harness = harness
        clashes = set(CONTROL_TOOLS) & set(harness.tool_names)
        if clashes:
            raise ValueError(f"evidence tools may not be named {sorted(clashes)!r}")
        self._prefix = id_prefix if id_prefix is not None else f"mcp-{secrets.token_hex(3)}"
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._session_runs: OrderedDict[str, str] = OrderedDict()
        self._tokens = tokens_configured

    @property
    def harness(self) -> Harness:
        """The harness every call goes through."""
        return self._harness

    def tool_definitions(self) -> list[JsonObject]:
        """The evidence tools' MCP definitions, then the control tools (only
        those when the harness has no evidence tool: the server says so when it starts), each
        with its annotations and output schema."""
        evidence = self._harness.tool_definitions(fmt="mcp") if self._harness.tool_names else []
        return [
            {
                **definition,
                "annotations": annotations_of(str(definition["name"])),
                "outputSchema": output_schema_of(str(definition["name"])),
            }
            for definition in [*evidence, *control_definitions()]
        ]

    def serves(self, name: str) -> bool:
        """True for a tool this server lists."""
        return name in CONTROL_TOOLS or name in self._harness.tool_names

    def session_run(self, session: str) -> str | None:
        """The run started in a session, if any."""
        with self._lock:
            return self._session_runs.get(session)

    def call(
        self,
        name: str,
        arguments: Mapping[str, object] | None,
        *,
        session: str | None,
        meta: Mapping[str, object] | None,
        request_id: str | int | None = None,
    ) -> ToolReply:
        """One ``tools/call``: ``session`` is the caller's principal (its session, else its
        token, else None), ``meta`` the request's ``_meta``, ``request_id`` the host's JSON-RPC
        id of the call. A run another principal started (or, behind a token, a run nobody
        owns) is ``UNKNOWN_RUN``."""
        try:
            if name == START_RUN:
                return self._start_run(arguments, session)
            if name == VERIFY_RUN:
                return self._verify(arguments, session, meta)
            run_id = self._run_id(session, meta)
            if isinstance(run_id, ToolReply):
                return run_id
            if name == RELEASE:
                return self._release(run_id, arguments)
            if name == CHECK_DRAFT:
                return self._check(run_id, arguments)
            return self._observe(run_id, name, arguments, meta, request_id)
        except HarnessError as refused:
            return _error(refused.code.value, refused.message)

    # -- the kinds of call ----------------------------------------------------------

    def _start_run(self, arguments: Mapping[str, object] | None, session: str | None) -> ToolReply:
        parsed = _arguments(StartRunArguments, START_RUN, arguments)
        if isinstance(parsed, ToolReply):
            return parsed
        run_id = self._harness.start_run(
            question=parsed.question,
            service=parsed.service,
            start=parsed.start,
            end=parsed.end,
            principal=session,
        )
        if session is not None:
            self._remember(session, run_id)
        return ToolReply({"run_id": run_id, "session_bound": session is not None}, False)

    def _release(self, run_id: str, arguments: Mapping[str, object] | None) -> ToolReply:
        def release(parsed: ReleaseArguments) -> JsonObject:
            return self._harness.release(run_id, parsed.draft_json()).to_json()

        return _answer(ReleaseArguments, RELEASE, arguments, release)

    def _check(self, run_id: str, arguments: Mapping[str, object] | None) -> ToolReply:
        def check(parsed: CheckDraftArguments) -> JsonObject:
            return self._harness.check(run_id, parsed.draft_json()).to_json()

        return _answer(CheckDraftArguments, CHECK_DRAFT, arguments, check)

    def _verify(
        self,
        arguments: Mapping[str, object] | None,
        session: str | None,
        meta: Mapping[str, object] | None,
    ) -> ToolReply:
        parsed = _arguments(VerifyRunArguments, VERIFY_RUN, arguments)
        if isinstance(parsed, ToolReply):
            return parsed
        run_id = parsed.run_id if parsed.run_id is not None else self._run_id(session, meta)
        if isinstance(run_id, ToolReply):
            return run_id
        self._harness.require_access(run_id, Caller(session, self._tokens))
        verdict = self._harness.verify(run_id)
        return ToolReply(verdict.to_json(), is_error=not verdict.ok)

    def _observe(
        self,
        run_id: str,
        name: str,
        arguments: Mapping[str, object] | None,
        meta: Mapping[str, object] | None,
        request_id: str | int | None,
    ) -> ToolReply:
        tool_call_id = self._tool_call_id(meta, request_id)
        if isinstance(tool_call_id, ToolReply):
            return tool_call_id
        step = None if meta is None else meta.get(META_STEP)
        if step is not None and (type(step) is not int or step < 0):
            return _error("INVALID_META", f"_meta {META_STEP!r} must be a non-negative integer")
        arguments_json = json.dumps({} if arguments is None else dict(arguments))
        observation = self._harness.observe(run_id, tool_call_id, name, arguments_json, step=step)
        return ToolReply(observation.to_json(), is_error=not observation.is_ready)

    # -- run and call ids -----------------------------------------------------------------

    def _run_id(self, session: str | None, meta: Mapping[str, object] | None) -> str | ToolReply:
        from_session = None if session is None else self.session_run(session)
        from_meta = None if meta is None else meta.get(META_RUN_ID)
        if from_meta is not None and not isinstance(from_meta, str):
            return _error("INVALID_META", f"_meta {META_RUN_ID!r} must be a string")
        if from_session is not None:
            if from_meta is not None and from_meta != from_session:
                return _error(
                    "RUN_CONFLICT",
                    f"_meta {META_RUN_ID!r} names another run than the one this session started",
                )
            return from_session
        if from_meta is not None:
            self._harness.require_access(from_meta, Caller(session, self._tokens))
            return from_meta
        return _error(
            "RUN_REQUIRED",
            f"no run: call {START_RUN!r} in this session first, or send the run id in the "
            f"call's _meta as {META_RUN_ID!r}",
        )

    def _tool_call_id(
        self, meta: Mapping[str, object] | None, request_id: str | int | None
    ) -> str | ToolReply:
        given = None if meta is None else meta.get(META_TOOL_CALL_ID)
        if given is None:
            if isinstance(request_id, str) and is_valid_tool_call_id(request_id):
                return request_id  # the host named the call itself: cite it by that name
            return f"{self._prefix}-{next(self._counter)}"
        if not isinstance(given, str):
            return _error("INVALID_META", f"_meta {META_TOOL_CALL_ID!r} must be a string")
        return given

    def _remember(self, session: str, run_id: str) -> None:
        with self._lock:
            self._session_runs[session] = run_id
            self._session_runs.move_to_end(session)
            while len(self._session_runs) > _MAX_SESSIONS:
                self._session_runs.popitem(last=False)


def _arguments(
    model: type[_Arguments], tool: str, arguments: Mapping[str, object] | None
) -> _Arguments | ToolReply:
    """A control tool's arguments as its model, or ``INVALID_ARGUMENTS`` naming the wrong
    fields (never the values sent)."""
    try:
        return model.model_validate(arguments or {})
    except ValidationError as invalid:
        return _error("INVALID_ARGUMENTS", _fields_message(tool, invalid))


def _answer(
    model: type[_Arguments],
    tool: str,
    arguments: Mapping[str, object] | None,
    answer: Callable[[_Arguments], JsonObject],
) -> ToolReply:
    """A control tool whose every answer is a reply, never a tool error (a refused draft is
    an answer too): its arguments as its model, else ``INVALID_ARGUMENTS``."""
    parsed = _arguments(model, tool, arguments)
    if isinstance(parsed, ToolReply):
        return parsed
    return ToolReply(answer(parsed), is_error=False)


def _fields_message(tool: str, invalid: ValidationError) -> str:
    """Which argument fields are wrong, never the values sent."""
    fields = sorted(
        {
            ".".join(str(part) for part in error["loc"]) or "(arguments)"
            for error in invalid.errors()
        }
    )
    return f"{tool!r} arguments are invalid: {', '.join(fields)}"
