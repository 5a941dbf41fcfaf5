"""A number of a statement about one row, computed from the other rows and not from that
row ("91 k8s-east drains" when k8s-east holds 14 and 91 is two k8s-west rows added), is bound
to the wrong thing; the row's own numbers and totals over every row pass.

The cited call is of an incident of its own: node drains across two clusters."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

DRAINS = sql_result(
    "SELECT cluster, outcome, COUNT(id) AS drains FROM node_drains "
    "GROUP BY cluster, outcome ORDER BY cluster, outcome",
    ["cluster", "outcome", "drains"],
    [["k8s-east", "timed_out", 14], ["k8s-west", "done", 60], ["k8s-west", "timed_out", 31]],
)


def test_the_rows_own_number_passes() -> None:
    assert reason_of(SUPPORT, "k8s-east had 14 drains that timed out.", DRAINS) is None


def test_a_total_over_every_row_passes() -> None:
    honest = "Of all 105 drains, k8s-east had 14 that timed out."
    assert reason_of(SUPPORT, honest, DRAINS) is None


def test_a_sum_of_other_rows_is_refused() -> None:
    twin = "k8s-east had 91 drains that timed out."
    assert reason_of(SUPPORT, twin, DRAINS) == "RECORD_MISMATCH"
