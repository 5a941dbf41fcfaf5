"""How many of a ranking a claim names ("the three slowest origins", "top 5", "four of the
worst minutes") is the number of rows the cited SQL returned: a LIMIT asks for at most that
many, the rows are what was found. Spelled or in digits alike.

The cited calls are of an incident of their own: a CDN whose origins slowed down after a
certificate rotation."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

SLOWEST = sql_result(
    "SELECT origin, p99_ms FROM origin_stats ORDER BY p99_ms DESC LIMIT 3",
    ["origin", "p99_ms"],
    [["img-eu-2", 2310], ["img-eu-1", 2244], ["img-us-4", 1980]],
)
"""The three slowest origins, asked for as the top three."""

FEW = sql_result(
    "SELECT origin, p99_ms FROM origin_stats WHERE p99_ms > 1500 ORDER BY p99_ms DESC LIMIT 10",
    ["origin", "p99_ms"],
    [["img-eu-2", 2310], ["img-eu-1", 2244]],
)
"""Ten asked for, two found."""

CASES = [
    (
        "spelled, the LIMIT returned in full",
        "The three slowest origins were led by img-eu-2 at 2310 ms.",
        "The ten slowest origins were led by img-eu-2 at 2310 ms.",
        SLOWEST,
    ),
    (
        "top N in digits",
        "Of the top 3 origins by p99, img-eu-2 was the slowest at 2310 ms.",
        "Of the top 5 origins by p99, img-eu-2 was the slowest at 2310 ms.",
        SLOWEST,
    ),
    (
        "N of the worst",
        "img-eu-2 and img-eu-1 are two of the worst origins, both over 2,200 ms.",
        "img-eu-2 and img-eu-1 are two of the ten worst origins, both over 2,200 ms.",
        FEW,
    ),
    (
        "fewer rows than the LIMIT",
        "The two slowest origins were above 1500 ms, img-eu-2 at 2310 ms.",
        "The ten slowest origins were above 1500 ms, img-eu-2 at 2310 ms.",
        FEW,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_ranking_counts_the_rows_returned(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family
