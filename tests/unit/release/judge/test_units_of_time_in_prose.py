"""A unit of time after a number or "a"/"per" ("2,400 in 60 minutes", "about 40 a minute")
is a unit, not a word the evidence must hold: the claim's other words still must be.

The cited call is of an incident of its own: a payroll batch that generates payslips."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

PAYSLIPS = sql_result(
    "SELECT COUNT(id) AS payslips FROM payslips WHERE generated_at >= '2026-11-28 14:00:00'"
    " AND generated_at < '2026-11-28 15:00:00'",
    ["payslips"],
    [[2400]],
)
"""2,400 payslips in the hour."""


def test_a_rate_in_prose_is_covered_by_its_numbers() -> None:
    honest = "Payslips came out at about 40 a minute (2,400 in 60 minutes)."
    assert reason_of(SUPPORT, honest, PAYSLIPS) is None
    twin = "Payslips came out at about 60 a minute (2,400 in 60 minutes)."
    assert reason_of(SUPPORT, twin, PAYSLIPS) == "UNGROUNDED_NUMBER"


def test_units_of_time_do_not_cover_the_other_words() -> None:
    other = "Invoices were emailed at about 40 a minute (2,400 in 60 minutes)."
    assert reason_of(SUPPORT, other, PAYSLIPS) == "UNGROUNDED_TERMS"
