"""How the server picks a call's run and answers what it cannot serve, through the SDK's
in-process client (the same handlers the stdio and HTTP transports serve)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.mcp import McpGateway, ToolReply, build_server
from factledger.adapters.mcp.server import stdio_session_key
from tests.integration.mcp.replay import call, payload

Scenario = Callable[[Client], Awaitable[None]]
WINDOW = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}
LOOKUP = {"previous_observation": None, "input": {"query": "GW-504"}}


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[McpGateway]:
    harness = build_harness(demo_settings(tmp_path))
    yield McpGateway(harness, id_prefix="mcp-test")
    harness.close()


def _drive(gateway: McpGateway, scenario: Scenario) -> None:
    async def run() -> None:
        async with Client(build_server(gateway, stdio_session_key)) as client:
            await scenario(client)

    anyio.run(run)


def test_generated_tool_call_ids_count_up_under_the_server_prefix(gateway: McpGateway) -> None:
    async def scenario(client: Client) -> None:
        await call(client, "start_run", dict(WINDOW))
        first = payload(await call(client, "lookup_knowledge", LOOKUP))
        evaluated = {"tool_call_id": first["tool_call_id"], "evaluation": "NO_GAIN"}
        second = payload(
            await call(
                client,
                "lookup_knowledge",
                {"previous_observation": evaluated, "input": {"query": "pool exhausted"}},
            )
        )
        assert (first["tool_call_id"], second["tool_call_id"]) == ("mcp-test-1", "mcp-test-2")

    _drive(gateway, scenario)


def test_a_meta_run_that_differs_from_the_session_run_is_a_conflict(gateway: McpGateway) -> None:
    other = gateway.harness.start_run(service="ledger")

    async def scenario(client: Client) -> None:
        await call(client, "start_run", dict(WINDOW))
        result = await call(client, "lookup_knowledge", LOOKUP, run_id=other)
        assert result.is_error
        assert payload(result)["error_code"] == "RUN_CONFLICT"

    _drive(gateway, scenario)


def test_a_meta_run_drives_a_run_started_elsewhere_and_an_unknown_one_is_refused(
    gateway: McpGateway,
) -> None:
    elsewhere = gateway.harness.start_run(question="q")

    async def scenario(client: Client) -> None:
        observation = payload(await call(client, "lookup_knowledge", LOOKUP, run_id=elsewhere))
        assert observation["status"] == "READY"
        assert gateway.harness.run_summary(elsewhere).tool_calls == 1

        unknown = await call(client, "lookup_knowledge", LOOKUP, run_id="run-unknown")
        assert unknown.is_error
        assert payload(unknown)["error_code"] == "UNKNOWN_RUN"  # one rule for every call
        release = await call(client, "release", {"draft": None}, run_id="run-unknown")
        assert release.is_error
        assert payload(release)["error_code"] == "UNKNOWN_RUN"

    _drive(gateway, scenario)


def test_bad_start_run_and_release_arguments_are_tool_errors_naming_the_fields(
    gateway: McpGateway,
) -> None:
    async def scenario(client: Client) -> None:
        naive = await call(client, "start_run", {**WINDOW, "start": "2026-03-14T09:00:00"})
        assert payload(naive) == {
            "error_code": "INVALID_ARGUMENTS",
            "message": "'start_run' arguments are invalid: start",
        }
        backwards = await call(client, "start_run", {**WINDOW, "end": "2026-03-14T08:00:00Z"})
        assert payload(backwards)["error_code"] == "INVALID_INPUT"
        await call(client, "start_run", dict(WINDOW))
        missing = await call(client, "release", {"conclusion": "guessed"})
        assert missing.is_error
        assert payload(missing)["error_code"] == "INVALID_ARGUMENTS"

    _drive(gateway, scenario)


def test_releasing_without_a_draft_falls_back_and_releasing_again_returns_the_same_result(
    gateway: McpGateway,
) -> None:
    async def scenario(client: Client) -> None:
        await call(client, "start_run", dict(WINDOW))
        await call(client, "lookup_knowledge", LOOKUP)
        first = payload(await call(client, "release", {"draft": None}))
        assert first["outcome"] == "FALLBACK"
        assert first["published_result"] is None
        again = await call(client, "release", {"draft": "{not json"})
        assert not again.is_error
        assert payload(again) == first

    _drive(gateway, scenario)


def test_an_unexpected_failure_is_a_tool_error_with_a_code_and_no_exception_text(
    gateway: McpGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*_: object, **__: object) -> ToolReply:
        raise RuntimeError("SELECT secret FROM vault")

    monkeypatch.setattr(gateway, "call", explode)

    async def scenario(client: Client) -> None:
        result = await call(client, "lookup_knowledge", LOOKUP)
        assert result.is_error
        error = payload(result)
        assert error["error_code"] == "INTERNAL_ERROR"
        assert "secret" not in str(error)

    _drive(gateway, scenario)
