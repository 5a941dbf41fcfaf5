"""The release judge grounds metrics claims on values and times, and holds a negative
observation on metrics to its query's scope."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from factledger import Settings, build_harness
from factledger.application.harness import Harness
from tests.support.metrics import metrics_tool, request

POOL = 'card_gateway_acquirer_pool_saturation_ratio{service="card-gateway"}'
EMPTY = 'card_gateway_authorization_error_ratio{service="ledger"}'


@pytest.fixture
def harness() -> Iterator[Harness]:
    settings = Settings.model_validate({"store": {"kind": "memory"}})
    with build_harness(settings, tools=[metrics_tool()]) as built:
        yield built


def _released(harness: Harness, query: str, kind: str, claim: str) -> str:
    run_id = harness.start_run(
        question="q",
        service="card-gateway",
        start=datetime(2026, 3, 14, 9, tzinfo=UTC),
        end=datetime(2026, 3, 14, 10, tzinfo=UTC),
    )
    arguments = json.dumps({"previous_observation": None, "input": request(query)})
    harness.observe(run_id, "m1", "query_metrics", arguments)
    draft = {
        "conclusion": claim,
        "analyses": [{"kind": kind, "claim": claim, "tool_call_ids": ["m1"]}],
    }
    return harness.release(run_id, json.dumps(draft)).outcome.value


def test_a_claim_with_the_value_and_time_the_result_shows_is_released(harness: Harness) -> None:
    claim = "card_gateway_acquirer_pool_saturation_ratio of card-gateway reached 1 at 09:40."
    assert _released(harness, POOL, "SUPPORTING_EVIDENCE", claim) == "SUCCESS"


@pytest.mark.parametrize(
    "claim",
    [
        "card_gateway_acquirer_pool_saturation_ratio of card-gateway reached 1 at 08:15.",
        "card_gateway_acquirer_pool_saturation_ratio of card-gateway reached 3 at 09:40.",
    ],
)
def test_a_claim_with_a_value_or_time_the_result_lacks_falls_back(
    harness: Harness, claim: str
) -> None:
    assert _released(harness, POOL, "SUPPORTING_EVIDENCE", claim) == "FALLBACK"


def test_a_negative_observation_within_its_query_scope_is_released(harness: Harness) -> None:
    claim = (
        "No series matched card_gateway_authorization_error_ratio for service ledger "
        "between 09:00 and 10:00 UTC."
    )
    assert _released(harness, EMPTY, "NEGATIVE_OBSERVATION", claim) == "SUCCESS"


def test_a_negative_observation_that_drops_the_queried_window_falls_back(
    harness: Harness,
) -> None:
    claim = "No series matched card_gateway_authorization_error_ratio for service ledger."
    assert _released(harness, EMPTY, "NEGATIVE_OBSERVATION", claim) == "FALLBACK"


def test_a_negative_observation_that_reaches_beyond_its_scope_falls_back(
    harness: Harness,
) -> None:
    claim = "The ledger is healthy: card_gateway_authorization_error_ratio shows no errors."
    assert _released(harness, EMPTY, "NEGATIVE_OBSERVATION", claim) == "FALLBACK"
