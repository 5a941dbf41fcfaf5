"""A count of grouped things ("only one warehouse", "all three carriers", "both docks") is
the number of groups of the cited SQL result.

The cited calls are of an incident of their own: a warehouse pick-list service whose scans
fail at some docks."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

SCAN_ERRORS = sql_result(
    "SELECT dock, COUNT(id) AS scan_errors FROM scans WHERE outcome = 'error' AND "
    "scanned_at >= '2026-11-28 14:00:00' GROUP BY dock ORDER BY dock",
    ["dock", "scan_errors"],
    [["dock-a", 31], ["dock-c", 12]],
)
"""Scan errors at two docks."""

CASES = [
    ("a spelled count", "Only two docks had scan errors after 14:00: dock-a and dock-c.",
     "Only one dock had scan errors after 14:00: dock-a."),
    ("both", "Both docks with scan errors after 14:00 are dock-a and dock-c.",
     "All three docks had scan errors after 14:00."),
]  # fmt: skip


@pytest.mark.parametrize(("family", "honest", "twin"), CASES)
def test_a_count_of_groups_is_the_number_of_rows(family: str, honest: str, twin: str) -> None:
    assert reason_of(SUPPORT, honest, SCAN_ERRORS) is None, family
    assert reason_of(SUPPORT, twin, SCAN_ERRORS) == "QUANTIFIER_UNSUPPORTED", family


def test_a_count_of_other_things_is_left_to_the_other_rules() -> None:
    claim = "Only one pick-list service, dock-a's, logged 31 scan errors after 14:00."
    assert reason_of(SUPPORT, claim, SCAN_ERRORS) != "QUANTIFIER_UNSUPPORTED"


def test_a_count_in_digits_counts_rows_not_groups() -> None:
    """ "all 31 scan errors": what the rows count, not how many docks."""
    claim = "All 31 scan errors at dock-a came after 14:00."
    assert reason_of(SUPPORT, claim, SCAN_ERRORS) != "QUANTIFIER_UNSUPPORTED"
