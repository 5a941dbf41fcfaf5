"""Numbers of several rows in one clause, in the order the clause names the rows ("lyon had
three times as many failed calls as nantes (27 vs 9)"), are bound respectively; swapped, they
are refused.

The cited call is of an incident of its own: a parcel-locker API failing at some sites."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

FAILED_BY_SITE = sql_result(
    "SELECT site, COUNT(id) AS failed FROM locker_calls WHERE outcome = 'failed' AND "
    "called_at >= '2026-11-28 14:00:00' GROUP BY site ORDER BY site",
    ["site", "failed"],
    [["lyon", 27], ["nantes", 9]],
)


def test_numbers_in_the_order_of_their_rows_are_bound_respectively() -> None:
    honest = "lyon had three times as many failed calls as nantes (27 vs 9)."
    assert reason_of(SUPPORT, honest, FAILED_BY_SITE) is None


def test_numbers_swapped_against_their_rows_are_refused() -> None:
    twin = "lyon had a third as many failed calls as nantes (9 vs 27)."
    assert reason_of(SUPPORT, twin, FAILED_BY_SITE) == "FILTER_MISMATCH"


def test_one_number_beside_another_row_stays_refused() -> None:
    twin = "lyon had 9 failed calls while nantes had more."
    assert reason_of(SUPPORT, twin, FAILED_BY_SITE) == "FILTER_MISMATCH"


def test_a_multiplier_is_a_ratio_of_the_numbers() -> None:
    assert (
        reason_of(SUPPORT, "lyon had 3x as many failed calls as nantes (27 vs 9).", FAILED_BY_SITE)
        is None
    )
    twin = "lyon had 4x as many failed calls as nantes (27 vs 9)."
    assert reason_of(SUPPORT, twin, FAILED_BY_SITE) == "UNGROUNDED_NUMBER"
