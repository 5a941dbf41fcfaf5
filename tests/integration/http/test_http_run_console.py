"""``GET /runs`` and the run console over a real uvicorn: pages by cursor, the outcome filter,
the console's token cookie, no asset from another host, and never a raw body on a page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from factledger import Settings, build_harness
from factledger.adapters.http import ApiOptions, create_app
from factledger.adapters.http.console_routes import CONSOLE_COOKIE
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from tests.integration.http.conftest import Served
from tests.integration.http.serving import (
    draft,
    drive_calls,
    planted_secrets,
    serving,
    start_run,
)
from tests.unit.facade.tools import EchoTool

SECRET = "sk_live_PLANTED0123456789abcdef"


@pytest.fixture(scope="module")
def runs(served: Served) -> dict[str, str]:
    """Three runs released over HTTP: SUCCESS, FALLBACK and one still running."""
    ids: dict[str, str] = {}
    with served.client() as client:
        for scenario in ("honest", "hallucinating"):
            run_id = start_run(client, scenario)
            drive_calls(client, run_id, scenario)
            released = client.post(f"/runs/{run_id}/release", json={"draft": draft(scenario)})
            assert released.status_code == 200, released.text
            ids[scenario] = run_id
        ids["running"] = start_run(client, "honest")
    return ids


def test_get_runs_lists_outcomes_and_pages_by_cursor(served: Served, runs: dict[str, str]) -> None:
    with served.client() as client:
        listed = client.get("/runs")
        assert listed.status_code == 200, listed.text
        rows = {row["run_id"]: row for row in listed.json()["runs"]}
        assert rows[runs["hallucinating"]]["outcome"] == "FALLBACK"
        assert rows[runs["hallucinating"]]["state"] == "SUCCESS"
        assert rows[runs["hallucinating"]]["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"
        assert rows[runs["honest"]]["outcome"] == "SUCCESS"
        assert rows[runs["running"]]["outcome"] is None
        seen, cursor = [], None
        for _ in range(5):
            params = {"limit": 1} | ({} if cursor is None else {"cursor": cursor})
            page = client.get("/runs", params=params).json()
            seen += [row["run_id"] for row in page["runs"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
        assert seen == [runs["running"], runs["hallucinating"], runs["honest"]]
        fallbacks = client.get("/runs", params={"outcome": "FALLBACK"}).json()["runs"]
        assert [row["run_id"] for row in fallbacks] == [runs["hallucinating"]]


@pytest.mark.parametrize(
    "params", [{"limit": 0}, {"limit": 201}, {"outcome": "SOMETIMES"}, {"colour": "red"}]
)
def test_get_runs_refuses_a_bad_query_with_problem_json(
    served: Served, params: dict[str, int | str]
) -> None:
    with served.client() as client:
        response = client.get("/runs", params=params)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")


def test_get_runs_needs_the_token(served: Served) -> None:
    with served.client(token="") as client:
        assert client.get("/runs").status_code == 401


def test_the_console_needs_the_token_and_keeps_it_in_a_cookie(
    served: Served, runs: dict[str, str]
) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as anonymous:
        refused = anonymous.get("/ui/")
        assert refused.status_code == 401
        assert "token" in refused.text
        assert anonymous.get("/ui/?token=wrong").status_code == 401
        signed_in = anonymous.get(f"/ui/?outcome=FALLBACK&token={served.token}")
        assert signed_in.status_code == 303
        assert signed_in.headers["location"] == "/ui/?outcome=FALLBACK"
        cookie = signed_in.headers["set-cookie"]
        assert CONSOLE_COOKIE in cookie
        assert "HttpOnly" in cookie
        assert "SameSite=strict" in cookie
        anonymous.cookies.set(CONSOLE_COOKIE, served.token)
        page = anonymous.get("/ui/", params={"outcome": "FALLBACK"})
    assert page.status_code == 200
    assert runs["hallucinating"] in page.text
    assert runs["honest"] not in page.text


def _console(served: Served) -> httpx.Client:
    client = httpx.Client(base_url=served.url, timeout=10)
    client.cookies.set(CONSOLE_COOKIE, served.token)
    return client


def test_a_run_page_shows_calls_scopes_citations_release_and_chain(
    served: Served, runs: dict[str, str]
) -> None:
    with _console(served) as client:
        honest = client.get(f"/ui/runs/{runs['honest']}")
        fallback = client.get(f"/ui/runs/{runs['hallucinating']}")
    assert honest.status_code == 200
    assert "SELECT" in honest.text  # the executed SQL from the call's scope
    assert "query_logs" in honest.text
    assert "GW-504" in honest.text
    assert "verifies" in honest.text
    assert "RELEASE_DECISION" in honest.text
    assert "UNKNOWN_TOOL_CALL: NOT_IN_RUN" in fallback.text
    assert "EVIDENCE_VALIDATION_FAILED" in fallback.text


def test_an_unknown_run_page_is_404(served: Served) -> None:
    with _console(served) as client:
        response = client.get("/ui/runs/run-none")
    assert response.status_code == 404
    assert "UNKNOWN_RUN" in response.text


def test_console_pages_load_nothing_from_another_host(served: Served, runs: dict[str, str]) -> None:
    with _console(served) as client:
        pages = [client.get("/ui/"), *(client.get(f"/ui/runs/{run}") for run in runs.values())]
    for page in pages:
        assert page.status_code == 200
        assert "<script" not in page.text
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page.text)
        assert "default-src 'none'" in page.headers["content-security-policy"]


def test_no_planted_secret_of_the_demo_logs_reaches_a_console_page(
    served: Served, runs: dict[str, str]
) -> None:
    with _console(served) as client:
        text = "".join(client.get(f"/ui/runs/{run}").text for run in runs.values())
    for secret in planted_secrets():
        assert secret not in text


class _LeakyTool(EchoTool):
    """Its raw result carries a secret its projection leaves out."""

    def run(self, request, timeout_seconds, /):  # type: ignore[no-untyped-def]  # EchoTool's signature
        result = super().run(request, timeout_seconds)
        raw = json.loads(result.unwrap())
        return type(result).from_value(json.dumps({**raw, "api_key": SECRET}))


@pytest.fixture
def leaky() -> Iterator[tuple[str, str]]:
    settings = Settings.model_validate({"store": {"kind": "memory"}})
    with build_harness(settings, tools=[_LeakyTool()]) as harness:
        start, end = datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)
        run_id = harness.start_run(question="q", service="s", start=start, end=end)
        arguments = json.dumps({"previous_observation": None, "input": {"text": "pool"}})
        assert harness.observe(run_id, "c1", "echo_evidence", arguments).is_ready
        draft_json = json.dumps(
            {
                "conclusion": "echoed pool",
                "analyses": [
                    {"kind": "SUPPORTING_EVIDENCE", "claim": "echoed pool", "tool_call_ids": ["c1"]}
                ],
            }
        )
        assert harness.release(run_id, draft_json).outcome == "SUCCESS"
        raw = harness.parts.vault.get_many([PayloadKey(run_id, "c1", PayloadPart.RAW)])
        assert SECRET.encode() in (raw.unwrap()[0] or b"")  # planted where the tool put it
        with serving(create_app(harness, ApiOptions())) as url:
            yield url, run_id


def test_a_secret_in_a_raw_result_is_on_no_console_page(leaky: tuple[str, str]) -> None:
    url, run_id = leaky
    with httpx.Client(base_url=url, timeout=10) as client:
        pages = [client.get("/ui/"), client.get(f"/ui/runs/{run_id}")]
    assert all(page.status_code == 200 for page in pages)
    assert "echo_evidence" in pages[1].text
    for page in pages:
        assert SECRET not in page.text
        assert "PLANTED" not in page.text
