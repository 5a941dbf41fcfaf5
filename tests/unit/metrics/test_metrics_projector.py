"""The metrics projector: the series that changed most, spikes kept, units, redaction."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from factledger.adapters.metrics.projector import (
    ProjectionRules,
    evidence_status_of,
    project_metrics,
)
from factledger.adapters.metrics.values import encode_values
from factledger.domain.json_types import JsonObject
from factledger.domain.status import EvidenceStatus

START = 1_773_478_800  # 2026-03-14T09:00:00Z
RULES = ProjectionRules(
    max_series=3, buckets=10, redact_labels=frozenset({"pod", "host"}), unit=None
)
SCOPE: JsonObject = {"query": "q"}


def _series(name: str, values: Sequence[float | None], **labels: str) -> JsonObject:
    packed = encode_values(values)
    return {"labels": {"__name__": name, **labels}, "start": START, "step": 15, "values": packed}


def _project(
    *series: JsonObject, rules: ProjectionRules = RULES, units: JsonObject | None = None
) -> Any:
    raw = json.dumps({"result_type": "matrix", "series": list(series), "units": units or {}})
    return project_metrics(raw, SCOPE, rules).unwrap()


def test_the_series_shown_are_those_that_changed_most_not_the_first_alphabetically() -> None:
    flat = [_series(f"a_flat_{i}_ratio", [0.5] * 240) for i in range(5)]
    rising = _series("z_rising_ratio", [0.1] * 160 + [0.9] * 80)
    spiky = _series("y_spiky_ratio", [0.2] * 100 + [0.3] * 140)
    result = _project(*flat, spiky, rising)
    names = [s["metric"] for s in result.agent_result["series"]]
    assert names[:2] == ["z_rising_ratio", "y_spiky_ratio"]
    assert result.agent_result["series_matched"] == 7
    assert result.truncated is True
    assert result.agent_result["truncated"] is True


def test_a_spike_shorter_than_a_bucket_survives_downsampling() -> None:
    values: list[float | None] = [1.0] * 2000
    values[1234] = 50.0
    result = _project(_series("latency_seconds", values))
    (series,) = result.agent_result["series"]
    assert len(series["points"]) <= 3 * 10 + 2
    assert ["2026-03-14T14:08:30Z", 50] in series["points"]
    assert series["summary"]["max"] == ["2026-03-14T14:08:30Z", 50]
    assert series["unit"] == "s"


def test_the_change_point_is_where_the_level_shifts_and_is_kept() -> None:
    values: list[float | None] = [0.01] * 160
    values += [0.64] * 80
    result = _project(_series("errors_ratio", values))
    (series,) = result.agent_result["series"]
    change = series["summary"]["change_point"]
    assert change == {"time": "2026-03-14T09:40:00Z", "before": 0.01, "after": 0.64}
    assert ["2026-03-14T09:40:00Z", 0.64] in series["points"]
    assert series["summary"]["last"] == ["2026-03-14T09:59:45Z", 0.64]


def test_gaps_and_non_finite_values_are_left_out() -> None:
    values: list[float | None] = [None] * 10 + [2.0, None, 3.0] + [None] * 5
    result = _project(_series("queue_depth", values))
    (series,) = result.agent_result["series"]
    assert [p[1] for p in series["points"]] == [2, 3]
    assert series["summary"]["samples"] == 2
    assert series["unit"] is None


def test_units_come_from_metadata_before_the_name_and_from_the_query_last() -> None:
    rules = ProjectionRules(max_series=3, buckets=10, redact_labels=frozenset(), unit="count/s")
    result = _project(
        _series("pool_in_use", [1.0, 2.0], pool="a"),
        _series("http_requests_total", [1.0, 2.0]),
        {
            "labels": {"route": "/x"},
            "start": START,
            "step": 15,
            "values": encode_values([1.0, 3.0]),
        },
        rules=rules,
        units={"pool_in_use": "connections"},
    )
    units = {s["metric"]: s["unit"] for s in result.agent_result["series"]}
    assert units == {"pool_in_use": "connections", "http_requests_total": "count", None: "count/s"}


def test_machine_labels_are_masked_and_secret_label_values_redacted() -> None:
    secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
    result = _project(
        _series(
            "errors_ratio",
            [0.1, 0.2],
            pod="card-gateway-7d9f8c-x2k4q",
            host="db-7.internal",
            api_token="abc123",
            route=f"/pay?token={secret}",
            service="card-gateway",
        )
    )
    labels = result.agent_result["series"][0]["labels"]
    assert labels["pod"] == "<POD>#1"
    assert labels["host"] == "<HOST>#1"
    assert labels["api_token"] == "<SECRET>"
    assert labels["service"] == "card-gateway"
    assert secret not in json.dumps(result.agent_result)
    assert "x2k4q" not in json.dumps(result.agent_result)


def test_nothing_matched_is_no_evidence_and_a_malformed_answer_is_refused() -> None:
    empty = _project()
    assert empty.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert evidence_status_of(empty.agent_result) is EvidenceStatus.NO_EVIDENCE
    all_gaps = _project(_series("errors_ratio", [None, None]))
    assert all_gaps.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert all_gaps.agent_result["series_matched"] == 1
    bad = project_metrics('{"series": [{"labels": {}}]}', SCOPE, RULES)
    assert bad.failure().reason == "MALFORMED_RAW"
    odd = '{"series": [{"labels": {}, "start": 0, "step": 15, "values": "AAAA"}]}'
    assert project_metrics(odd, SCOPE, RULES).failure().reason == "MALFORMED_RAW"
    assert project_metrics("[1]", SCOPE, RULES).failure().reason == "MALFORMED_RAW"


def test_the_evidence_status_rule_refuses_a_series_without_points() -> None:
    found = _project(_series("errors_ratio", [0.1, 0.2])).agent_result
    assert evidence_status_of(found) is EvidenceStatus.EVIDENCE_FOUND
    tampered = {**found, "series": [{**found["series"][0], "points": []}]}
    assert evidence_status_of(tampered) is None
    assert evidence_status_of({"series": []}) is None, "a result without its scope"
