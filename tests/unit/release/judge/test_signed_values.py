"""A negative value told as a size and a direction ("about 94.6 seconds behind" of an
``offset_ms`` of -94612.3): its magnitude grounds the claim's number, units converted, when
the claim says which way it goes; another size, another unit, or no direction at all is
still refused.

The cited call is of an incident of its own: a batch host whose clock drifted behind."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

OFFSETS = sql_result(
    "SELECT host, MIN(offset_ms) AS min_offset_ms FROM clock_samples GROUP BY host",
    ["host", "min_offset_ms"],
    [["batch-2", -94612.3], ["batch-3", 1.2]],
)


@pytest.mark.parametrize(
    ("honest", "twin"),
    [
        (
            "batch-2's clock ran about 94.6 seconds behind.",
            "batch-2's clock ran about 49.6 seconds behind.",
        ),
        ("batch-2's clock lagged by roughly 94.6 s.", "batch-2's clock lagged by roughly 94.6 ms."),
        ("batch-2's clock lagged by roughly 94.6 s.", "batch-2's clock measured 94.6 s."),
    ],
)
def test_a_negative_value_is_a_size_with_a_direction(honest: str, twin: str) -> None:
    assert reason_of(SUPPORT, honest, OFFSETS) is None
    assert reason_of(SUPPORT, twin, OFFSETS) is not None
