"""A generic trouble word the claim denies ("did not fail", "without an error") needs no
trouble in the evidence: rows that show only successes support it. The same word affirmed
still needs trouble in the evidence.

The cited calls are of an incident of their own: exports of one region that all
succeeded."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

EXPORTS = sql_result(
    "SELECT http_status, COUNT(id) AS exports FROM report_exports WHERE region = 'APAC' "
    "GROUP BY http_status",
    ["http_status", "exports"],
    [[200, 57]],
)


def test_a_denied_failure_over_successes_passes() -> None:
    honest = "Report exports did not fail for APAC: all 57 got HTTP 200."
    assert reason_of(SUPPORT, honest, EXPORTS) is None


def test_an_affirmed_failure_over_successes_is_refused() -> None:
    twin = "Report exports failed for APAC: all 57 got HTTP 200."
    assert reason_of(SUPPORT, twin, EXPORTS) == "UNGROUNDED_TERMS"
