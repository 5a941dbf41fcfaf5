"""``factledger mcp --demo --transport stdio`` as a subprocess, driven by the SDK's own client."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from factledger.domain.json_types import JsonObject, JsonValue
from tests.integration.mcp.replay import EVIDENCE_TOOLS, call, payload, replay_honest

Scenario = Callable[[Client], Awaitable[None]]


def at_list(analysis: JsonObject) -> list[JsonValue]:
    """An analysis's cited tool_call_ids."""
    cited = analysis["tool_call_ids"]
    assert isinstance(cited, list)
    return cited


def _drive(workdir: Path, scenario: Scenario) -> None:
    """Spawn the server in ``workdir`` and run ``scenario`` against it, then let it exit."""
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "factledger.adapters.cli.main", "mcp", "--demo", "--transport", "stdio"],
        cwd=workdir,
    )

    async def main() -> None:
        async with Client(server, read_timeout_seconds=30) as client:
            await scenario(client)

    anyio.run(main)


def test_the_server_lists_the_evidence_tools_start_run_and_release_with_schemas(
    tmp_path: Path,
) -> None:
    async def scenario(client: Client) -> None:
        listed = await client.list_tools()
        tools = {tool.name: tool for tool in listed.tools}
        assert set(tools) == {*EVIDENCE_TOOLS, "start_run", "check_draft", "release", "verify_run"}
        for name in EVIDENCE_TOOLS:
            schema = tools[name].input_schema
            assert schema["type"] == "object"
            assert set(schema["properties"]) == {"previous_observation", "input"}
            assert schema["additionalProperties"] is False
            assert tools[name].description
        assert "draft" in tools["release"].input_schema["properties"]
        assert {"question", "service", "start", "end"} <= set(
            tools["start_run"].input_schema["properties"]
        )

    _drive(tmp_path, scenario)


def test_the_honest_agent_replayed_through_mcp_in_one_session_is_released_as_success(
    tmp_path: Path,
) -> None:
    async def scenario(client: Client) -> None:
        release, observations = await replay_honest(client, run_in_meta=False)
        assert [o["status"] for o in observations] == ["READY"] * 5
        ids = [str(o["tool_call_id"]) for o in observations]
        assert len(set(ids)) == 5
        assert all(str(i).startswith("mcp-") for i in ids)
        assert release["outcome"] == "SUCCESS", release
        published = release["published_result"]
        assert isinstance(published, dict)
        analyses = published["analyses"]
        assert isinstance(analyses, list)
        cited = sorted(str(i) for a in analyses if isinstance(a, dict) for i in at_list(a))
        assert cited == sorted(ids)

    _drive(tmp_path, scenario)
    assert (tmp_path / ".factledger" / "store.db").exists()


def test_a_call_without_a_run_is_a_tool_error_that_names_the_problem(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        for name in ("query_logs", "release"):
            result = await call(
                client, name, {"input": {}} if name != "release" else {"draft": None}
            )
            assert result.is_error
            error = payload(result)
            assert error["error_code"] == "RUN_REQUIRED"
            assert "start_run" in str(error["message"])
            assert "factledger/run_id" in str(error["message"])

    _drive(tmp_path, scenario)


def test_a_malformed_envelope_and_an_unknown_tool_are_refused_without_running(
    tmp_path: Path,
) -> None:
    async def scenario(client: Client) -> None:
        await call(
            client,
            "start_run",
            {
                "service": "card-gateway",
                "start": "2026-03-14T09:00:00Z",
                "end": "2026-03-14T10:00:00Z",
            },
        )
        malformed = await call(client, "query_logs", {"input": {"service": "card-gateway"}, "x": 1})
        assert malformed.is_error
        refused = payload(malformed)
        assert refused["status"] == "REFUSED"
        assert refused["error_code"] == "INVALID_ENVELOPE"
        assert str(refused["tool_call_id"]).startswith("mcp-")

        for unknown in ("delete_everything", "query_log"):  # a confusable name too
            with pytest.raises(MCPError) as raised:
                await call(client, unknown, {"input": {}})
            assert raised.value.code == INVALID_PARAMS

    _drive(tmp_path, scenario)
