"""``query_metrics`` against a real Prometheus loaded with the demo incident's history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.metrics.prometheus_backend import PrometheusBackend
from factledger.adapters.metrics.values import decode_values
from factledger.application.harness import Harness
from factledger.application.observation import ObservationStatus
from factledger.domain.status import EvidenceStatus
from factledger.ports.metrics import MetricsQuery
from tests.support.metrics import DEMO_METRICS, metrics_tool, request
from tests.support.processes import free_port
from tests.support.prometheus_server import prometheus_with_history

pytestmark = pytest.mark.integration

POOL = 'card_gateway_acquirer_pool_saturation_ratio{service="card-gateway"}'
WINDOW = (datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC))


@pytest.fixture(scope="module")
def prometheus_url() -> Iterator[str]:
    with prometheus_with_history(DEMO_METRICS) as url:
        yield url


@pytest.fixture
def harness(prometheus_url: str) -> Iterator[Harness]:
    tool = metrics_tool(
        PrometheusBackend(prometheus_url, 10.0),
        backend="prometheus",
        fixture=None,
        url=prometheus_url,
    )
    with build_harness(Settings(store=StoreSettings(kind="memory")), tools=[tool]) as built:
        yield built


def _observe(harness: Harness, call_id: str, body: dict[str, object]) -> dict[str, Any]:
    run_id = harness.start_run(question="q", service="card-gateway", start=WINDOW[0], end=WINDOW[1])
    arguments = json.dumps({"previous_observation": None, "input": body})
    observation = harness.observe(run_id, call_id, "query_metrics", arguments)
    shown = observation.to_json()
    assert isinstance(shown, dict)
    return shown


def _values(packed: str) -> list[float]:
    decoded = decode_values(packed)
    assert decoded is not None
    return [float(value) for value in decoded]


def test_a_range_query_shows_the_pool_saturating_at_0940(harness: Harness) -> None:
    shown = _observe(harness, "c1", request(POOL, step=15))
    assert shown["status"] == "READY", shown
    assert shown["evidence_status"] == EvidenceStatus.EVIDENCE_FOUND
    series = shown["series"]
    assert isinstance(series, list)
    assert len(series) == 2
    top = series[0]
    assert top["metric"] == "card_gateway_acquirer_pool_saturation_ratio"
    assert top["unit"] == "ratio"
    assert {s["labels"]["pod"] for s in series} == {"<POD>#1", "<POD>#2"}
    assert top["summary"]["change_point"]["time"] == "2026-03-14T09:40:00Z"
    assert top["summary"]["max"] == ["2026-03-14T09:40:00Z", 1]
    assert ["2026-03-14T09:40:00Z", 1] in top["points"]
    assert shown["truncated"] is True, "241 points each were downsampled"


def test_functions_run_in_prometheus_and_keep_their_unit(harness: Harness) -> None:
    query = "max_over_time(card_gateway_request_duration_p99_seconds[5m])"
    shown = _observe(harness, "c1", request(query))
    assert shown["status"] == "READY", shown
    (series,) = shown["series"]
    assert series["unit"] == "s"
    assert series["metric"] is None, "a function drops the metric name"
    assert series["summary"]["max"][1] > 2


def test_a_query_that_matches_nothing_is_a_scoped_negative(harness: Harness) -> None:
    shown = _observe(
        harness, "c1", request('card_gateway_authorization_error_ratio{service="ledger"}')
    )
    assert shown["status"] == "READY", shown
    assert shown["evidence_status"] == EvidenceStatus.NO_EVIDENCE
    assert shown["series"] == []
    assert shown["scope"]["matchers"] == ['service="ledger"']


def test_an_error_prometheus_answers_ends_the_call_as_error(harness: Harness) -> None:
    # A range vector cannot be the result of a range query: Prometheus answers bad_data.
    shown = _observe(harness, "c1", request(f"{POOL}[5m]"))
    assert shown["status"] == ObservationStatus.ERROR
    assert shown["error_code"] == "INVALID_REQUEST"
    assert "range vector" not in json.dumps(shown), "the server's message is not passed on"


def test_the_backend_answers_an_instant_query_in_the_port_shape(prometheus_url: str) -> None:
    backend = PrometheusBackend(prometheus_url, 10.0)
    moment = datetime(2026, 3, 14, 9, 45, tzinfo=UTC)
    answer = backend.fetch(MetricsQuery(POOL, moment, moment, 0, ("x",)), 5.0).unwrap()
    backend.close()
    shaped = json.loads(answer)
    assert shaped["result_type"] == "vector"
    assert [_values(s["values"]) for s in shaped["series"]] == [[1.0], [1.0]]


def test_an_unreachable_prometheus_is_a_safe_backend_error() -> None:
    backend = PrometheusBackend(f"http://127.0.0.1:{free_port()}", 2.0)
    moment = datetime(2026, 3, 14, 9, 45, tzinfo=UTC)
    failure = backend.fetch(MetricsQuery(POOL, moment, moment, 0), 2.0).failure()
    backend.close()
    assert failure.reason == "PROMETHEUS_UNREACHABLE"
