"""The HTTP API over a real uvicorn: an honest run end to end, the views, auth, limits, errors."""

from __future__ import annotations

import json

import httpx
import pytest

from factledger.adapters.http import ApiOptions, create_app
from factledger.application.harness import Harness
from factledger.application.run_access import Caller
from factledger.application.run_views import RunSummary
from factledger.domain.budget import RunBudget
from factledger.domain.json_types import JsonObject
from tests.integration.http.conftest import Served
from tests.integration.http.serving import (
    draft,
    drive_calls,
    logs_call,
    planted_secrets,
    serving,
    start_run,
)

PROBLEM_JSON = "application/problem+json"
JSON = {"Content-Type": "application/json"}


def _problem(response: httpx.Response, status: int, code: str) -> JsonObject:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_JSON
    problem: JsonObject = response.json()
    assert problem["status"] == status
    assert problem["code"] == code
    assert problem["type"] == f"urn:factledger:problem:{code}"
    assert isinstance(problem["title"], str)
    assert isinstance(problem["detail"], str)
    return problem


def test_an_honest_agent_driven_over_http_is_released_as_success(client: httpx.Client) -> None:
    run_id = start_run(client)
    observations = drive_calls(client, run_id)
    assert [o["status"] for o in observations] == ["READY"] * 5
    assert [o["tool_call_id"] for o in observations] == [f"call-{n}" for n in range(1, 6)]

    released = client.post(f"/runs/{run_id}/release", json={"draft": draft()})

    assert released.status_code == 200, released.text
    result = released.json()
    assert result["outcome"] == "SUCCESS"
    assert result["run_state"] == "SUCCESS"
    assert result["fallback"] is None
    assert "GW-504" in result["published_result"]["conclusion"]
    kinds = {source["source_type"] for source in result["published_result"]["source_documents"]}
    assert kinds == {"lookup_knowledge", "query_logs", "query_sql", "query_metrics"}
    assert client.get(f"/runs/{run_id}/release").json() == result
    assert client.post(f"/runs/{run_id}/release", json={"draft": None}).json() == result
    summary = client.get(f"/runs/{run_id}").json()
    assert (summary["state"], summary["outcome"], summary["tool_calls"]) == (
        "SUCCESS",
        "SUCCESS",
        5,
    )


def test_an_observation_over_http_has_the_facade_shape_without_null_filled_keys(
    client: httpx.Client,
) -> None:
    run_id = start_run(client)
    refused = client.post(
        f"/runs/{run_id}/tool-calls",
        json={"tool_call_id": "call-1", "tool_name": "no_such_tool", "arguments": "{}"},
    ).json()
    assert refused == {"tool_call_id": "call-1", "status": "REFUSED", "error_code": "UNKNOWN_TOOL"}


def test_the_views_are_metadata_and_digests_never_a_raw_body(client: httpx.Client) -> None:
    run_id = start_run(client)
    observations = drive_calls(client, run_id)

    canonical = client.get(f"/runs/{run_id}/calls/call-2/canonical").json()
    control = client.get(f"/runs/{run_id}/calls/call-2/control").json()

    assert canonical["status"] == "READY"
    assert canonical["content"] == "AVAILABLE"
    assert len(canonical["request_digest"]) == len(canonical["raw_digest"]) == 64
    assert not {"request", "raw_response", "agent_result"} & set(canonical)
    assert not {"request", "raw_response"} & set(control)
    assert control["content"]["matched_count"] > 0
    assert control["remaining_budget"]["tool_calls"] == RunBudget().tool_calls - len(observations)
    snapshot = client.get(f"/runs/{run_id}/progress").json()
    assert {fact["tool_call_id"] for fact in snapshot["observed_facts"]} >= {"call-2"}
    statuses = client.get(f"/runs/{run_id}/statuses").json()["statuses"]
    assert [change["status"] for change in statuses] == [
        "RECEIVED",
        "DIAGNOSIS_RUNNING",
        "COLLECTING_EVIDENCE",
    ]


def test_the_tool_definitions_come_as_openai_or_mcp_tools(client: httpx.Client) -> None:
    run_id = start_run(client)

    openai = client.get(f"/runs/{run_id}/tools").json()
    mcp = client.get(f"/runs/{run_id}/tools", params={"format": "mcp"}).json()

    assert openai["format"] == "openai"
    assert {tool["function"]["name"] for tool in openai["tools"]} == {
        "lookup_knowledge",
        "query_logs",
        "query_sql",
        "query_metrics",
    }
    assert {tool["name"] for tool in mcp["tools"]} == {
        "lookup_knowledge",
        "query_logs",
        "query_sql",
        "query_metrics",
    }
    _problem(client.get(f"/runs/{run_id}/tools", params={"format": "xml"}), 422, "INVALID_REQUEST")
    _problem(client.get(f"/runs/{run_id}/tools", params={"fmt": "mcp"}), 422, "INVALID_REQUEST")


