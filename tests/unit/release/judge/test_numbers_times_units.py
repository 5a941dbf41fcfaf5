"""Numbers bound to what they count, units converted, times compared as instants.

Each row is an honest claim (must pass) or a twin one edit away (must fail with its
reason), over incidents other than the demo's.
"""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.instants import claim_times
from tests.unit.release.judge.incidents import (
    BROKER_RUNBOOK,
    BY_STATUS,
    CACHE_MISSES,
    FAILED_ORDERS,
    SEARCH_TIMEOUTS,
    SUPPORT,
    judge_one,
    reason_of,
)

HONEST: list[tuple[str, JsonObject]] = [
    ("46 orders have status failed since 2026-11-28 14:32", FAILED_ORDERS),
    ("Since 14:32 UTC, 46 orders have failed.", FAILED_ORDERS),
    ("46 orders failed after 2:32 pm.", FAILED_ORDERS),
    ("Since 2026-11-28T14:32:00Z there were 46 failed orders.", FAILED_ORDERS),
    ("Since 14:32, 46 orders failed and 184 were paid.", BY_STATUS),
    ("230 orders were placed since 14:32, 46 of them failed.", BY_STATUS),
    ("Since 14:32 exactly 20% of the orders failed (46 of 230).", BY_STATUS),
    ("About 4 paid orders for every failed one since 14:32.", BY_STATUS),
    ("138 more orders were paid than failed since 14:32.", BY_STATUS),
    ("search-api timed out after 5 seconds calling index-svc.", SEARCH_TIMEOUTS),
    ("Upstream calls to index-svc time out after 5000 ms.", SEARCH_TIMEOUTS),
    ("With the breaker open, search-api fails fast in 46 ms.", SEARCH_TIMEOUTS),
    ("120 lines matched timeout in search-api, 90 of them at ERROR.", SEARCH_TIMEOUTS),
    ("Three quarters of the matches (75%) are upstream timeouts to index-svc.", SEARCH_TIMEOUTS),
    ("The first timeout was logged at 14:32 UTC.", SEARCH_TIMEOUTS),
    ("The cache miss ratio stood at 35% over the last minute.", CACHE_MISSES),
    ("The runbook says writes stop above 85% disk usage.", BROKER_RUNBOOK),
    ("The runbook lowers retention.bytes to 512 MiB; space is freed in about 5 min.",
     BROKER_RUNBOOK),
]  # fmt: skip

TWINS: list[tuple[str, JsonObject, str]] = [
    ("47 orders have status failed since 2026-11-28 14:32", FAILED_ORDERS, "UNGROUNDED_NUMBER"),
    ("46 orders have status paid since 2026-11-28 14:32", FAILED_ORDERS, "FILTER_MISMATCH"),
    ("46 orders failed before 14:32.", FAILED_ORDERS, "FILTER_MISMATCH"),
    ("Since 14:23 UTC, 46 orders have failed.", FAILED_ORDERS, "TIME_MISMATCH"),
    ("46 orders failed after 2:32 am.", FAILED_ORDERS, "TIME_MISMATCH"),
    ("Since 14:32, 184 orders failed and 46 were paid.", BY_STATUS, "FILTER_MISMATCH"),
    ("Since 14:32 exactly 30% of the orders failed.", BY_STATUS, "UNGROUNDED_NUMBER"),
    ("search-api timed out after 5 minutes calling index-svc.", SEARCH_TIMEOUTS,
     "UNIT_MISMATCH"),
    ("With the breaker open, search-api fails fast in 46 seconds.", SEARCH_TIMEOUTS,
     "UNIT_MISMATCH"),
    ("120 lines matched timeout in search-api, 30 of them upstream timeouts to index-svc.",
     SEARCH_TIMEOUTS, "UNGROUNDED_NUMBER"),
    ("The first timeout was logged at 14:52 UTC.", SEARCH_TIMEOUTS, "TIME_MISMATCH"),
    ("The cache miss ratio stood at 53% over the last minute.", CACHE_MISSES,
     "UNGROUNDED_NUMBER"),
    ("The runbook lowers retention.bytes to 512 GiB.", BROKER_RUNBOOK, "UNIT_MISMATCH"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST, ids=[c for c, _ in HONEST])
def test_an_honest_claim_is_grounded(claim: str, cited: JsonObject) -> None:
    assert judge_one(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited", "reason"), TWINS, ids=[c for c, _, _ in TWINS])
def test_a_twin_is_refused_with_its_reason(claim: str, cited: JsonObject, reason: str) -> None:
    assert reason_of(SUPPORT, claim, cited) == reason


def test_the_offending_number_is_quoted_from_the_claim() -> None:
    found = judge_one(SUPPORT, "Fast failures took 46 seconds.", SEARCH_TIMEOUTS)
    assert found is not None
    assert found.token == "46 seconds"


@pytest.mark.parametrize(
    "text", ["41 declines at the gateway", "3 mayors", "7 junk mails", "12 augmented rows"]
)
def test_a_word_a_month_name_begins_is_no_date(text: str) -> None:
    assert claim_times(text) == ()


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("on 29 November 2026", (2026, 11, 29)),
        ("5 sept", (None, 9, 5)),
        ("Dec. 15", (None, 12, 15)),
    ],
)
def test_month_names_and_abbreviations_are_dates(text: str, date: tuple[object, ...]) -> None:
    assert [t.date for t in claim_times(text)] == [date]
