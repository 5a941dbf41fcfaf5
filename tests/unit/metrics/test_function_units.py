"""The function table: one home for what the metrics tool allows and the units it reads."""

from __future__ import annotations

import promql_parser as promql
import pytest

from factledger.adapters.metrics.functions import DEFAULT_FUNCTIONS, FUNCTIONS
from factledger.adapters.metrics.units import unit_of
from tests.support.metrics import metrics_settings


@pytest.mark.parametrize(
    ("query", "unit"),
    [
        ("rate(http_request_duration_seconds_sum[5m])", "s/s"),
        ("increase(http_requests_total[1h])", "count"),
        ("count_over_time(queue_depth_bytes[10m])", "count"),
        ("avg_over_time(queue_depth_bytes[10m])", "bytes"),
        ("clamp(queue_depth_bytes, 0, 10)", "bytes"),
        ("histogram_quantile(0.99, rate(request_latency_seconds_bucket[5m]))", "s"),
        ('label_replace(up, "a", "$1", "b", "(.*)")', None),
        ("sort(queue_depth_bytes)", None),
    ],
)
def test_the_unit_of_a_call_follows_the_table(query: str, unit: str | None) -> None:
    assert unit_of(promql.parse(query)) == unit


def test_the_default_allow_list_is_the_table_minus_what_is_off_by_default() -> None:
    assert set(DEFAULT_FUNCTIONS) == {name for name, f in FUNCTIONS.items() if f.by_default}
    assert "clamp" not in DEFAULT_FUNCTIONS
    assert "label_replace" not in FUNCTIONS
    assert "absent" not in FUNCTIONS


def test_a_section_without_functions_allows_the_defaults() -> None:
    settings = metrics_settings()
    assert tuple(settings.functions) == DEFAULT_FUNCTIONS
