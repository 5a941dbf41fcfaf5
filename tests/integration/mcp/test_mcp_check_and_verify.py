"""``check_draft`` and ``verify_run`` through the SDK's in-process client: a check answers the
issues and leaves the run running; verification names the run's head and bodies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.mcp import McpGateway, build_server
from factledger.adapters.mcp.server import stdio_session_key
from tests.integration.mcp.replay import call, payload
from tests.support.json_path import at

WINDOW = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}
LOOKUP = {"previous_observation": None, "input": {"query": "GW-504 pool exhausted"}}
CLAIM = "card-gateway fails with GW-504 because the acquirer connection pool is exhausted."


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[McpGateway]:
    harness = build_harness(demo_settings(tmp_path))
    yield McpGateway(harness, id_prefix="mcp-test")
    harness.close()


def test_a_draft_is_checked_then_released_and_the_run_verifies(gateway: McpGateway) -> None:
    async def scenario(client: Client) -> None:
        run_id = payload(await call(client, "start_run", dict(WINDOW)))["run_id"]
        observed = payload(await call(client, "lookup_knowledge", LOOKUP))
        cited = observed["tool_call_id"]
        wrong = {"conclusion": CLAIM, "analyses": [
            {"kind": "SUPPORTING_EVIDENCE", "claim": CLAIM, "tool_call_ids": ["mcp-test-9"]}
        ]}  # fmt: skip
        checked = await call(client, "check_draft", {"draft": wrong})
        assert not checked.is_error
        result = payload(checked)
        assert result["passed"] is False
        assert at(result, "validation_issues", 0, "reason") == "NOT_IN_RUN"
        assert gateway.harness.run_summary(str(run_id)).state.value == "RUNNING"
        invalid = await call(client, "check_draft", {"text": "x"})
        assert invalid.is_error
        assert payload(invalid)["error_code"] == "INVALID_ARGUMENTS"
        right = {"conclusion": CLAIM, "analyses": [
            {"kind": "SUPPORTING_EVIDENCE", "claim": CLAIM, "tool_call_ids": [cited]}
        ]}  # fmt: skip
        released = payload(await call(client, "release", {"draft": right}))
        assert released["outcome"] in {"SUCCESS", "FALLBACK"}
        after = await call(client, "check_draft", {"draft": right})
        assert after.is_error
        assert payload(after)["error_code"] == "ALREADY_RELEASED"
        verified = await call(client, "verify_run", {})
        assert not verified.is_error
        verdict = payload(verified)
        assert (verdict["ok"], verdict["run_id"]) == (True, run_id)
        assert verdict["bodies"] == {"verified": 4, "expired": 0}  # request, raw, result, release

    async def run() -> None:
        async with Client(build_server(gateway, stdio_session_key)) as client:
            await scenario(client)

    anyio.run(run)


def test_any_run_can_be_verified_by_its_id_and_an_unknown_one_is_refused(
    gateway: McpGateway,
) -> None:
    elsewhere = gateway.harness.start_run(question="q")

    async def scenario(client: Client) -> None:
        verdict = payload(await call(client, "verify_run", {"run_id": elsewhere}))
        assert (verdict["ok"], verdict["events"]) == (True, 1)
        unknown = await call(client, "verify_run", {"run_id": "run-unknown"})
        assert unknown.is_error
        assert payload(unknown)["error_code"] == "UNKNOWN_RUN"
        no_run = await call(client, "verify_run", {})
        assert payload(no_run)["error_code"] == "RUN_REQUIRED"

    async def run() -> None:
        async with Client(build_server(gateway, stdio_session_key)) as client:
            await scenario(client)

    anyio.run(run)
