"""Over HTTP: a client that resends a tool call after a lost reply gets the same observation
(nothing runs again), other arguments under its id are refused, and calls sharing the ``step``
field are admitted together while the next step evaluates them all (a list)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import httpx

from tests.integration.http.serving import logs_call, start_run


def _call(client: httpx.Client, run_id: str, body: Mapping[str, object]) -> dict[str, object]:
    response = client.post(f"/runs/{run_id}/tool-calls", json=body)
    assert response.status_code == 200, response.text
    observation: dict[str, object] = response.json()
    return observation


def test_a_resent_call_gets_the_same_observation_and_runs_nothing(client: httpx.Client) -> None:
    run_id = start_run(client)
    body = {
        "tool_call_id": "r1",
        "tool_name": "query_logs",
        "arguments": logs_call("card-gateway", "GW-504"),
    }
    first = _call(client, run_id, body)
    assert first["status"] == "READY"
    before = client.get(f"/runs/{run_id}").json()
    respelled = json.dumps(json.loads(str(body["arguments"])), indent=1, sort_keys=True)
    again = _call(client, run_id, {**body, "arguments": respelled})
    assert again == first
    after = client.get(f"/runs/{run_id}").json()
    assert (after["tool_calls"], after["events"]) == (before["tool_calls"], before["events"])
    other = _call(
        client, run_id, {**body, "arguments": logs_call("card-gateway", "pool exhausted")}
    )
    assert other == {
        "tool_call_id": "r1",
        "status": "REFUSED",
        "error_code": "DUPLICATE_TOOL_CALL_ID",
    }


def test_calls_sharing_a_step_are_admitted_together(client: httpx.Client) -> None:
    run_id = start_run(client)
    for tool_call_id, query in (("p1", "GW-504"), ("p2", "pool exhausted")):
        body = {
            "tool_call_id": tool_call_id,
            "tool_name": "query_logs",
            "arguments": logs_call("card-gateway", query),
            "step": 1,
        }
        observation = _call(client, run_id, body)
        assert observation["status"] == "READY", observation
        assert observation["evidence_status"] == "EVIDENCE_FOUND"
    missing = _call(
        client,
        run_id,
        {
            "tool_call_id": "p3",
            "tool_name": "query_logs",
            "arguments": logs_call("payments-api", "timeout"),
            "step": 2,
        },
    )
    assert missing["violation_type"] == "MISSING_EVALUATION"
    assert missing["expected_tool_call_ids"] == ["p1", "p2"]
    evaluated = json.loads(logs_call("payments-api", "timeout"))
    evaluated["previous_observation"] = [
        {"tool_call_id": "p1", "evaluation": "GAINED"},
        {"tool_call_id": "p2", "evaluation": "NO_GAIN"},
    ]
    body = {
        "tool_call_id": "p4",
        "tool_name": "query_logs",
        "arguments": json.dumps(evaluated),
        "step": 2,
    }
    assert _call(client, run_id, body)["status"] == "READY"
    control = client.get(f"/runs/{run_id}/calls/p4/control").json()
    assert control["violations"] == 1
