"""A universal or dual quantifier the records of a cited call show: the same number in each
row ("412 reminders each", "each at least 14 times": a bound is the column's edge), every
row naming one name of the claim naming the other ("every NOT_YET_VALID rejection came from
node-7"), or "both" of two names one record names together with the claim's other names.

The cited calls are of an incident of their own: a mail relay whose three workers each
resent the same batch after a lock expired."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of, sql_result

WORKERS = sql_result(
    "SELECT worker, COUNT(id) AS resent, MAX(batch_ms) AS max_batch_ms FROM resends "
    "WHERE sent_at >= '2026-11-28 14:00:00' GROUP BY worker",
    ["worker", "resent", "max_batch_ms"],
    [
        ["relay-w1", 640, 1410],
        ["relay-w2", 640, 1388],
        ["relay-w3", 640, 1502],
        ["relay-w4", 3, 95],
    ],
)
"""Three workers resent 640 mails each, a fourth resent 3."""

RETRIES = sql_result(
    "SELECT worker, COUNT(id) AS retries, SUM(bytes) AS bytes FROM retries GROUP BY worker",
    ["worker", "retries", "bytes"],
    [["relay-w1", 15, 90210], ["relay-w2", 14, 88400], ["relay-w3", 14, 91020]],
)
"""Retries per worker."""

REFUSALS = sql_result(
    "SELECT worker, reason, COUNT(id) AS refusals FROM refusals GROUP BY worker, reason",
    ["worker", "reason", "refusals"],
    [["relay-w1", "RATE_LIMITED", 4], ["relay-w2", "RATE_LIMITED", 2],
     ["relay-w2", "LOCK_EXPIRED", 311]],
)  # fmt: skip
"""Refusals per worker and reason."""

POOLS = log_result(
    "relay-controller",
    "pool",
    [("pool <*> (<*>) moved to <*>", 1, "INFO", ["pool blue (relay-w1) moved to lock-v3"]),
     ("pool <*> (<*>) unchanged on <*>", 1, "INFO",
      ["pool green (relay-w2, relay-w3) unchanged on lock-v2"])],
)  # fmt: skip
"""Two pools, one of them holding two workers."""

CASES = [
    (
        "the same number in each row the claim counts",
        "Three of the four workers resent 640 each after 14:00, in under 1,600 ms.",
        "Three of the four workers resent 604 each after 14:00, in under 1,600 ms.",
        WORKERS,
    ),
    (
        "a bound is the column's edge",
        "All three workers had retries, each worker at least 14 of them.",
        "All three workers had retries, each worker at least 15 of them.",
        RETRIES,
    ),
    (
        "every row naming one name names the other",
        "Every LOCK_EXPIRED refusal came from relay-w2.",
        "Every LOCK_EXPIRED refusal came from relay-w1.",
        REFUSALS,
    ),
    (
        "both of two names one record holds together",
        "Both workers of the green pool, relay-w2 and relay-w3, stayed on lock-v2.",
        "Both workers of the green pool, relay-w2 and relay-w3, moved to lock-v3.",
        POOLS,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_quantifier_the_records_show(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family


def test_a_quantifier_over_a_word_no_row_tells_apart_is_still_refused() -> None:
    assert reason_of(SUPPORT, "Every refusal came from relay-w2.", REFUSALS) is not None
