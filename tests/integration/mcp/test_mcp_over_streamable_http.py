"""``factledger mcp --demo --transport http`` on a free loopback port, driven by the SDK's own
client: a 2026-07-28 client (no session: the run rides in ``_meta``) and a handshake-era client
(the run is the session's)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from factledger.adapters.cli.main import main
from factledger.adapters.demo.incident import transcript_path
from tests.integration.mcp.replay import (
    EVIDENCE_TOOLS,
    call,
    payload,
    replay_honest,
    request_meta,
)
from tests.support.processes import free_port, port_open, wait_until

Scenario = Callable[[Client], Awaitable[None]]
WINDOW = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}
TOKEN_ENV = "FACTLEDGER_TEST_MCP_TOKEN"
SERVE = [sys.executable, "-m", "factledger.adapters.cli.main", "mcp", "--transport", "http"]


@contextlib.contextmanager
def _serve(workdir: Path, args: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """A server subprocess on a free loopback port; yields its URL, stops it by pid at the end."""
    port = free_port()
    process = subprocess.Popen(
        [*SERVE, "--bind", f"127.0.0.1:{port}", *args],
        cwd=workdir,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )
    try:
        wait_until(
            lambda: port_open("127.0.0.1", port) or process.poll() is not None, 30, "the server"
        )
        assert process.poll() is None, "the MCP server exited at start-up"
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with _serve(tmp_path_factory.mktemp("mcp-http"), ["--demo"]) as url:
        yield url


def _drive(client: Client, scenario: Scenario) -> None:
    async def run() -> None:
        async with client:
            await scenario(client)

    anyio.run(run)


def test_a_sessionless_client_lists_the_tools_and_gets_success_naming_the_run_in_meta(
    demo_url: str,
) -> None:
    async def scenario(client: Client) -> None:
        listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {
            *EVIDENCE_TOOLS,
            "start_run",
            "check_draft",
            "release",
            "verify_run",
        }
        assert all(tool.input_schema.get("properties") for tool in listed.tools)
        release, observations = await replay_honest(client, run_in_meta=True)
        assert release["outcome"] == "SUCCESS", release
        assert [o["status"] for o in observations] == ["READY"] * 5

    _drive(Client(demo_url, read_timeout_seconds=30), scenario)


def test_a_generic_sessionless_host_drives_a_whole_run_without_meta(demo_url: str) -> None:
    async def scenario(client: Client) -> None:
        release, observations = await replay_honest(client, run_in_meta=False)
        assert release["outcome"] == "SUCCESS", release
        assert [o["status"] for o in observations] == ["READY"] * 5

    _drive(Client(demo_url, read_timeout_seconds=30), scenario)


def test_a_handshake_session_cannot_use_a_run_another_session_started(demo_url: str) -> None:
    started: list[str] = []

    async def owner(client: Client) -> None:
        started.append(str(payload(await call(client, "start_run", dict(WINDOW)))["run_id"]))

    async def intruder(client: Client) -> None:
        lookup = {"previous_observation": None, "input": {"query": "GW-504"}}
        result = await call(client, "lookup_knowledge", lookup, run_id=started[0])
        assert result.is_error
        assert payload(result)["error_code"] == "UNKNOWN_RUN"
        released = await call(client, "release", {"draft": None}, run_id=started[0])
        assert payload(released)["error_code"] == "UNKNOWN_RUN"

    _drive(Client(demo_url, mode="legacy", read_timeout_seconds=30), owner)
    _drive(Client(demo_url, mode="legacy", read_timeout_seconds=30), intruder)


def test_a_handshake_client_drives_a_whole_run_through_its_session(demo_url: str) -> None:
    async def scenario(client: Client) -> None:
        release, _ = await replay_honest(client, run_in_meta=False)
        assert release["outcome"] == "SUCCESS", release

    _drive(Client(demo_url, mode="legacy", read_timeout_seconds=30), scenario)


def test_a_tool_call_id_from_meta_is_used_and_a_malformed_envelope_is_refused(
    demo_url: str,
) -> None:
    async def scenario(client: Client) -> None:
        run_id = str(payload(await call(client, "start_run", dict(WINDOW)))["run_id"])
        arguments = {"previous_observation": None, "input": {"query": "GW-504"}}
        meta = request_meta(run_id, "agent-call-7")
        observation = payload(await client.call_tool("lookup_knowledge", arguments, meta=meta))
        assert observation["tool_call_id"] == "agent-call-7"
        assert observation["status"] == "READY"

        malformed = {"previous_observation": None, "input": {"query": 42}}
        refused = await client.call_tool("lookup_knowledge", malformed, meta=request_meta(run_id))
        assert refused.is_error
        assert payload(refused)["error_code"] == "INVALID_ENVELOPE"

        evaluated = {"tool_call_id": "agent-call-7", "evaluation": "GAINED"}
        reused = {"previous_observation": evaluated, "input": {"query": "pool exhausted"}}
        again = await client.call_tool("lookup_knowledge", reused, meta=meta)
        assert payload(again)["error_code"] == "DUPLICATE_TOOL_CALL_ID"

    _drive(Client(demo_url, read_timeout_seconds=30), scenario)


def test_a_configured_bearer_token_is_required_on_every_request(tmp_path: Path) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text(f'[store]\nkind = "memory"\n\n[http]\ntoken_env = "{TOKEN_ENV}"\n')
    with _serve(tmp_path, ["--config", str(config)], {TOKEN_ENV: "s3cret-token"}) as url:

        async def probe(token: str) -> int:
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx2.AsyncClient(headers=headers) as http:
                response = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                return response.status_code

        assert anyio.run(probe, "wrong") == 401

        async def listed(client: Client) -> None:
            tools = await client.list_tools()
            assert {tool.name for tool in tools.tools} >= {"start_run", "release"}

        async def authorised() -> None:
            headers = {"Authorization": "Bearer s3cret-token"}
            async with httpx2.AsyncClient(headers=headers) as http:
                transport = streamable_http_client(url, http_client=http)
                async with Client(transport, read_timeout_seconds=30) as client:
                    await listed(client)

        anyio.run(authorised)


def test_the_server_refuses_a_non_loopback_address_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FACTLEDGER_CONFIG", raising=False)
    assert main(["mcp", "--transport", "http", "--bind", "0.0.0.0:8788"]) == 2
    assert "bearer token" in capsys.readouterr().err


def test_allowed_hosts_adds_host_names_and_any_other_is_421(tmp_path: Path) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text('[store]\nkind = "memory"\n\n[http]\nallowed_hosts = ["mcp.internal"]\n')
    with _serve(tmp_path, ["--config", str(config)]) as url:

        async def probe(host: str) -> int:
            headers = {"Host": host, "Accept": "application/json, text/event-stream"}
            async with httpx2.AsyncClient() as http:
                ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
                response = await http.post(url, json=ping, headers=headers)
                return response.status_code

        port = url.rsplit(":", 1)[1].split("/")[0]
        assert anyio.run(probe, f"rebind.attacker.example:{port}") == 421
        assert anyio.run(probe, f"mcp.internal:{port}") != 421
        assert anyio.run(probe, f"127.0.0.1:{port}") != 421


def test_sessionless_callers_are_bound_by_their_token_and_own_their_runs(tmp_path: Path) -> None:
    config = tmp_path / "factledger.toml"
    knowledge = transcript_path("honest").parent.parent / "knowledge"
    config.write_text(
        f'[store]\nkind = "memory"\n\n[knowledge]\ndir = "{knowledge.as_posix()}"\n\n'
        f'[http]\ntoken_env = "{TOKEN_ENV}"\n'
    )
    environment = {TOKEN_ENV: "team-a-token,team-b-token"}
    started: list[str] = []
    lookup = {"previous_observation": None, "input": {"query": "GW-504"}}

    async def as_team(token: str, scenario: Scenario) -> None:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, read_timeout_seconds=30) as client:
                await scenario(client)

    async def team_a(client: Client) -> None:
        run = payload(await call(client, "start_run", dict(WINDOW)))
        assert run["session_bound"] is True
        started.append(str(run["run_id"]))
        observation = payload(await call(client, "lookup_knowledge", lookup))  # no _meta
        assert observation["status"] == "READY"

    async def team_b(client: Client) -> None:
        result = await call(client, "lookup_knowledge", lookup, run_id=started[0])
        assert payload(result)["error_code"] == "UNKNOWN_RUN"
        assert payload(await call(client, "lookup_knowledge", lookup))["error_code"] == (
            "RUN_REQUIRED"
        )

    with _serve(tmp_path, ["--config", str(config)], environment) as url:
        anyio.run(as_team, "team-a-token", team_a)
        anyio.run(as_team, "team-b-token", team_b)


def test_a_run_is_its_tokens_on_another_server_over_the_same_store_and_after_a_restart(
    tmp_path: Path,
) -> None:
    config = tmp_path / "factledger.toml"
    knowledge = transcript_path("honest").parent.parent / "knowledge"
    store = tmp_path / "store.db"
    config.write_text(
        f'[store]\nkind = "sqlite"\npath = "{store.as_posix()}"\n\n'
        f'[knowledge]\ndir = "{knowledge.as_posix()}"\n\n[http]\ntoken_env = "{TOKEN_ENV}"\n'
    )
    environment = {TOKEN_ENV: "team-a-token,team-b-token"}
    started: list[str] = []
    answers: list[str] = []
    lookup = {"previous_observation": None, "input": {"query": "GW-504"}}

    async def as_team(url: str, token: str, scenario: Scenario) -> None:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, read_timeout_seconds=30) as client:
                await scenario(client)

    async def team_a_starts(client: Client) -> None:
        started.append(str(payload(await call(client, "start_run", dict(WINDOW)))["run_id"]))

    async def names_the_run(client: Client) -> None:
        result = payload(await call(client, "lookup_knowledge", lookup, run_id=started[0]))
        # Any answer but UNKNOWN_RUN means the run was let in (a second lookup of the same
        # query is a protocol violation: the first one's evidence is not evaluated).
        answers.append("UNKNOWN_RUN" if result.get("error_code") == "UNKNOWN_RUN" else "USABLE")

    args = ["--config", str(config)]
    with (
        _serve(tmp_path, args, environment) as first,
        _serve(tmp_path, args, environment) as second,
    ):
        anyio.run(as_team, first, "team-a-token", team_a_starts)
        anyio.run(as_team, second, "team-b-token", names_the_run)
        anyio.run(as_team, second, "team-a-token", names_the_run)
    with _serve(tmp_path, args, environment) as restarted:
        anyio.run(as_team, restarted, "team-b-token", names_the_run)
        anyio.run(as_team, restarted, "team-a-token", names_the_run)

    assert answers == ["UNKNOWN_RUN", "USABLE", "UNKNOWN_RUN", "USABLE"]
    assert b"team-a-token" not in store.read_bytes()
