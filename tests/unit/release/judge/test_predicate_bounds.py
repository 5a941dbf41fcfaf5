"""A bound the claim writes ("longer than 10 minutes", "within 2 GB", "at least 30 s") is
compared with the numeric filters of the cited SQL as a bound, in the unit the filter's
column names: the query's own bound is named, a looser one or the bound facing the other way
speaks of rows the query never searched.

The cited calls are of an incident of their own: batch uploads to an object store slowed
down by throttling, read from a table of transfer jobs."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import NEGATIVE, SUPPORT, reason_of, sql_result

SLOW = sql_result(
    "SELECT job, duration_s FROM transfers WHERE bucket = 'media-eu' AND duration_s > 600",
    ["job", "duration_s"],
    [["thumbs-sync", 1840]],
)
"""One transfer into media-eu lasted over 600 s."""
NONE_SLOW = sql_result(
    "SELECT job, duration_s FROM transfers WHERE bucket = 'media-us' AND duration_s > 600",
    ["job", "duration_s"],
    [],
)
"""None into media-us did."""
NONE_SMALL = sql_result(
    "SELECT job, size_mb FROM transfers WHERE bucket = 'media-us' AND size_mb < 2048",
    ["job", "size_mb"],
    [],
)
"""No transfer into media-us was under 2048 MB."""

SUPPORTED = [
    (
        "the query's bound in another unit",
        "thumbs-sync was the only transfer into media-eu that ran longer than 10 minutes.",
        "thumbs-sync was the only transfer into media-eu that ran longer than 1 minute.",
    ),
    (
        "the bound spelled",
        "thumbs-sync was the only transfer into media-eu that took more than ten minutes.",
        "thumbs-sync was the only transfer into media-eu that took more than two minutes.",
    ),
    (
        "the bound facing the other way",
        "thumbs-sync was the only transfer into media-eu that ran longer than 600 s.",
        "thumbs-sync was the only transfer into media-eu that ran for less than 600 s.",
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin"), SUPPORTED)
def test_a_bound_of_a_supporting_claim_faces_the_query(family: str, honest: str, twin: str) -> None:
    assert reason_of(SUPPORT, honest, SLOW) is None, family
    assert reason_of(SUPPORT, twin, SLOW) == "FILTER_MISMATCH", family


def test_a_tighter_bound_is_a_bound_on_the_rows_found() -> None:
    assert reason_of(SUPPORT, "thumbs-sync ran into media-eu for over 30 minutes.", SLOW) is None


NEGATIVES = [
    (
        "a bound in minutes over a column in seconds",
        "No transfer into media-us ran longer than 10 minutes.",
        "No transfer into media-us ran longer than 60 seconds.",
        NONE_SLOW,
    ),
    (
        "a denial of the searched bound",
        "Transfers into media-us never ran for more than 10 minutes.",
        "Transfers into media-us never ran for more than 1 minute.",
        NONE_SLOW,
    ),
    (
        "a bound facing down, in GB",
        "No transfer into media-us was smaller than 2 GB.",
        "No transfer into media-us was smaller than 20 GB.",
        NONE_SMALL,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), NEGATIVES)
def test_a_negative_observation_names_the_query_bound_in_any_unit(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(NEGATIVE, honest, cited) is None, family
    assert reason_of(NEGATIVE, twin, cited) == "NEGATIVE_BROADER_THAN_SCOPE", family