def test_a_cancelled_run_is_released_as_cancelled(client: httpx.Client) -> None:
    run_id = start_run(client)

    first = client.post(f"/runs/{run_id}/cancel").json()
    second = client.post(f"/runs/{run_id}/cancel").json()
    released = client.post(f"/runs/{run_id}/release", json={}).json()

    assert first == {"run_id": run_id, "state": "CANCELLED", "cancelled": True}
    assert second == {"run_id": run_id, "state": "CANCELLED", "cancelled": False}
    assert (released["outcome"], released["failure_code"]) == ("CANCELLED", "RUN_CANCELLED")


def test_an_unknown_run_or_call_is_404_problem_json(client: httpx.Client) -> None:
    run_id = start_run(client)

    _problem(client.get("/runs/no-such-run"), 404, "UNKNOWN_RUN")
    _problem(client.get("/runs/no-such-run/events"), 404, "UNKNOWN_RUN")
    _problem(client.post("/runs/no-such-run/release", json={"draft": None}), 404, "UNKNOWN_RUN")
    _problem(client.post("/runs/no-such-run/cancel"), 404, "UNKNOWN_RUN")
    call = {"tool_call_id": "c1", "tool_name": "lookup_knowledge", "arguments": "{}"}
    _problem(client.post("/runs/no-such-run/tool-calls", json=call), 404, "UNKNOWN_RUN")
    _problem(client.get("/runs/no-such-run/tools"), 404, "UNKNOWN_RUN")
    _problem(client.get("/runs/no-such-run/progress"), 404, "UNKNOWN_RUN")
    _problem(client.get("/runs/no-such-run/statuses"), 404, "UNKNOWN_RUN")
    _problem(client.get(f"/runs/{run_id}/calls/call-9/canonical"), 404, "UNKNOWN_TOOL_CALL")
    _problem(client.get("/no/such/path"), 404, "NOT_FOUND")
    _problem(client.delete(f"/runs/{run_id}"), 405, "METHOD_NOT_ALLOWED")


def test_the_release_of_a_run_not_yet_released_is_409_problem_json(client: httpx.Client) -> None:
    run_id = start_run(client)

    _problem(client.get(f"/runs/{run_id}/release"), 409, "RUN_NOT_ACTIVE")


def test_a_window_that_ends_before_it_starts_is_422_invalid_input(client: httpx.Client) -> None:
    body = {"service": "card-gateway", "start": "2026-03-14T10:00:00Z", "end": "2026-03-14T09:00Z"}

    _problem(client.post("/runs", json=body), 422, "INVALID_INPUT")


@pytest.mark.parametrize("instant", ["0", "1764406800", "1764406800.5", "-1", "2026", "now"])
def test_an_instant_that_is_no_iso_8601_date_time_is_422(
    client: httpx.Client, instant: str
) -> None:
    body = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": instant}

    _problem(client.post("/runs", json=body), 422, "INVALID_REQUEST")


@pytest.mark.parametrize(
    "instant", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00", "9999-12-31T23:30-00:31"]
)
def test_an_instant_outside_the_range_utc_can_hold_is_422_not_500(
    client: httpx.Client, instant: str
) -> None:
    """A valid ISO-8601 instant whose UTC form is past year 9999 or before year 1 (found by
    schemathesis): refused at the door, not an internal error when the run is recorded."""
    body = {"service": "card-gateway", "start": "2026-03-14T09:00:00Z", "end": instant}
    if instant.startswith("0001"):
        body = {"service": "card-gateway", "start": instant, "end": "2026-03-14T09:00:00Z"}

    _problem(client.post("/runs", json=body), 422, "INVALID_REQUEST")


def test_a_request_without_the_right_token_gets_401_problem_json(served: Served) -> None:
    with (
        served.client(token="") as anonymous,
        served.client(token=served.token + "x") as wrong,
    ):
        missing = _problem(anonymous.get("/runs/anything"), 401, "UNAUTHORIZED")
        _problem(wrong.get("/runs/anything"), 401, "UNAUTHORIZED")
        _problem(wrong.post("/runs", json={}), 401, "UNAUTHORIZED")
        basic = anonymous.get("/runs/anything", headers={"Authorization": f"Basic {served.token}"})
        _problem(basic, 401, "UNAUTHORIZED")
        assert anonymous.get("/runs/anything").headers["www-authenticate"] == "Bearer"
        assert served.token not in json.dumps(missing)
        spec = anonymous.get("/openapi.json")
    assert spec.status_code == 200
    assert "HTTPBearer" in spec.json()["components"]["securitySchemes"]


