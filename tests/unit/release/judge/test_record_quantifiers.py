"""A quantifier over every row of a result ("both relays", "all three of the slowest jobs")
must hold for each row: a row with another label, or with none of the measure the claim
names, refutes it.

The cited calls are of an incident of their own: mail relays deferring messages."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

BY_RELAY = sql_result(
    "SELECT relay, COUNT(id) AS messages, SUM(deferred) AS deferrals FROM deliveries "
    "WHERE sent_at >= '2026-11-28 14:00:00' GROUP BY relay ORDER BY relay",
    ["relay", "messages", "deferrals"],
    [["mx-east", 410, 0], ["mx-west", 395, 57]],
)
SLOWEST = sql_result(
    "SELECT job, queue, duration_ms FROM jobs ORDER BY duration_ms DESC LIMIT 3",
    ["job", "queue", "duration_ms"],
    [["j-881", "bulk", 91000], ["j-884", "bulk", 88000], ["j-102", "transactional", 41000]],
)
SAME_QUEUE = sql_result(
    "SELECT job, queue, duration_ms FROM jobs WHERE queue = 'bulk' ORDER BY duration_ms DESC "
    "LIMIT 3",
    ["job", "queue", "duration_ms"],
    [["j-881", "bulk", 91000], ["j-884", "bulk", 88000], ["j-879", "bulk", 85000]],
)


def test_both_rows_having_the_measure_is_accepted() -> None:
    assert reason_of(SUPPORT, "Both relays sent messages after 14:00.", BY_RELAY) is None


def test_both_rows_when_one_row_has_none_of_it_is_refused() -> None:
    assert reason_of(SUPPORT, "mx-west had deferrals after 14:00.", BY_RELAY) is None
    twin = "Both relays had deferrals after 14:00."
    assert reason_of(SUPPORT, twin, BY_RELAY) == "QUANTIFIER_UNSUPPORTED"


def test_all_of_the_rows_given_a_label_one_row_lacks_is_refused() -> None:
    twin = "All three of the slowest jobs ran on the bulk queue."
    assert reason_of(SUPPORT, twin, SLOWEST) == "QUANTIFIER_UNSUPPORTED"
    honest = "Two of the three slowest jobs ran on the bulk queue."
    assert reason_of(SUPPORT, honest, SLOWEST) is None


def test_all_of_the_rows_holding_the_label_is_accepted() -> None:
    honest = "All three of the slowest jobs ran on the bulk queue."
    assert reason_of(SUPPORT, honest, SAME_QUEUE) is None


def test_a_count_inside_one_row_is_not_a_quantifier_over_rows() -> None:
    honest = "All 57 deferrals were on mx-west."
    assert reason_of(SUPPORT, honest, BY_RELAY) is None


LAG = sql_result(
    "SELECT partition_id, MIN(lag) AS min_lag, MAX(lag) AS max_lag FROM lag_samples "
    "GROUP BY partition_id ORDER BY partition_id",
    ["partition_id", "min_lag", "max_lag"],
    [[0, 0, 900], [1, 0, 870], [2, 12, 910]],
)


def test_a_row_with_the_measure_in_another_column_still_has_it() -> None:
    assert reason_of(SUPPORT, "Lag grew on all three partitions.", LAG) is None


CHECKS = sql_result(
    "SELECT host, result, COUNT(id) AS checks FROM health_checks GROUP BY host, result",
    ["host", "result", "checks"],
    [["web-1", "ok", 30], ["web-2", "ok", 18], ["web-2", "timeout", 12]],
)


def test_part_of_a_count_a_whole_row_holds_is_refused() -> None:
    assert reason_of(SUPPORT, "web-1 answered ok on all 30 of its checks.", CHECKS) is None
    twin = "web-1 answered ok on only some of its 30 checks."
    assert reason_of(SUPPORT, twin, CHECKS) == "QUANTIFIER_UNSUPPORTED"
