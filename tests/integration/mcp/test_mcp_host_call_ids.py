"""A host that names its calls (a string JSON-RPC id, as hosts relaying a model's tool call
do) gets its name back as the observation's tool_call_id, the id the draft cites: spoken to
``factledger mcp --demo`` over stdio as raw JSON-RPC lines, as such a host does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration

SERVE = [sys.executable, "-m", "factledger.adapters.cli.main", "mcp", "--demo"]
WINDOW = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": "2026-03-14T10:00:00Z"}


class Host:
    """One stdio server and the lines it answers."""

    def __init__(self, workdir: Path) -> None:
        self.process = subprocess.Popen(
            SERVE,
            cwd=workdir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def answer(self, request_id: object) -> dict[str, Any]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            if message.get("id") == request_id:
                return dict(message)
        raise AssertionError(f"no answer to {request_id!r}")

    def call(self, request_id: object, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": name, "arguments": arguments},
            }
        )
        return self.answer(request_id)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _structured(answer: dict[str, Any]) -> dict[str, Any]:
    content = answer["result"]["structuredContent"]
    assert isinstance(content, dict)
    return content


def test_a_string_request_id_is_kept_as_the_tool_call_id_and_a_number_is_not(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path)
    try:
        host.send(
            {
                "jsonrpc": "2.0",
                "id": "init",
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "a-host", "version": "1"},
                },
            }
        )
        assert "result" in host.answer("init")
        host.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert "run_id" in _structured(host.call(1, "start_run", dict(WINDOW)))
        first = {"previous_observation": None, "input": {"query": "GW-504"}}
        named = _structured(host.call("toolu_01ABC", "lookup_knowledge", first))
        evaluated = {"tool_call_id": "toolu_01ABC", "evaluation": "NO_GAIN"}
        second = {"previous_observation": evaluated, "input": {"query": "pool exhausted"}}
        counted = _structured(host.call(7, "lookup_knowledge", second))
    finally:
        host.close()

    assert named["tool_call_id"] == "toolu_01ABC"
    assert named["status"] == "READY"
    assert counted["tool_call_id"] != "7"
    assert str(counted["tool_call_id"]).startswith("mcp-")
    assert counted["status"] == "READY"
