"""Entities, polarity, decisive words, quantifiers and causes: honest claims and their twins,
over incidents other than the demo's."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge import ClaimEvidence, ground
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
    ("search-api's HTTP calls to index-svc time out (upstream timeout after 5000ms).",
     SEARCH_TIMEOUTS),
    ("The search-api logs show upstream time-outs calling index-svc.", SEARCH_TIMEOUTS),
    ("index-svc timeouts tripped the circuit breaker in search-api.", SEARCH_TIMEOUTS),
    ("search-api had a problem reaching index-svc: upstream timeouts.", SEARCH_TIMEOUTS),
    ("Some of the timeouts hit shard 7 of index-svc.", SEARCH_TIMEOUTS),
    ("The circuit breaker for index-svc was open and failing fast.", SEARCH_TIMEOUTS),
    ("The cache miss ratio reached 35% in search-api.", CACHE_MISSES),
    ("All cache-miss lines were warnings.", CACHE_MISSES),
    ("A broker stops accepting writes above 85% disk usage because the log cleaner cannot "
     "keep up.", BROKER_RUNBOOK),
    ("Producers then get NOT_ENOUGH_REPLICAS errors.", BROKER_RUNBOOK),
    ("The runbook warns never to delete segment files by hand.", BROKER_RUNBOOK),
    ("Per the runbook, only rack b brokers are affected in the common case.", BROKER_RUNBOOK),
    ("Both replicas of a partition on rack b lag.", BROKER_RUNBOOK),
    ("The orders that failed since 14:32 number 46.", FAILED_ORDERS),
    ("Since 14:32 the DB recorded 46 failed orders and 184 paid ones.", BY_STATUS),
]  # fmt: skip

TWINS: list[tuple[str, JsonObject, str]] = [
    ("search-api's calls to index-svc do not time out.", SEARCH_TIMEOUTS, "POLARITY_MISMATCH"),
    ("The search-api logs show no upstream timeouts calling index-svc.", SEARCH_TIMEOUTS,
     "POLARITY_MISMATCH"),
    ("search-api's calls to ranker-svc time out.", SEARCH_TIMEOUTS, "UNGROUNDED_ENTITY"),
    ("The checkout-api logs show upstream timeouts calling index-svc.", SEARCH_TIMEOUTS,
     "UNGROUNDED_ENTITY"),
    ("search-api hit deadlocks calling index-svc.", SEARCH_TIMEOUTS, "UNGROUNDED_TERMS"),
    ("All of the timeouts hit shard 7 of index-svc.", SEARCH_TIMEOUTS,
     "QUANTIFIER_UNSUPPORTED"),
    ("index-svc timeouts happened because of a bad deploy of search-api.", SEARCH_TIMEOUTS,
     "CAUSAL_UNSUPPORTED"),
    ("A broker keeps accepting writes above 85% disk usage.", BROKER_RUNBOOK,
     "POLARITY_MISMATCH"),
    ("The runbook says to delete segment files by hand.", BROKER_RUNBOOK, "POLARITY_MISMATCH"),
    ("Per the runbook, all brokers are affected in the common case.", BROKER_RUNBOOK,
     "QUANTIFIER_UNSUPPORTED"),
    ("Some replicas of a partition on rack b lag.", BROKER_RUNBOOK, "QUANTIFIER_UNSUPPORTED"),
    ("A broker stops accepting writes above 85% disk usage because ZooKeeper loses quorum.",
     BROKER_RUNBOOK, "CAUSAL_UNSUPPORTED"),
    ("Producers then get KAFKA-DISK-02 errors.", BROKER_RUNBOOK, "UNGROUNDED_ENTITY"),
    ("It is not true that 46 orders failed since 14:32.", FAILED_ORDERS, "POLARITY_MISMATCH"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST, ids=[c for c, _ in HONEST])
def test_an_honest_claim_is_grounded(claim: str, cited: JsonObject) -> None:
    assert judge_one(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited", "reason"), TWINS, ids=[c for c, _, _ in TWINS])
def test_a_twin_is_refused_with_its_reason(claim: str, cited: JsonObject, reason: str) -> None:
    assert reason_of(SUPPORT, claim, cited) == reason


def test_an_entity_from_another_call_of_the_run_is_not_evidence() -> None:
    """A service or name must be in the cited call, not merely elsewhere in the run."""
    report = ground(
        "See the analyses.",
        [
            ClaimEvidence(SUPPORT, "search-api timed out calling index-svc.",
                          (SEARCH_TIMEOUTS,), (SEARCH_TIMEOUTS["scope"],)),
            ClaimEvidence(SUPPORT, "search-api logged a 35% cache miss ratio calling index-svc.",
                          (CACHE_MISSES,), (CACHE_MISSES["scope"],)),
        ],
    )  # fmt: skip
    assert report.analyses[0] is None
    found = report.analyses[1]
    assert found is not None
    assert (found.reason.value, found.token) == ("UNGROUNDED_ENTITY", "index-svc")


def test_the_refused_word_is_quoted_from_the_claim() -> None:
    found = judge_one(SUPPORT, "search-api hit Deadlocks calling index-svc.", SEARCH_TIMEOUTS)
    assert found is not None
    assert found.token == "Deadlocks"
