"""A percentage written beside the fraction it is computed from is that fraction, and a
multiplier beside two measurements is their ratio, not any ratio found in the evidence.

The cited calls are of an incident of their own: a CDN purge queue that backed up."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

PURGES = sql_result(
    "SELECT COUNT(id) AS purges, SUM(CASE WHEN state = 'expired' THEN 1 ELSE 0 END) AS expired "
    "FROM purge_jobs WHERE queued_at >= '2026-11-28 14:00:00'",
    ["purges", "expired", "workers"],
    [[240, 180, 12]],
)
WAITS = sql_result(
    "SELECT phase, MAX(wait_ms) AS max_wait_ms FROM purge_jobs GROUP BY phase ORDER BY phase",
    ["phase", "max_wait_ms"],
    [["after", 5400], ["before", 120]],
)
CPU = sql_result(
    "SELECT node, cpu_pct, busy_cores, cores FROM edge_nodes WHERE cpu_pct > 90",
    ["node", "cpu_pct", "busy_cores", "cores"],
    [["edge-7", 96, 3, 4]],
)


def test_a_share_beside_its_fraction_is_that_fraction() -> None:
    assert reason_of(SUPPORT, "180 of the 240 purges expired, about 75%.", PURGES) is None
    assert reason_of(SUPPORT, "Purges expired: 180 of 240 (75%).", PURGES) is None


def test_the_complement_of_the_fraction_is_accepted() -> None:
    assert reason_of(SUPPORT, "180 of the 240 purges expired; 25% went through.", PURGES) is None


def test_a_share_that_is_not_its_fraction_is_refused() -> None:
    # 12 / 240 = 5 % and 180 / 240 = 75 %: the twin's 5 % is a ratio of the evidence, but not
    # the one the claim writes
    twin = "180 of the 240 purges expired, about 5%."
    assert reason_of(SUPPORT, twin, PURGES) == "UNGROUNDED_NUMBER"
    assert reason_of(SUPPORT, "Purges expired: 180 of 240 (57%).", PURGES) == "UNGROUNDED_NUMBER"


def test_a_share_with_a_bound_is_read_on_its_side() -> None:
    assert reason_of(SUPPORT, "180 of 240 purges expired, more than 70%.", PURGES) is None
    twin = "180 of 240 purges expired, more than 80%."
    assert reason_of(SUPPORT, twin, PURGES) == "UNGROUNDED_NUMBER"


def test_a_percentage_the_evidence_holds_is_not_read_as_a_share() -> None:
    assert reason_of(SUPPORT, "edge-7 ran at 96% CPU with 3 of its 4 cores busy.", CPU) is None
    twin = "edge-7 ran at 69% CPU with 3 of its 4 cores busy."
    assert reason_of(SUPPORT, twin, CPU) == "UNGROUNDED_NUMBER"


def test_a_multiplier_beside_two_measurements_is_their_ratio() -> None:
    honest = "The longest wait went from 120 ms to 5,400 ms, 45 times longer."
    assert reason_of(SUPPORT, honest, WAITS) is None
    bounded = "The longest wait went from 120 ms to 5,400 ms, more than 40 times longer."
    assert reason_of(SUPPORT, bounded, WAITS) is None


def test_a_multiplier_that_is_not_their_ratio_is_refused() -> None:
    twin = "The longest wait went from 120 ms to 5,400 ms, more than 50 times longer."
    assert reason_of(SUPPORT, twin, WAITS) == "UNGROUNDED_NUMBER"
    twin = "The longest wait went from 120 ms to 5,400 ms, roughly 4 times longer."
    assert reason_of(SUPPORT, twin, WAITS) == "UNGROUNDED_NUMBER"


def test_a_count_of_times_is_no_multiplier() -> None:
    assert reason_of(SUPPORT, "The queue expired 180 purges, 180 times in all.", PURGES) is None


def test_a_word_of_proportion_agrees_with_the_fraction_written() -> None:
    assert reason_of(SUPPORT, "Most purges expired: 180 of 240.", PURGES) is None
    twin = "Most purges went through: 60 of 240."
    assert reason_of(SUPPORT, twin, PURGES) == "QUANTIFIER_UNSUPPORTED"


def test_the_most_and_at_most_are_no_proportion() -> None:
    assert reason_of(SUPPORT, "The queue expired the most purges, 180 of 240.", PURGES) is None
