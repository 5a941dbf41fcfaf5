"""Driving the MCP server with the SDK's own client: one call's JSON, and the honest agent's
transcript replayed through MCP with the cited ids rewritten to the ids the calls got."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client
from mcp_types import CallToolResult, RequestParamsMeta, TextContent

from factledger.adapters.demo.incident import transcript_path
from factledger.adapters.mcp import META_RUN_ID, META_TOOL_CALL_ID
from factledger.domain.json_types import JsonObject, JsonValue

EVIDENCE_TOOLS = {"lookup_knowledge", "query_logs", "query_sql", "query_metrics"}


def payload(result: CallToolResult) -> JsonObject:
    """The JSON object of a tool result (its text block), checked against the structured copy."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    loaded = json.loads(block.text)
    assert isinstance(loaded, dict)
    assert result.structured_content == loaded
    return loaded


def honest_transcript() -> JsonObject:
    """The recorded honest agent."""
    loaded = json.loads(transcript_path("honest").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def request_meta(run_id: str | None = None, tool_call_id: str | None = None) -> RequestParamsMeta:
    """A call's ``_meta`` naming its run and, when given, its tool_call_id."""
    meta: RequestParamsMeta = {}
    # RequestParamsMeta is an open TypedDict (PEP 728 extra_items), which mypy does not model.
    if run_id is not None:
        meta[META_RUN_ID] = run_id  # type: ignore[typeddict-unknown-key]
    if tool_call_id is not None:
        meta[META_TOOL_CALL_ID] = tool_call_id  # type: ignore[typeddict-unknown-key]
    return meta


async def call(
    client: Client, name: str, arguments: dict[str, Any], run_id: str | None = None
) -> CallToolResult:
    """A ``tools/call``, naming the run in ``_meta`` when ``run_id`` is given."""
    meta = None if run_id is None else request_meta(run_id)
    return await client.call_tool(name, arguments, meta=meta)


def _rewrite(value: JsonValue, ids: dict[str, str]) -> JsonValue:
    """Every recorded tool_call_id in ``value`` replaced by the id its MCP call got."""
    if isinstance(value, dict):
        rewritten: dict[str, JsonValue] = {}
        for key, item in value.items():
            if key == "tool_call_id" and isinstance(item, str):
                rewritten[key] = ids[item]
            elif key == "tool_call_ids" and isinstance(item, list):
                rewritten[key] = [ids[str(cited)] for cited in item]
            else:
                rewritten[key] = _rewrite(item, ids)
        return rewritten
    if isinstance(value, list):
        return [_rewrite(item, ids) for item in value]
    return value


async def replay_honest(
    client: Client, *, run_in_meta: bool
) -> tuple[JsonObject, list[JsonObject]]:
    """Start a run, replay the honest agent's calls, release its draft: (release, observations).

    ``run_in_meta`` names the run in every call's ``_meta`` (for clients without a session).
    """
    transcript = honest_transcript()
    context = transcript["context"]
    assert isinstance(context, dict)
    started = payload(
        await call(client, "start_run", {"question": transcript["question"], **context})
    )
    run_id = started["run_id"]
    assert isinstance(run_id, str)
    meta_run = run_id if run_in_meta else None
    ids: dict[str, str] = {}
    observations: list[JsonObject] = []
    draft: JsonValue = None
    turns = transcript["turns"]
    assert isinstance(turns, list)
    for turn in turns:
        assert isinstance(turn, dict)
        if "draft" in turn:
            draft = _rewrite(turn["draft"], ids)
            continue
        recorded = turn["tool_call"]
        assert isinstance(recorded, dict)
        arguments = _rewrite(recorded["arguments"], ids)
        assert isinstance(arguments, dict)
        result = await call(client, str(recorded["name"]), arguments, meta_run)
        observation = payload(result)
        assert not result.is_error, observation
        tool_call_id = observation["tool_call_id"]
        assert isinstance(tool_call_id, str)
        ids[str(recorded["id"])] = tool_call_id
        observations.append(observation)
    release = payload(await call(client, "release", {"draft": draft}, meta_run))
    assert release["run_id"] == run_id
    return release, observations
