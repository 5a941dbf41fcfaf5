"""What the server tells a host about its tools and how it answers what it does not serve,
through the SDK's in-process client: annotations, an output schema that every structured
content validates against, an unknown tool as a JSON-RPC error, and runs owned by the session
that started them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.mcp import McpGateway, build_server
from factledger.adapters.mcp.server import stdio_session_key
from tests.integration.mcp.replay import EVIDENCE_TOOLS, call, payload, replay_honest

Scenario = Callable[[Client], Awaitable[None]]
WINDOW = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}
LOOKUP = {"previous_observation": None, "input": {"query": "GW-504"}}


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[McpGateway]:
    harness = build_harness(demo_settings(tmp_path))
    yield McpGateway(harness, id_prefix="mcp-test")
    harness.close()


def _drive(gateway: McpGateway, scenario: Scenario, session: str = "stdio") -> None:
    async def run() -> None:
        server = build_server(gateway, lambda _ctx: session)
        async with Client(server) as client:
            await scenario(client)

    anyio.run(run)


def test_every_tool_is_annotated_closed_world_and_evidence_tools_read_only(
    gateway: McpGateway,
) -> None:
    async def scenario(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name, tool in tools.items():
            assert tool.annotations is not None, name
            assert tool.annotations.open_world_hint is False, name
            assert tool.annotations.destructive_hint is False, name
        for name in (*EVIDENCE_TOOLS, "check_draft", "verify_run"):
            assert tools[name].annotations.read_only_hint is True, name  # type: ignore[union-attr]
        for name in ("start_run", "release"):
            assert tools[name].annotations.read_only_hint is False, name  # type: ignore[union-attr]

    _drive(gateway, scenario)


def test_every_structured_content_validates_against_its_tool_output_schema(
    gateway: McpGateway,
) -> None:
    answers: list[tuple[str, CallToolResult]] = []

    async def scenario(client: Client) -> None:
        schemas: dict[str, Any] = {
            tool.name: tool.output_schema for tool in (await client.list_tools()).tools
        }
        assert all(schema and schema["type"] == "object" for schema in schemas.values())
        release, _ = await replay_honest(client, run_in_meta=False)
        assert release["outcome"] == "SUCCESS"
        answers.append(("verify_run", await call(client, "verify_run", {})))
        answers.append(("check_draft", await call(client, "check_draft", {"draft": "{}"})))
        answers.append(("start_run", await call(client, "start_run", dict(WINDOW))))
        answers.append(("lookup_knowledge", await call(client, "lookup_knowledge", LOOKUP)))
        malformed = {"previous_observation": None, "input": {"query": 42}}
        answers.append(("lookup_knowledge", await call(client, "lookup_knowledge", malformed)))
        answers.append(("release", await call(client, "release", {"draft": None})))
        answers.append(("release", await call(client, "release", {"wrong": 1})))
        for name, result in answers:
            jsonschema.validate(payload(result), schemas[name])
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"unexpected": True}, schemas["start_run"])

    _drive(gateway, scenario)
    assert {name for name, _ in answers} == {
        "verify_run",
        "check_draft",
        "start_run",
        "lookup_knowledge",
        "release",
    }


def test_an_unknown_tool_is_a_protocol_error_not_a_tool_result(gateway: McpGateway) -> None:
    async def scenario(client: Client) -> None:
        await call(client, "start_run", dict(WINDOW))
        with pytest.raises(MCPError) as raised:
            await call(client, "delete_everything", {"input": {}})
        assert raised.value.code == INVALID_PARAMS
        assert "delete_everything" not in raised.value.message

    _drive(gateway, scenario)


def test_a_run_is_usable_only_by_the_session_that_started_it(gateway: McpGateway) -> None:
    started: list[str] = []

    async def owner(client: Client) -> None:
        started.append(str(payload(await call(client, "start_run", dict(WINDOW)))["run_id"]))

    async def intruder(client: Client) -> None:
        run_id = started[0]
        for name, arguments in (
            ("lookup_knowledge", LOOKUP),
            ("release", {"draft": None}),
            ("check_draft", {"draft": "{}"}),
        ):
            result = await call(client, name, arguments, run_id=run_id)
            assert result.is_error, name
            assert payload(result)["error_code"] == "UNKNOWN_RUN", name
        verified = await call(client, "verify_run", {"run_id": run_id})
        assert payload(verified)["error_code"] == "UNKNOWN_RUN"

    async def back(client: Client) -> None:
        result = await call(client, "lookup_knowledge", LOOKUP, run_id=started[0])
        assert payload(result)["status"] == "READY"

    _drive(gateway, owner, session="http:session-a")
    _drive(gateway, intruder, session="http:session-b")
    _drive(gateway, back, session="http:session-a")
    assert gateway.harness.run_summary(started[0]).state.value == "RUNNING"


def test_the_stdio_process_is_one_session(gateway: McpGateway) -> None:
    async def scenario(client: Client) -> None:
        await call(client, "start_run", dict(WINDOW))
        assert payload(await call(client, "lookup_knowledge", LOOKUP))["status"] == "READY"

    async def run() -> None:
        async with Client(build_server(gateway, stdio_session_key)) as client:
            await scenario(client)

    anyio.run(run)
