"""A flag the cited SQL keeps off (``resolver_reachable = 0``) denies its name as a whole: a
claim affirming every word of it ("its resolver reachable 8 times") is POLARITY_MISMATCH,
while one that affirms a part and denies the rest in its own words ("its resolver
unreachable") agrees. A clause that is only a name (``resolver_probes.resolver_reachable``,
a column the query read) affirms nothing, so it does not outweigh that denial.

The cited call is of an incident of its own: resolver probes of a node that lost DNS."""

from __future__ import annotations

from typing import cast

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

PROBES = sql_result(
    "SELECT host, COUNT(id) AS probes, MIN(probed_at) AS first_at FROM resolver_probes "
    "WHERE resolver_reachable = 0 GROUP BY host",
    ["host", "probes", "first_at"],
    [["node-3", 8, "2026-10-10 07:12:00"]],
)
cast("JsonObject", PROBES["scope"])["columns"] = [
    "resolver_probes.host",
    "resolver_probes.id",
    "resolver_probes.resolver_reachable",
    "resolver_probes.probed_at",
]


def test_a_part_affirmed_and_the_rest_denied_agrees() -> None:
    claim = "node-3's probes show its resolver unreachable 8 times since 07:12."
    assert reason_of(SUPPORT, claim, PROBES) is None


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param("node-3's probes show its resolver reachable 8 times since 07:12.",
                     id="every word affirmed"),
        pytest.param("node-3's resolver was reachable on 8 probes since 07:12.", id="reworded"),
    ],
)  # fmt: skip
def test_a_name_denied_as_a_whole_is_not_affirmed(claim: str) -> None:
    assert reason_of(SUPPORT, claim, PROBES) == "POLARITY_MISMATCH"
