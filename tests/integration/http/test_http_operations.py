"""``/healthz``, ``/metrics`` and ``/docs`` over a real uvicorn: health of the store, the audit
and the workers; metrics fed by the facade; documentation that needs no other host."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import AuditSettings, StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http import ApiOptions, create_app
from factledger.adapters.memory.faults import FaultyEventStore
from factledger.application.harness import Harness
from factledger.ports.event_store import EventStore
from tests.integration.http.serving import draft, drive_calls, serving, start_run
from tests.support.worker_process import WorkerProcess, event, settings_environment

pytestmark = pytest.mark.integration

WORKER = {
    "purge_interval_seconds": 0.5,
    "poll_interval_seconds": 0.1,
    "heartbeat_interval_seconds": 0.3,
    "lease_ttl_seconds": 1.5,
}


def _store(tmp_path: Path) -> StoreSettings:
    return StoreSettings(kind="sqlite", path=str(tmp_path / "state" / "store.db"), partitions=2)


@pytest.fixture
def sqlite_harness(tmp_path: Path) -> Iterator[Harness]:
    harness = build_harness(demo_settings(tmp_path / "work", _store(tmp_path)))
    yield harness
    harness.close()


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_healthz_reports_the_store_the_audit_and_that_no_worker_runs(
    sqlite_harness: Harness,
) -> None:
    with serving(create_app(sqlite_harness)) as url:
        response = httpx.get(f"{url}/healthz", timeout=10)

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert (body["status"], body["store"], body["audit"]) == ("degraded", "OK", "OK")
    assert body["workers"]["status"] == "DOWN"
    assert body["workers"]["problems"] == ["NO_LIVE_WORKER"]


def test_healthz_shows_a_running_worker_in_its_own_line(
    sqlite_harness: Harness, tmp_path: Path
) -> None:
    store = _store(tmp_path)
    environment = settings_environment(
        {
            "store": {"kind": "sqlite", "path": store.path, "partitions": store.partitions},
            "worker": WORKER,
        }
    )
    worker = WorkerProcess(environment, "health-line", tmp_path / "tmp")
    try:
        worker.wait_for(event("purged"), 60, "its first purge")
        with serving(create_app(sqlite_harness)) as url:
            body = httpx.get(f"{url}/healthz", timeout=10).json()
    finally:
        worker.close()

    assert body["status"] == "ok", body
    assert [line["owner"] for line in body["workers"]["workers"]] == ["health-line"]
    assert body["workers"]["problems"] == []


def test_healthz_is_503_when_the_audit_cannot_be_reached(tmp_path: Path) -> None:
    settings = demo_settings(tmp_path / "work", _store(tmp_path)).model_copy(
        update={"audit": AuditSettings(url="mysql+pymysql://root@127.0.0.1:9/test")}
    )
    with build_harness(settings) as harness, serving(create_app(harness)) as url:
        response = httpx.get(f"{url}/healthz", timeout=10)

    assert response.status_code == 503, response.text
    body = response.json()
    assert (body["status"], body["store"], body["audit"]) == ("unavailable", "OK", "UNAVAILABLE")
    assert body["workers"] is None


def test_healthz_is_503_when_the_store_cannot_be_read(tmp_path: Path) -> None:
    faulty: list[FaultyEventStore] = []

    def wrap(store: EventStore) -> EventStore:
        faulty.append(FaultyEventStore(store))
        return faulty[0]

    settings = demo_settings(tmp_path / "work", _store(tmp_path))
    with build_harness(settings, wrap_store=wrap) as harness, serving(create_app(harness)) as url:
        faulty[0].set_reads_down(True)
        response = httpx.get(f"{url}/healthz", timeout=10)

    assert response.status_code == 503, response.text
    assert response.json()["store"] == "UNAVAILABLE"


def test_metrics_count_calls_releases_violations_and_latency_from_the_facade(
    harness: Harness,
) -> None:
    with serving(create_app(harness)) as url, httpx.Client(base_url=url, timeout=10) as client:
        run_id = start_run(client)
        drive_calls(client, run_id)
        client.post(
            f"/runs/{run_id}/tool-calls",
            json={"tool_call_id": "x-1", "tool_name": "no_such_tool", "arguments": "{}"},
        )
        client.post(f"/runs/{run_id}/release", json={"draft": draft()})
        hallucinated = start_run(client, "hallucinating")
        drive_calls(client, hallucinated, "hallucinating")
        client.post(f"/runs/{hallucinated}/release", json={"draft": draft("hallucinating")})
        # A call through the facade itself, not through HTTP, counts as well.
        direct = harness.start_run(question="q", service="card-gateway")
        harness.observe(direct, "direct-1", "no_such_tool", "{}")
        response = client.get("/metrics")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = _samples(response.text)
    ready = ("factledger_tool_calls_total", (("status", "READY"), ("tool", "query_logs")))
    assert samples[ready] >= 1
    unknown = ("factledger_tool_calls_total", (("status", "REFUSED"), ("tool", "(unknown)")))
    assert samples[unknown] == 2
    success = ("factledger_releases_total", (("fallback_type", "none"), ("outcome", "SUCCESS")))
    assert samples[success] == 1
    fallbacks = [
        key for key in samples if key[0] == "factledger_releases_total" and "FALLBACK" in str(key)
    ]
    assert fallbacks, samples
    violations = [key for key in samples if key[0] == "factledger_guard_violations_total"]
    assert violations, "the hallucinated citation is a guard violation"
    counted = ("factledger_tool_call_seconds_count", (("tool", "query_logs"),))
    assert samples[counted] >= 1
    assert samples[("factledger_release_seconds_count", ())] == 2
    assert run_id not in response.text


def test_each_app_has_its_own_registry(harness: Harness) -> None:
    first, second = create_app(harness), create_app(harness)
    with serving(first) as url_one, serving(second) as url_two:
        with httpx.Client(base_url=url_one, timeout=10) as client:
            run_id = start_run(client)
            drive_calls(client, run_id)
        one = _samples(httpx.get(f"{url_one}/metrics", timeout=10).text)
        two = _samples(httpx.get(f"{url_two}/metrics", timeout=10).text)
    key = ("factledger_tool_calls_total", (("status", "READY"), ("tool", "query_logs")))
    # The harness is shared, so both apps count its calls; a fresh app starts from zero.
    assert one[key] == two[key]
    third = create_app(harness)
    with serving(third) as url_three:
        three = _samples(httpx.get(f"{url_three}/metrics", timeout=10).text)
    assert key not in three


def test_docs_work_offline_referencing_no_other_host(served_url: str) -> None:
    response = httpx.get(f"{served_url}/docs", timeout=10)

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "/runs/{run_id}/tool-calls" in page
    assert re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", page) is None
    assert "http://" not in page
    assert "https://" not in page
    assert "<script" not in page


@pytest.fixture
def served_url(harness: Harness) -> Iterator[str]:
    with serving(create_app(harness, ApiOptions())) as url:
        yield url
