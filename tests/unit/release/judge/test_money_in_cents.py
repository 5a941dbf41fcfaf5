"""Money is a quantity: a column in cents (``amount_cents``) holds amounts a claim writes in
dollars ("$1,234.50"), summed or rounded as other measurements are; raw cents read as dollars
are refused. A number grouped by commas keeps its decimals ("1,234.5 ms").

The cited calls are of an incident of their own: refunds a payment provider failed."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

FAILED = sql_result(
    "SELECT region, COUNT(id) AS refunds, SUM(amount_cents) AS amount_cents FROM refunds "
    "WHERE status = 'failed' GROUP BY region ORDER BY region",
    ["region", "refunds", "amount_cents"],
    [["eu-west", 12, 123450], ["us-east", 19, 176575]],
)
LATENCY = sql_result(
    "SELECT MAX(latency_ms) AS latency_ms FROM refund_calls WHERE status = 'failed'",
    ["latency_ms"],
    [[1234.5]],
)


@pytest.mark.parametrize("amount", ["$1,234.50", "about $1,235", "123,450 cents"])
def test_a_cell_in_cents_written_in_dollars_passes(amount: str) -> None:
    honest = f"The 12 failed refunds in eu-west were worth {amount}."
    assert reason_of(SUPPORT, honest, FAILED) is None


@pytest.mark.parametrize("amount", ["$123,450", "$12,345.00", "about $2,235"])
def test_cents_read_as_dollars_or_a_changed_amount_is_refused(amount: str) -> None:
    twin = f"The 12 failed refunds in eu-west were worth {amount}."
    assert reason_of(SUPPORT, twin, FAILED) is not None


def test_a_total_of_amounts_in_cents_passes() -> None:
    honest = (
        "The failed refunds were worth $3,000.25 in all: $1,234.50 in eu-west and "
        "$1,765.75 in us-east."
    )
    assert reason_of(SUPPORT, honest, FAILED) is None


def test_a_miscomputed_total_is_refused() -> None:
    twin = (
        "The failed refunds were worth $4,000.25 in all: $1,234.50 in eu-west and "
        "$1,765.75 in us-east."
    )
    assert reason_of(SUPPORT, twin, FAILED) == "UNGROUNDED_NUMBER"


def test_a_number_grouped_by_commas_keeps_its_decimals() -> None:
    assert reason_of(SUPPORT, "The slowest failed refund call took 1,234.5 ms.", LATENCY) is None
    twin = "The slowest failed refund call took 1,324.5 ms."
    assert reason_of(SUPPORT, twin, LATENCY) == "UNGROUNDED_NUMBER"
