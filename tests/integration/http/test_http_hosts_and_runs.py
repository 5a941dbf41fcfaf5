"""The ``Host`` allowlist against DNS rebinding, ``Location`` on 201, and 404 for an unknown
run on every route, over a real uvicorn."""

from __future__ import annotations

import re

import httpx
import pytest

from factledger.adapters.config.sections import HttpSettings
from factledger.adapters.http import ApiOptions, create_app
from factledger.adapters.http.hosts import host_name
from factledger.application.harness import Harness
from tests.integration.http.conftest import Served
from tests.integration.http.serving import serving, start_run

PROBLEM_JSON = "application/problem+json"
START = {"question": "why?", "service": "card-gateway"}


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8787", "127.0.0.1", "127.0.0.1:80", "[::1]", "[::1]:8787"]
)
def test_without_a_token_loopback_host_names_are_served(harness: Harness, host: str) -> None:
    with serving(create_app(harness)) as url:
        response = httpx.post(f"{url}/runs", json=START, headers={"Host": host}, timeout=10)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "host", ["rebind.attacker.example", "rebind.attacker.example:8787", "127.0.0.1.nip.io", "[::2]"]
)
def test_without_a_token_another_host_name_is_421_before_anything_runs(
    harness: Harness, host: str
) -> None:
    with serving(create_app(harness)) as url:
        started = httpx.post(f"{url}/runs", json=START, headers={"Host": host}, timeout=10)
        health = httpx.get(f"{url}/healthz", headers={"Host": host}, timeout=10)

    assert started.status_code == 421, started.text
    assert started.headers["content-type"] == PROBLEM_JSON
    assert started.json()["code"] == "MISDIRECTED_REQUEST"
    assert health.status_code == 421


def test_allowed_hosts_adds_names_and_narrows_a_token_server(served: Served) -> None:
    open_app = create_app(served.harness, ApiOptions(allowed_hosts=("factledger.internal",)))
    narrowed = create_app(
        served.harness, ApiOptions(token=served.token, allowed_hosts=("api.example",))
    )
    anyone = create_app(served.harness, ApiOptions(token=served.token))
    bearer = {"Authorization": f"Bearer {served.token}"}
    with serving(open_app) as one, serving(narrowed) as two, serving(anyone) as three:
        named = httpx.post(
            f"{one}/runs", json=START, headers={"Host": "FactLedger.Internal:8787"}, timeout=10
        )
        other = httpx.post(f"{two}/runs", json=START, headers={**bearer, "Host": "x.example"})
        listed = httpx.post(f"{two}/runs", json=START, headers={**bearer, "Host": "api.example"})
        free = httpx.post(f"{three}/runs", json=START, headers={**bearer, "Host": "x.example"})

    assert named.status_code == 201, named.text
    assert other.status_code == 421
    assert listed.status_code == 201
    assert free.status_code == 201


def test_the_setting_defaults_to_no_extra_host_and_refuses_a_url() -> None:
    assert HttpSettings().allowed_hosts == ()
    assert HttpSettings(allowed_hosts=["a.example", "[::1]"]).allowed_hosts == (
        "a.example",
        "[::1]",
    )
    with pytest.raises(ValueError, match="allowed_hosts"):
        HttpSettings(allowed_hosts=["http://a.example/"])


def test_host_names_are_read_without_their_port() -> None:
    assert host_name("LOCALHOST:80") == "localhost"
    assert host_name("[::1]:8787") == "::1"
    assert host_name("[::1]") == "::1"
    assert host_name("bad:port") is None
    assert host_name("[::1]x") is None
    assert host_name("") is None


def test_a_started_run_answers_201_with_its_location(client: httpx.Client) -> None:
    response = client.post("/runs", json=START)

    assert response.status_code == 201
    run_id = response.json()["run_id"]
    assert response.headers["location"] == f"/runs/{run_id}"
    assert client.get(response.headers["location"]).json()["run_id"] == run_id


def _run_routes(served: Served) -> list[tuple[str, str]]:
    document = create_app(served.harness, ApiOptions(token=served.token)).openapi()
    routes: list[tuple[str, str]] = []
    for path, operations in document["paths"].items():
        if "{run_id}" in path:
            concrete = path.replace("{run_id}", "no-such-run").replace("{tool_call_id}", "c-1")
            routes.extend((method.upper(), concrete) for method in operations)
    return routes


_BODIES = {
    "tool-calls": {"tool_call_id": "c-1", "tool_name": "query_logs", "arguments": "{}"},
    "release": {"draft": None},
    "check": {"draft": "{}"},
}


def test_an_unknown_run_is_404_on_every_route(served: Served, client: httpx.Client) -> None:
    routes = _run_routes(served)
    assert len(routes) >= 12
    for method, path in routes:
        body = _BODIES.get(path.rsplit("/", 1)[-1]) if method == "POST" else None
        response = client.request(method, path, json=body)
        assert response.status_code == 404, (method, path, response.text)
        assert response.json()["code"] == "UNKNOWN_RUN", (method, path)


def test_201_is_the_only_created_status_and_documents_location(served: Served) -> None:
    document = create_app(served.harness).openapi()
    created = [
        (path, method, operation["responses"]["201"])
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "201" in operation["responses"]
    ]
    assert created
    for _, _, response in created:
        assert "Location" in response["headers"]
    assert re.fullmatch(r"/runs", created[0][0])


def test_runs_started_with_start_run_helper_still_work(client: httpx.Client) -> None:
    run_id = start_run(client)
    assert client.get(f"/runs/{run_id}").status_code == 200


def test_a_run_is_usable_only_by_the_token_that_started_it(harness: Harness) -> None:
    options = ApiOptions(tokens=("team-a-token", "team-b-token"))
    with serving(create_app(harness, options)) as url:
        team_a = httpx.Client(
            base_url=url, headers={"Authorization": "Bearer team-a-token"}, timeout=10
        )
        team_b = httpx.Client(
            base_url=url, headers={"Authorization": "Bearer team-b-token"}, timeout=10
        )
        with team_a, team_b:
            run_id = start_run(team_a)
            call = {"tool_call_id": "c-1", "tool_name": "query_logs", "arguments": "{}"}
            refused = [
                team_b.get(f"/runs/{run_id}"),
                team_b.post(f"/runs/{run_id}/tool-calls", json=call),
                team_b.post(f"/runs/{run_id}/release", json={"draft": None}),
                team_b.post(f"/runs/{run_id}/cancel"),
                team_b.get(f"/runs/{run_id}/events"),
            ]
            owned = team_a.get(f"/runs/{run_id}")
            wrong = httpx.get(
                f"{url}/runs/{run_id}", headers={"Authorization": "Bearer nobody"}, timeout=10
            )

    for response in refused:
        assert response.status_code == 404, response.text
        assert response.json()["code"] == "UNKNOWN_RUN"
    assert owned.status_code == 200
    assert owned.json()["state"] == "RUNNING"
    assert wrong.status_code == 401


def test_several_tokens_come_from_one_variable() -> None:
    from factledger.adapters.http.auth import TokenError, tokens_from_env

    assert tokens_from_env("T", {"T": "a-1,b-2"}) == ("a-1", "b-2")
    assert tokens_from_env(None, {}) == ()
    with pytest.raises(TokenError):
        tokens_from_env("T", {"T": "a-1,,b-2"})
    with pytest.raises(TokenError):
        tokens_from_env("T", {"T": "a-1, b-2"})
