"""A verb right before "no" is denied with its object: "the autoscaler added no node" says
it did not add one, and agrees with evidence that it is "not adding node"; a claim that it
added nodes is still refused.

The cited calls are of an incident of their own: a cluster autoscaler held back by its
maximum size."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

HELD = log_result(
    "cluster-autoscaler",
    "max size reached",
    [
        ("pool <*> at max size reached: not adding node", 14, "INFO",
         ["pool gpu-a at max size reached: not adding node"]),
    ],
)  # fmt: skip


def test_a_verb_denied_by_no_agrees_with_not_doing_it() -> None:
    honest = "At max size, cluster-autoscaler added no node."
    assert reason_of(SUPPORT, honest, HELD) is None


def test_the_verb_affirmed_is_refused() -> None:
    twin = "At max size, cluster-autoscaler added a node."
    assert reason_of(SUPPORT, twin, HELD) == "POLARITY_MISMATCH"
