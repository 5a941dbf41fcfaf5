"""What an MCP ``tools/call`` does, without any MCP types: the server's transport-free core.

Each call names its run, either through the session (a run started with ``start_run`` in
this session) or through the call's ``_meta`` (``factledger/run_id``), in that order; a call
that names no run, or whose session run and ``_meta`` run differ, is answered with a tool
error carrying a stable code. MCP has no tool_call_id, so each evidence call gets a fresh one
(``mcp-<server>-<n>``) unless its ``_meta`` brings one (``factledger/tool_call_id``); the
observation carries it, and the draft cites it.
"""

from __future__ import annotations

import itertools
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Final, Literal

from attrs import frozen
from pydantic import ValidationError

from factledger.adapters.mcp.control_tools import (
    CONTROL_TOOLS,
    RELEASE,
    START_RUN,
    ReleaseArguments,
    StartRunArguments,
    control_definitions,
)
from factledger.application.harness import Harness, HarnessError
from factledger.domain.json_types import JsonObject

__all__ = [
    "META_RUN_ID",
    "META_TOOL_CALL_ID",
    "GatewayErrorCode",
    "McpGateway",
    "ToolReply",
]

META_RUN_ID: Final = "factledger/run_id"
"""The ``_meta`` key naming the run a call belongs to."""

META_TOOL_CALL_ID: Final = "factledger/tool_call_id"
"""The ``_meta`` key carrying the caller's own tool_call_id for an evidence call."""

GatewayErrorCode = Literal["RUN_REQUIRED", "RUN_CONFLICT", "INVALID_META", "INVALID_ARGUMENTS"]
"""Codes of the calls the gateway answers itself (the harness's codes pass through as they are:
``UNKNOWN_RUN``, ``INVALID_INPUT``, ``STORE_UNAVAILABLE``…; ``INTERNAL_ERROR`` comes from the
server when something unexpected happened)."""

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

    def __init__(self, harness: Harness, *, id_prefix: str | None = None) -> None:
        self._harness = harness
        clashes = set(CONTROL_TOOLS) & set(harness.tool_names)
        if clashes:
            raise ValueError(f"evidence tools may not be named {sorted(clashes)!r}")
        self._prefix = id_prefix if id_prefix is not None else f"mcp-{secrets.token_hex(3)}"
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._session_runs: OrderedDict[str, str] = OrderedDict()

    @property
    def harness(self) -> Harness:
        """The harness every call goes through."""
        return self._harness

    def tool_definitions(self) -> list[JsonObject]:
        """The evidence tools' MCP definitions, then ``start_run`` and ``release`` (only those
        two when the harness has no evidence tool: the server says so when it starts)."""
        if not self._harness.tool_names:
            return control_definitions()
        return [*self._harness.tool_definitions(fmt="mcp"), *control_definitions()]

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
    ) -> ToolReply:
        """One ``tools/call``: ``session`` is the caller's session key (None when the transport
        keeps no session), ``meta`` the request's ``_meta``."""
        try:
            if name == START_RUN:
                return self._start_run(arguments, session)
            run_id = self._run_id(session, meta)
            if isinstance(run_id, ToolReply):
                return run_id
            if name == RELEASE:
                return self._release(run_id, arguments)
            return self._observe(run_id, name, arguments, meta)
        except HarnessError as refused:
            return _error(refused.code.value, refused.message)

    # -- the three kinds of call ----------------------------------------------------------

    def _start_run(self, arguments: Mapping[str, object] | None, session: str | None) -> ToolReply:
        try:
            parsed = StartRunArguments.model_validate(arguments or {})
        except ValidationError as invalid:
            return _error("INVALID_ARGUMENTS", _fields_message(START_RUN, invalid))
        run_id = self._harness.start_run(
            question=parsed.question, service=parsed.service, start=parsed.start, end=parsed.end
        )
        if session is not None:
            self._remember(session, run_id)
        return ToolReply({"run_id": run_id, "session_bound": session is not None}, False)

    def _release(self, run_id: str, arguments: Mapping[str, object] | None) -> ToolReply:
        try:
            parsed = ReleaseArguments.model_validate(arguments or {})
        except ValidationError as invalid:
            return _error("INVALID_ARGUMENTS", _fields_message(RELEASE, invalid))
        result = self._harness.release(run_id, parsed.draft_json())
        return ToolReply(result.to_json(), is_error=False)

    def _observe(
        self,
        run_id: str,
        name: str,
        arguments: Mapping[str, object] | None,
        meta: Mapping[str, object] | None,
    ) -> ToolReply:
        tool_call_id = self._tool_call_id(meta)
        if isinstance(tool_call_id, ToolReply):
            return tool_call_id
        arguments_json = json.dumps({} if arguments is None else dict(arguments))
        observation = self._harness.observe(run_id, tool_call_id, name, arguments_json)
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
            return from_meta
        return _error(
            "RUN_REQUIRED",
            f"no run: call {START_RUN!r} in this session first, or send the run id in the "
            f"call's _meta as {META_RUN_ID!r}",
        )

    def _tool_call_id(self, meta: Mapping[str, object] | None) -> str | ToolReply:
        given = None if meta is None else meta.get(META_TOOL_CALL_ID)
        if given is None:
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


def _fields_message(tool: str, invalid: ValidationError) -> str:
    """Which argument fields are wrong, never the values sent."""
    fields = sorted(
        {
            ".".join(str(part) for part in error["loc"]) or "(arguments)"
            for error in invalid.errors()
        }
    )
    return f"{tool!r} arguments are invalid: {', '.join(fields)}"
