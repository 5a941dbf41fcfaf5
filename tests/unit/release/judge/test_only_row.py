""" "Only <label> had <measure>" is shown by a result whose one row with that label is the
only row where the measure the claim names is not zero; another row with some of it makes
the claim false.

The cited calls are of an incident of their own: queue consumers, one of them dropping
messages."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

DROPS = sql_result(
    "SELECT consumer, SUM(dropped) AS dropped FROM consumer_minutes GROUP BY consumer",
    ["consumer", "dropped"],
    [["email-sender", 0], ["sms-sender", 318], ["push-sender", 0]],
)
SOME_DROPS = sql_result(
    "SELECT consumer, SUM(dropped) AS dropped FROM consumer_minutes GROUP BY consumer",
    ["consumer", "dropped"],
    [["email-sender", 4], ["sms-sender", 318], ["push-sender", 0]],
)


def test_only_the_row_with_the_measure_passes() -> None:
    honest = "Of the three consumers, only sms-sender dropped messages."
    assert reason_of(SUPPORT, honest, DROPS) is None


def test_only_a_row_when_another_has_some_is_refused() -> None:
    twin = "Of the three consumers, only sms-sender dropped messages."
    assert reason_of(SUPPORT, twin, SOME_DROPS) == "QUANTIFIER_UNSUPPORTED"
