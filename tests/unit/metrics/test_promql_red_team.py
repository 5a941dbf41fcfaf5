"""Red-team PromQL: probing, huge ranges, broad regexes, subquery storms — refused before
anything runs, each with its stable reason; secrets in label values are redacted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.metrics.promql_rules import CheckedQuery, MetricsRefusal, check_query
from tests.support.metrics import metrics_settings, metrics_tool, request

SETTINGS = metrics_settings()
RED_TEAM = [
    ('count by (__name__) ({__name__=~".+"})', MetricsRefusal.GROUPING_BY_NAME),
    (
        "count by (__name__) (card_gateway_authorization_error_ratio)",
        MetricsRefusal.GROUPING_BY_NAME,
    ),
    (
        'group by (__name__) ({__name__="card_gateway_authorization_error_ratio"})',
        MetricsRefusal.GROUPING_BY_NAME,
    ),
    ('{__name__=~".+"}', MetricsRefusal.NAME_MATCHER_NOT_ALLOWED),
    ('{__name__=~"card_gateway_.*"}', MetricsRefusal.NAME_MATCHER_NOT_ALLOWED),
    ('{service="card-gateway"}', MetricsRefusal.METRIC_NAME_REQUIRED),
    ("vector(1)", MetricsRefusal.FUNCTION_NOT_ALLOWED),
    ("1 + 1", MetricsRefusal.METRIC_NAME_REQUIRED),
    ("node_cpu_seconds_total", MetricsRefusal.METRIC_NOT_ALLOWED),
    (
        'card_gateway_authorization_error_ratio{route=~".*"}',
        MetricsRefusal.REGEX_MATCHES_EVERYTHING,
    ),
    (
        'card_gateway_authorization_error_ratio{route=~".+"}',
        MetricsRefusal.REGEX_MATCHES_EVERYTHING,
    ),
    (
        'card_gateway_authorization_error_ratio{route=~"(.*)|x"}',
        MetricsRefusal.REGEX_MATCHES_EVERYTHING,
    ),
    ('card_gateway_authorization_error_ratio{route!~""}', MetricsRefusal.REGEX_MATCHES_EVERYTHING),
    (
        'card_gateway_authorization_error_ratio{service=~"a.+", route=~"b.+", pod=~"c.+"}',
        MetricsRefusal.TOO_MANY_REGEX_MATCHERS,
    ),
    (
        'card_gateway_authorization_error_ratio{route=~"\\\\pL+"}',
        MetricsRefusal.REGEX_NOT_SUPPORTED,
    ),
    ('card_gateway_authorization_error_ratio{api_key="x"}', MetricsRefusal.LABEL_NOT_ALLOWED),
    (
        "sum by (customer_id) (card_gateway_authorization_error_ratio)",
        MetricsRefusal.LABEL_NOT_ALLOWED,
    ),
    (
        'label_replace(card_gateway_authorization_error_ratio, "a", "$1", "route", "(.*)")',
        MetricsRefusal.FUNCTION_NOT_ALLOWED,
    ),
    ("card_gateway_authorization_error_ratio[2h]", MetricsRefusal.LOOKBACK_TOO_LONG),
    ("card_gateway_authorization_error_ratio offset 30d", MetricsRefusal.LOOKBACK_TOO_LONG),
    ("card_gateway_authorization_error_ratio @ 1609746000", MetricsRefusal.AT_MODIFIER_NOT_ALLOWED),
    ("card_gateway_authorization_error_ratio @ end()", MetricsRefusal.AT_MODIFIER_NOT_ALLOWED),
    (
        "max_over_time(card_gateway_authorization_error_ratio[1h:1s])",
        MetricsRefusal.SUBQUERY_STEP_TOO_SMALL,
    ),
    (
        "max_over_time(card_gateway_authorization_error_ratio[1h:])",
        MetricsRefusal.SUBQUERY_STEP_TOO_SMALL,
    ),
    (
        "max_over_time(max_over_time(card_gateway_authorization_error_ratio[1h:1m])[1h:1m])",
        MetricsRefusal.NESTED_SUBQUERY,
    ),
    (
        "max_over_time(card_gateway_authorization_error_ratio[1h:1m])"
        " + max_over_time(card_gateway_request_duration_p99_seconds[1h:1m])",
        MetricsRefusal.TOO_MANY_SUBQUERIES,
    ),
    (" + ".join(["card_gateway_authorization_error_ratio"] * 9), MetricsRefusal.TOO_MANY_SELECTORS),
    ("card_gateway_authorization_error_ratio{" + "x" * 1200 + "}", MetricsRefusal.QUERY_TOO_LONG),
    ("card_gateway_authorization_error_ratio{route=", MetricsRefusal.UNPARSABLE_QUERY),
    ("(" * 60 + "card_gateway_authorization_error_ratio" + ")" * 60, MetricsRefusal.QUERY_TOO_DEEP),
]


@pytest.mark.parametrize(("query", "refusal"), RED_TEAM)
def test_a_red_team_query_is_refused_with_its_reason(query: str, refusal: MetricsRefusal) -> None:
    assert check_query(query, SETTINGS) is refusal


def test_allowed_queries_pass_with_their_names_matchers_and_unit() -> None:
    checked = check_query(
        'sum by (route) (rate(card_gateway_authorization_errors_total{route=~"/v1/.+"}[5m]))',
        metrics_settings(),
    )
    assert isinstance(checked, CheckedQuery)
    assert checked.metric_names == ("card_gateway_authorization_errors_total",)
    assert checked.matchers == ('route=~"/v1/.+"',)
    assert checked.unit == "count/s"
    quantile = check_query(
        "histogram_quantile(0.99, sum by (le) "
        "(rate(card_gateway_request_duration_seconds_bucket[5m])))",
        metrics_settings(),
    )
    assert isinstance(quantile, CheckedQuery)
    assert quantile.unit == "s"


WINDOW_CASES = [
    (
        request("card_gateway_authorization_error_ratio", start="2026-03-01T00:00:00Z"),
        "RANGE_TOO_LONG",
    ),
    (request("card_gateway_authorization_error_ratio", step=1), "STEP_TOO_SMALL"),
    (request("card_gateway_authorization_error_ratio", end="2026-03-14T08:59:00Z"), "EMPTY_WINDOW"),
    (
        request("card_gateway_authorization_error_ratio", start="2026-03-14T08:00:00Z"),
        "OUTSIDE_RUN_WINDOW",
    ),
    (
        request("card_gateway_authorization_error_ratio", end="2026-03-14T10:00:15Z"),
        "OUTSIDE_RUN_WINDOW",
    ),
]


@pytest.mark.parametrize(("body", "reason"), WINDOW_CASES)
def test_a_window_the_source_or_the_run_does_not_allow_is_refused(
    body: dict[str, object], reason: str
) -> None:
    tool = metrics_tool(max_range_seconds=7200)
    with build_harness(Settings(store=StoreSettings(kind="memory")), tools=[tool]) as harness:
        run_id = harness.start_run(
            question="q",
            service="card-gateway",
            start=datetime(2026, 3, 14, 9, tzinfo=UTC),
            end=datetime(2026, 3, 14, 10, tzinfo=UTC),
        )
        arguments = json.dumps({"previous_observation": None, "input": body})
        shown = harness.observe(run_id, "c1", "query_metrics", arguments).to_json()
        assert shown["error_code"] == "INVALID_ENVELOPE"
        assert shown["reason"] == reason
        assert harness.run_summary(run_id).tool_calls == 0


def test_too_many_points_are_refused() -> None:
    tool = metrics_tool(max_points=100)
    body = request("card_gateway_authorization_error_ratio", step=15)
    parsed = tool.input_model.model_validate_json(json.dumps(body))
    assert tool.refuse(parsed) == "TOO_MANY_POINTS"
    assert (
        tool.refuse(tool.input_model.model_validate_json(json.dumps({**body, "step": 60}))) is None
    )
