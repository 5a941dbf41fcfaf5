"""Numbers written as words are held as numbers in digits are: a spelled quantity with its
unit ("three hours"), a spelled count of times ("retried five times") and a multiplier of a
number the claim writes ("twice the 94 of the hour before").

The cited calls are of an incident of their own: nightly backups of a file server that
started to retry against a throttled object store."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.spelled import spelled_value
from tests.unit.release.judge.incidents import (
    SUPPORT,
    knowledge_result,
    log_result,
    reason_of,
    sql_result,
)

RETRIES = log_result(
    "backup-agent",
    "upload retried",
    [
        ("upload of <*> retried after HTTP 503 SlowDown", 4, "WARN",
         ["upload of vol-7.tar retried after HTTP 503 SlowDown"]),
    ],
)  # fmt: skip
"""Four retries, one pattern."""
POLICY = knowledge_result(
    "backup-agent retry policy",
    [("backup-agent: retries", "The agent waits 2min between retries and gives up after "
      "a backoff of 30min; a window of 6h is allowed for the nightly run.")],
)  # fmt: skip
HOURLY = sql_result(
    "SELECT hour, uploads FROM upload_hours WHERE hour >= '2026-11-20 01:00:00' ORDER BY hour",
    ["hour", "uploads"],
    [["2026-11-20 01:00:00", 51], ["2026-11-20 02:00:00", 104], ["2026-11-20 03:00:00", 160]],
)
"""Uploads per hour."""

CASES = [
    (
        "a spelled duration against a unit written in the runbook",
        "The agent waits two minutes between retries.",
        "The agent waits two hours between retries.",
        POLICY,
    ),
    (
        "a spelled duration after of",
        "The agent gives up after a backoff of thirty minutes.",
        "The agent gives up after a backoff of thirty hours.",
        POLICY,
    ),
    (
        "a spelled hyphenated duration",
        "The nightly run has a six-hour window.",
        "The nightly run has a six-minute window.",
        POLICY,
    ),
    (
        "a spelled count of times",
        "backup-agent retried an upload four times after HTTP 503 SlowDown.",
        "backup-agent retried an upload five times after HTTP 503 SlowDown.",
        RETRIES,
    ),
    (
        "twice the number before",
        "At 02:00 the server uploaded 104 files, twice the 51 of the hour before.",
        "At 02:00 the server uploaded 104 files, three times the 51 of the hour before.",
        HOURLY,
    ),
    (
        "a bound on a multiplier",
        "At 03:00 there were 160 uploads, more than three times the 51 at 01:00.",
        "At 03:00 there were 160 uploads, more than four times the 51 at 01:00.",
        HOURLY,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_spelled_number_is_held_as_its_digits(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) in {"UNGROUNDED_NUMBER", "UNIT_MISMATCH"}, family


@pytest.mark.parametrize(
    "claim",
    [
        "In each of the three hours from 01:00 there were more than 50 uploads.",
        "One of the retried uploads was vol-7.tar.",
        "The upload of vol-7.tar was retried at least three times after HTTP 503 SlowDown.",
    ],
)
def test_a_spelled_count_of_rows_or_buckets_is_left_to_the_record_rules(claim: str) -> None:
    assert reason_of(SUPPORT, claim, HOURLY, RETRIES) is None


def test_spelled_values() -> None:
    assert spelled_value("twice") == 2.0
    assert spelled_value("a  dozen") == 12.0
    assert spelled_value("half") == 0.5
    assert spelled_value("one") is None
