"""A number of a grouped row is bound to it when the claim names that row's grouping words,
or when it names a word that row alone holds: "fra1.edge.example answered in 12 to 19 ms"
of the only fra1 row, its ``outcome`` left unsaid. A name two rows share does not pick one
out, and a grouping word of another row ("timed out") is still refused.

The cited call is of an incident of its own: edge health checks grouped by host and
outcome."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

CHECKS = sql_result(
    "SELECT host, outcome, COUNT(id) AS checks, MIN(latency_ms) AS min_ms, "
    "MAX(latency_ms) AS max_ms FROM health_checks WHERE checked_at >= '2026-10-06 08:00:00' "
    "GROUP BY host, outcome",
    ["host", "outcome", "checks", "min_ms", "max_ms"],
    [["fra1.edge.example", "HEALTHY", 120, 12, 19], ["ams2.edge.example", "HEALTHY", 40, 3, 5],
     ["ams2.edge.example", "TIMEOUT", 80, 900, 1200]],
)  # fmt: skip

HONEST = [
    pytest.param("fra1.edge.example kept answering its health checks in 12 to 19 ms.",
                 id="the row's own name"),
    pytest.param("ams2.edge.example passed 40 healthy checks in 3 to 5 ms.",
                 id="a shared name and the grouping word"),
]  # fmt: skip

TWINS = [
    pytest.param("ams2.edge.example kept answering its health checks in 12 to 19 ms.",
                 id="another row's numbers"),
    pytest.param("fra1.edge.example timed out on its health checks after 12 to 19 ms.",
                 id="another row's grouping word"),
    pytest.param("ams2.edge.example answered 40 health checks in 3 to 5 ms.",
                 id="a name two rows share"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_row_named_by_a_word_it_alone_holds_binds_its_numbers(claim: str) -> None:
    assert reason_of(SUPPORT, claim, CHECKS) is None


@pytest.mark.parametrize("claim", TWINS)
def test_a_row_not_picked_out_is_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, CHECKS) == "FILTER_MISMATCH"