def test_a_body_over_the_limit_gets_413_problem_json(client: httpx.Client) -> None:
    run_id = start_run(client)
    oversize = json.dumps({"draft": "x" * (1024 * 1024)}).encode()

    def chunks() -> list[bytes]:
        return [oversize[i : i + 65536] for i in range(0, len(oversize), 65536)]

    _problem(client.post(f"/runs/{run_id}/release", content=oversize), 413, "REQUEST_TOO_LARGE")
    streamed = client.post(f"/runs/{run_id}/release", content=iter(chunks()))
    _problem(streamed, 413, "REQUEST_TOO_LARGE")
    assert client.get(f"/runs/{run_id}").json()["state"] == "RUNNING"


def test_a_validation_problem_names_the_field_but_never_echoes_the_input(
    client: httpx.Client,
) -> None:
    secret = planted_secrets()[1]
    wrong_type = client.post("/runs", json={"question": ["sk_live_" + secret]})
    unknown_key = client.post("/runs", json={"question": "q", f"sk_live_{secret}": 1})
    not_json = client.post("/runs", content=b'{"question": "sk_live_' + secret.encode())
    naive = client.post("/runs", json={"start": "2026-03-14T09:00:00", "service": "a"})

    not_text = client.post("/runs", content=b"\xea\xdb\xef1", headers=JSON)

    _problem(not_text, 400, "MALFORMED_BODY")
    problem = _problem(wrong_type, 422, "INVALID_REQUEST")
    assert problem["errors"] == [{"type": "string_type", "loc": ["body", "question"]}]
    for response in (wrong_type, unknown_key, not_json, naive):
        _problem(response, 422, "INVALID_REQUEST")
        assert "sk_live_" not in response.text
        assert secret not in response.text


def test_nothing_served_about_calls_that_read_the_secret_lines_carries_a_secret(
    client: httpx.Client,
) -> None:
    run_id = start_run(client)
    answers: list[httpx.Response] = []
    previous = None
    for tool_call_id, service, query in (
        ("s1", "card-gateway", "acquirer client configured"),
        ("s2", "card-gateway", "outbound headers"),
        ("s3", "payments-api", "database pool ready"),
    ):
        body = {
            "tool_call_id": tool_call_id,
            "tool_name": "query_logs",
            "arguments": logs_call(service, query, previous),
        }
        answers.append(client.post(f"/runs/{run_id}/tool-calls", json=body))
        answers.append(client.get(f"/runs/{run_id}/calls/{tool_call_id}/canonical"))
        answers.append(client.get(f"/runs/{run_id}/calls/{tool_call_id}/control"))
        previous = tool_call_id
    answers.append(client.get(f"/runs/{run_id}/progress"))
    answers.append(client.post(f"/runs/{run_id}/release", json={"draft": None}))

    assert all(answer.status_code == 200 for answer in answers)
    assert answers[0].json()["matched_count"] == 1
    assert "<SECRET>" in answers[0].text
    assert answers[-1].json()["outcome"] == "FALLBACK"
    for answer in answers:
        for secret in planted_secrets():
            assert secret not in answer.text, (answer.request.url, secret)


class BrokenHarness(Harness):
    """A harness whose access check and summary fail with an exception carrying content."""

    def require_access(self, run_id: str, caller: Caller) -> None:
        raise RuntimeError(f"backend said {planted_secrets()[1]}")

    def run_summary(self, run_id: str) -> RunSummary:
        raise RuntimeError(f"backend said {planted_secrets()[1]}")


def test_an_unexpected_failure_is_a_generic_500_problem_without_its_text(served: Served) -> None:
    broken = BrokenHarness(served.harness.parts)
    with (
        serving(create_app(broken, ApiOptions(token=served.token))) as url,
        served.client() as client,
    ):
        response = client.get(f"{url}/runs/any")

    problem = _problem(response, 500, "INTERNAL_ERROR")
    assert problem["detail"] == "The request could not be served."
    assert planted_secrets()[1] not in response.text
    assert "RuntimeError" not in response.text


def test_a_harness_without_evidence_tools_says_so_instead_of_an_empty_list(
    served: Served,
) -> None:
    from factledger.adapters.bootstrap import build_harness
    from factledger.adapters.config.sections import StoreSettings
    from factledger.adapters.config.settings import Settings

    with (
        build_harness(Settings(store=StoreSettings(kind="memory"))) as bare,
        serving(create_app(bare, ApiOptions(token=served.token))) as url,
        served.client() as client,
    ):
        run_id = client.post(f"{url}/runs", json={"service": "x"}).json()["run_id"]
        _problem(client.get(f"{url}/runs/{run_id}/tools"), 409, "NO_EVIDENCE_TOOLS")
