"""Serving an app with a real uvicorn on a free loopback port, and driving it like an agent."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from fastapi import FastAPI

from factledger.adapters.demo.incident import transcript_path
from factledger.adapters.http.server import ServerPlan, uvicorn_config
from factledger.domain.json_types import JsonObject

__all__ = [
    "draft",
    "drive_calls",
    "logs_call",
    "planted_secrets",
    "serving",
    "start_run",
    "transcript",
]

_LOGS = transcript_path("honest").parent.parent / "logs"
_MARKERS = ("sk_live_", "password=", "Bearer eyJ", "postgresql://payments:")


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread until the block ends; yields its base URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn_config(app, ServerPlan("127.0.0.1", port, None), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


def planted_secrets() -> tuple[str, ...]:
    """The fake secrets planted in the demo logs: each marker, and the value that follows it."""
    text = "".join(
        (_LOGS / name).read_text(encoding="utf-8")
        for name in ("card-gateway.jsonl", "payments-api.jsonl")
    )
    values = []
    for marker in _MARKERS:
        start = text.index(marker) + len(marker)
        values.append(text[start : start + 12])
    return ("sk_live_", *values)


def transcript(scenario: str) -> JsonObject:
    """A bundled transcript."""
    loaded: JsonObject = json.loads(transcript_path(scenario).read_text(encoding="utf-8"))
    return loaded


def start_run(client: httpx.Client, scenario: str = "honest") -> str:
    """Start a run with a transcript's question and context; returns its id."""
    recorded = transcript(scenario)
    context = recorded["context"]
    assert isinstance(context, dict)
    response = client.post("/runs", json={"question": recorded["question"], **context})
    assert response.status_code == 201, response.text
    run_id = response.json()["run_id"]
    assert isinstance(run_id, str)
    return run_id


def drive_calls(client: httpx.Client, run_id: str, scenario: str = "honest") -> list[JsonObject]:
    """Send a transcript's tool calls as the model would; returns the observations."""
    observations: list[JsonObject] = []
    turns = transcript(scenario)["turns"]
    assert isinstance(turns, list)
    for turn in turns:
        assert isinstance(turn, dict)
        call = turn.get("tool_call")
        if not isinstance(call, dict):
            continue
        arguments = call["arguments"]
        body = {
            "tool_call_id": call["id"],
            "tool_name": call["name"],
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
        }
        response = client.post(f"/runs/{run_id}/tool-calls", json=body)
        assert response.status_code == 200, response.text
        observations.append(response.json())
    return observations


def draft(scenario: str = "honest") -> str:
    """A transcript's draft as the agent would send it."""
    turns = transcript(scenario)["turns"]
    assert isinstance(turns, list)
    for turn in turns:
        if isinstance(turn, dict) and "draft" in turn:
            return json.dumps(turn["draft"])
    raise LookupError(scenario)


def logs_call(service: str, query: str, previous: str | None = None) -> str:
    """The arguments of a query_logs call over the incident's hour (``previous``: the call
    evaluated as GAINED)."""
    return json.dumps(
        {
            "previous_observation": None
            if previous is None
            else {"tool_call_id": previous, "evaluation": "GAINED"},
            "input": {
                "service": service,
                "query": query,
                "start": "2026-03-14T09:00:00Z",
                "end": "2026-03-14T10:00:00Z",
                "limit": None,
            },
        }
    )
