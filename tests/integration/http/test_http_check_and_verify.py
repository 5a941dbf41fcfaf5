"""``POST /runs/{id}/check`` and ``GET /runs/{id}/verification`` over a real uvicorn."""

from __future__ import annotations

import json

import httpx

from tests.integration.http.serving import draft, drive_calls, start_run


def _hallucinated() -> str:
    honest = json.loads(draft())
    honest["analyses"][0]["tool_call_ids"] = ["call-77"]
    return json.dumps(honest)


def test_a_check_answers_the_issues_and_publishes_nothing(client: httpx.Client) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    checked = client.post(f"/runs/{run_id}/check", json={"draft": _hallucinated()})
    assert checked.status_code == 200, checked.text
    body = checked.json()
    assert (body["passed"], body["attempt"], body["failure_stage"]) == (
        False,
        1,
        "EVIDENCE_VALIDATION",
    )
    assert body["validation_issues"][0] == {
        "code": "UNKNOWN_TOOL_CALL",
        "tool_call_id": "call-77",
        "analysis_index": 0,
        "reason": "NOT_IN_RUN",
        "token": None,
    }
    assert client.get(f"/runs/{run_id}").json()["state"] == "RUNNING"
    honest = client.post(f"/runs/{run_id}/check", json={"draft": draft()}).json()
    assert (honest["passed"], honest["attempt"], honest["attempts_left"]) == (True, 2, 1)
    released = client.post(f"/runs/{run_id}/release", json={"draft": draft()}).json()
    assert released["outcome"] == "SUCCESS"
    after = client.post(f"/runs/{run_id}/check", json={"draft": draft()})
    assert after.status_code == 409
    assert after.json()["code"] == "ALREADY_RELEASED"


def test_checks_run_out(client: httpx.Client) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    for _ in range(3):
        assert client.post(f"/runs/{run_id}/check", json={"draft": "{"}).status_code == 200
    refused = client.post(f"/runs/{run_id}/check", json={"draft": draft()})
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "CHECK_LIMIT_REACHED"


def test_a_check_of_an_unknown_run_is_404(client: httpx.Client) -> None:
    missing = client.post("/runs/no-such-run/check", json={"draft": draft()})
    assert (missing.status_code, missing.json()["code"]) == (404, "UNKNOWN_RUN")


def test_the_verification_of_a_run_names_its_head_and_bodies(client: httpx.Client) -> None:
    run_id = start_run(client)
    drive_calls(client, run_id)
    verified = client.get(f"/runs/{run_id}/verification")
    assert verified.status_code == 200, verified.text
    body = verified.json()
    assert (body["ok"], body["first_bad_event"], body["problems"]) == (True, None, [])
    assert body["head"]["sequence"] == body["events"]
    assert body["bodies"] == {"verified": 15, "expired": 0}  # 5 calls: request, raw, result
    missing = client.get("/runs/no-such-run/verification")
    assert (missing.status_code, missing.json()["code"]) == (404, "UNKNOWN_RUN")
