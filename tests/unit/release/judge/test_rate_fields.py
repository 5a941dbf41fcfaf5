"""A rate whose unit is in a field's name (``publish_rps=80``, ``drain_per_min``, a
``read_qps`` column) is a count per that unit: the claim must give it per the same unit.

The cited calls are of an incident of their own: a push-notification fan-out throttled by
its provider."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.rate_fields import field_unit
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of, sql_result

THROTTLED = log_result(
    "push-fanout",
    "throttle applied",
    [
        ("throttle applied provider=<*> publish_rps=<*> previous_rps=<*>", 1, "INFO",
         ["throttle applied provider=apns publish_rps=80 previous_rps=400"]),
        ("throttle applied provider=<*> retry_after_seconds=<*>", 1, "INFO",
         ["throttle applied provider=fcm retry_after_seconds=30"]),
    ],
)  # fmt: skip
"""The fan-out to apns cut to 80 publishes a second; fcm asked for a 30 s back-off."""

QUEUE_DRAIN = sql_result(
    "SELECT queue, drained_per_min, read_qps FROM queue_minutes WHERE minute = "
    "'2026-11-28 14:40:00'",
    ["queue", "drained_per_min", "read_qps"],
    [["push-apns", 4800, 120]],
)
"""The apns queue drained 4,800 messages a minute while read at 120 queries a second."""

CASES = [
    (
        "a rate field of log text",
        "From 14:32 push-fanout publishes to apns at 80 messages per second, down from 400.",
        "From 14:32 push-fanout publishes to apns at 80 messages per minute, down from 400.",
        THROTTLED,
    ),
    (
        "an abbreviated rate",
        "push-fanout throttled apns to 80 rps, from 400.",
        "push-fanout throttled apns to 80 rpm, from 400.",
        THROTTLED,
    ),
    (
        "a per-minute column",
        "The push-apns queue drained 4,800 messages a minute at 14:40.",
        "The push-apns queue drained 4,800 messages a second at 14:40.",
        QUEUE_DRAIN,
    ),
    (
        "a qps column",
        "At 14:40 the push-apns queue was read 120 times per second.",
        "At 14:40 the push-apns queue was read 120 times per hour.",
        QUEUE_DRAIN,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_rate_is_given_per_the_unit_of_its_field(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) == "UNIT_MISMATCH", family


def test_a_unit_of_time_in_a_claim_labels_no_record() -> None:
    """ "per second" is no word of the fcm pattern's ``retry_after_seconds``."""
    claim = "apns publishes were capped at 80 per second."
    assert reason_of(SUPPORT, claim, THROTTLED) is None


@pytest.mark.parametrize(
    ("name", "unit"),
    [("publish_rps", 1e3), ("read_qps", 1e3), ("bytes_per_sec", 1e3), ("drained_per_min", 6e4),
     ("jobs_per_hour", 3.6e6), ("rpm", 6e4), ("steps", None), ("write_ops", None),
     ("retry_after_seconds", None)],
)  # fmt: skip
def test_the_unit_of_a_rate_field_is_read_from_its_name(name: str, unit: float | None) -> None:
    assert field_unit(name) == unit
