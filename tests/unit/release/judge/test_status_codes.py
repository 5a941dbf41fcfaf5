"""An HTTP status code written as a noun ("answered with a 429", "only 12 429s", "the 503s")
names a response status the cited call holds as a status (a ``status`` field, a
``status_429`` column, "HTTP 503" in the text): it is neither a count to find among the
values nor "429 seconds", and a code the call does not hold is still refused.

The cited calls are of an incident of their own: a gateway whose new rate limit answers 429
to a partner's bulk export."""

from __future__ import annotations

from typing import cast

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of, sql_result

BY_ROUTE = sql_result(
    "SELECT route, SUM(requests) AS requests, SUM(status_429) AS throttled FROM route_minutes "
    "WHERE minute >= '2026-11-28 14:00:00' GROUP BY route",
    ["route", "requests", "throttled"],
    [["/v1/export", 1200, 310], ["/v1/search", 840, 12]],
)
"""Requests and throttled answers per route, the status in a column's name."""


def _throttled_logs() -> JsonObject:
    result = log_result(
        "edge-gateway",
        "rate limit",
        [("rate limit exceeded for partner <*>", 64, "WARN",
          ["rate limit exceeded for partner acme-bulk"])],
    )  # fmt: skip
    patterns = cast("list[JsonObject]", result["patterns"])
    for example in cast("list[JsonObject]", patterns[0]["examples"]):
        example["fields"] = {"status": 429, "route": "/v1/export"}
    return result


THROTTLED_LOGS = _throttled_logs()
"""Log records whose ``status`` field holds the code."""

WRITTEN = log_result(
    "checkout-web",
    "upstream",
    [("upstream answered HTTP <*> for <*>", 18, "ERROR", ["upstream answered HTTP 503 for /cart"])],
)
"""A status written in the text."""

CASES = [
    (
        "after an article, of a column named for the status",
        "/v1/export answered 310 of its 1,200 requests with a 429.",
        "/v1/export answered 310 of its 1,200 requests with a 503.",
        BY_ROUTE,
    ),
    (
        "a plural, not a duration",
        "/v1/search saw only 12 429s out of 840 requests.",
        "/v1/search saw only 12 503s out of 840 requests.",
        BY_ROUTE,
    ),
    (
        "of a status field of the log records",
        "The partner acme-bulk got a 429 on /v1/export.",
        "The partner acme-bulk got a 401 on /v1/export.",
        THROTTLED_LOGS,
    ),
    (
        "written in the text",
        "checkout-web logged 18 503s from its upstream.",
        "checkout-web logged 18 502s from its upstream.",
        WRITTEN,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_status_code_noun_is_a_status_of_the_cited_call(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family


def test_a_number_of_seconds_is_still_a_duration() -> None:
    timeouts = log_result(
        "export-worker",
        "timed out",
        [("export timed out after <*>", 4, "ERROR", ["export timed out after 120s"])],
    )
    assert reason_of(SUPPORT, "The export timed out after 120s.", timeouts) is None
    assert reason_of(SUPPORT, "The export timed out after 180s.", timeouts) is not None
