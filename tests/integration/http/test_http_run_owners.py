"""Run ownership recorded in the run's own log, over real uvicorn servers: two apps (two
processes' worth of harnesses) on one SQLite file, and a new app on the same file after a
restart, all apply the same rule. A token never reaches the stored bytes, the audit rows or
the logs."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http import ApiOptions, create_app
from factledger.application.harness import Harness
from factledger.application.run_access import owner_digest, token_principal
from tests.integration.http.serving import draft, drive_calls, serving, start_run

ONE = f"one-{secrets.token_urlsafe(24)}"
TWO = f"two-{secrets.token_urlsafe(24)}"
OPTIONS = ApiOptions(tokens=(ONE, TWO), events_max_wait_seconds=5.0, events_poll_seconds=0.05)


def _harness(workdir: Path) -> Harness:
    return build_harness(
        demo_settings(workdir, StoreSettings(kind="sqlite", path=str(workdir / "store.db")))
    )


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def two_harnesses(workdir: Path) -> Iterator[tuple[Harness, Harness]]:
    """Two harnesses on one SQLite file, as two workers behind a load balancer have."""
    first, second = _harness(workdir), _harness(workdir)
    yield first, second
    first.close()
    second.close()


def _client(url: str, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=url, headers=headers, timeout=20)


def _run_routes(client: httpx.Client, run_id: str) -> dict[str, int]:
    """The status of each run route for ``run_id`` (the events stream included)."""
    call = {"tool_call_id": "c-1", "tool_name": "lookup_knowledge", "arguments": "{}"}
    return {
        "summary": client.get(f"/runs/{run_id}").status_code,
        "tools": client.get(f"/runs/{run_id}/tools").status_code,
        "statuses": client.get(f"/runs/{run_id}/statuses").status_code,
        "progress": client.get(f"/runs/{run_id}/progress").status_code,
        "events": client.get(f"/runs/{run_id}/events").status_code,
        "tool-calls": client.post(f"/runs/{run_id}/tool-calls", json=call).status_code,
        "release": client.post(f"/runs/{run_id}/release", json={"draft": "{}"}).status_code,
        "cancel": client.post(f"/runs/{run_id}/cancel").status_code,
    }


def _listed(client: httpx.Client) -> list[str]:
    response = client.get("/runs", params={"limit": 200})
    assert response.status_code == 200, response.text
    return [row["run_id"] for row in response.json()["runs"]]


def test_a_run_of_one_token_is_unknown_to_another_on_another_app_over_the_same_store(
    two_harnesses: tuple[Harness, Harness],
) -> None:
    first, second = two_harnesses
    with serving(create_app(first, OPTIONS)) as a, serving(create_app(second, OPTIONS)) as b:
        with _client(a, ONE) as one_on_a:
            run_id = start_run(one_on_a)
        with _client(b, TWO) as two_on_b:
            refused = _run_routes(two_on_b, run_id)
            listed_for_two = _listed(two_on_b)
        with _client(b, ONE) as one_on_b:
            summary = one_on_b.get(f"/runs/{run_id}")
            observations = drive_calls(one_on_b, run_id)
            released = one_on_b.post(f"/runs/{run_id}/release", json={"draft": draft()})
            listed_for_one = _listed(one_on_b)

    assert refused == dict.fromkeys(refused, 404)
    assert run_id not in listed_for_two
    assert summary.status_code == 200
    assert summary.json()["owner"] == owner_digest(token_principal(ONE))
    assert all(observation["status"] == "READY" for observation in observations)
    assert released.status_code == 200, released.text
    assert listed_for_one == [run_id]


def test_the_rule_holds_after_a_restart_on_the_same_file(workdir: Path) -> None:
    before = _harness(workdir)
    with serving(create_app(before, OPTIONS)) as url, _client(url, ONE) as one:
        run_id = start_run(one)
    before.close()

    after = _harness(workdir)
    try:
        with serving(create_app(after, OPTIONS)) as url:
            with _client(url, TWO) as two:
                refused = two.get(f"/runs/{run_id}")
                calls = two.post(
                    f"/runs/{run_id}/tool-calls",
                    json={
                        "tool_call_id": "c-1",
                        "tool_name": "lookup_knowledge",
                        "arguments": "{}",
                    },
                )
                listed_for_two = _listed(two)
            with _client(url, ONE) as one:
                usable = one.get(f"/runs/{run_id}")
                listed_for_one = _listed(one)
    finally:
        after.close()

    assert (refused.status_code, calls.status_code) == (404, 404)
    assert refused.json()["code"] == "UNKNOWN_RUN"
    assert usable.status_code == 200
    assert (listed_for_two, listed_for_one) == ([], [run_id])


def test_behind_a_token_a_run_nobody_owns_is_unknown_and_without_one_it_is_open(
    two_harnesses: tuple[Harness, Harness],
) -> None:
    first, _ = two_harnesses
    direct = first.start_run(question="q", service="card-gateway")
    with serving(create_app(first, OPTIONS)) as guarded, serving(create_app(first)) as loopback:
        with _client(guarded, ONE) as one:
            behind_token = one.get(f"/runs/{direct}")
            listed = _listed(one)
        with _client(loopback, None) as anyone:
            opened = anyone.get(f"/runs/{direct}")
            own = start_run(anyone)
            listed_open = _listed(anyone)

    assert behind_token.status_code == 404
    assert direct not in listed
    assert opened.status_code == 200
    assert opened.json()["owner"] is None
    assert set(listed_open) == {direct, own}


def test_the_console_lists_and_opens_only_the_callers_runs(
    two_harnesses: tuple[Harness, Harness],
) -> None:
    first, second = two_harnesses
    with serving(create_app(first, OPTIONS)) as a, serving(create_app(second, OPTIONS)) as b:
        with _client(a, ONE) as one_on_a:
            run_id = start_run(one_on_a)
        with _client(b, TWO) as two_on_b:
            listing_for_two = two_on_b.get("/ui/")
            page_for_two = two_on_b.get(f"/ui/runs/{run_id}")
        with _client(b, ONE) as one_on_b:
            listing_for_one = one_on_b.get("/ui/")
            page_for_one = one_on_b.get(f"/ui/runs/{run_id}")

    assert listing_for_two.status_code == 200
    assert run_id not in listing_for_two.text
    assert page_for_two.status_code == 404
    assert run_id in listing_for_one.text
    assert page_for_one.status_code == 200


def test_a_token_never_reaches_the_stored_bytes_the_audit_rows_or_the_logs(
    workdir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    harness = _harness(workdir)
    caplog.set_level(logging.DEBUG)
    try:
        with serving(create_app(harness, OPTIONS)) as url, _client(url, ONE) as one:
            run_id = start_run(one)
            drive_calls(one, run_id)
            assert one.post(f"/runs/{run_id}/release", json={"draft": draft()}).status_code == 200
        audit = json.dumps(harness.audit(run_id).to_json())
        recorded = b"".join(
            event.data for event in harness.parts.runs.store.read_run(run_id).unwrap()
        )
    finally:
        harness.close()
    stored = b"".join(path.read_bytes() for path in workdir.rglob("*") if path.is_file())

    secret = ONE.encode("utf-8")
    assert owner_digest(token_principal(ONE)).encode("ascii") in recorded  # the owner is there
    assert secret not in recorded
    assert secret not in stored
    assert ONE not in audit
    assert ONE not in caplog.text
    assert token_principal(ONE) not in caplog.text
