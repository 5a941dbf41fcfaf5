"""A causative verb ("X made Y scale out", "X, which made Y fall behind", "X is what restarts
Y") states a cause as "because" does: it needs the cause in the evidence and, in an
analysis, evidence that says why. The passive ("the change was made to web-pool", "made by
autoscaler") states none.

The cited calls are of an incident of their own: an autoscaler that oscillated between 4 and
12 web nodes while its CPU metric flapped."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

SCALING = log_result(
    "autoscaler",
    "scaled web-pool",
    [
        ("scaled web-pool from <*> to <*> nodes (cpu <*>%)", 6, "INFO",
         ["scaled web-pool from 4 to 12 nodes (cpu 91%)",
          "scaled web-pool from 12 to 4 nodes (cpu 18%)"]),
    ],
)  # fmt: skip
"""Six scaling actions of one pattern, with no reason stated."""

CASES = [
    (
        "a causative verb with its cause not in the evidence",
        "autoscaler scaled web-pool from 4 to 12 nodes at 91% cpu.",
        "A deploy made autoscaler scale web-pool from 4 to 12 nodes at 91% cpu.",
    ),
    (
        "a relative causative with no evidence saying why",
        "autoscaler scaled web-pool from 12 to 4 nodes at 18% cpu.",
        "autoscaler scaled web-pool from 12 to 4 nodes, which made cpu drop to 18%.",
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin"), CASES)
def test_a_causative_verb_needs_evidence_that_says_why(family: str, honest: str, twin: str) -> None:
    assert reason_of(SUPPORT, honest, SCALING) is None, family
    assert reason_of(SUPPORT, twin, SCALING) == "CAUSAL_UNSUPPORTED", family


def test_the_passive_states_no_cause() -> None:
    claim = "Six scaling changes of web-pool were made by autoscaler, from 4 to 12 nodes and back."
    assert reason_of(SUPPORT, claim, SCALING) != "CAUSAL_UNSUPPORTED"
