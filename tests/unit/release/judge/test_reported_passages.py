"""What a claim says a runbook says is said in one passage of it: a statement reported with
"the runbook says" or "according to the runbook" is held by one item of a list (or one
excerpt), read with its title. A cause of one known cause put with the effect of another,
or an effect borrowed from another item, is refused; a remedy reported over several steps
is not held to one step.

The cited call is of an incident of its own: a runbook on Kafka producers blocked by a
broker, its known causes written as a list and its remedy as numbered steps."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, knowledge_result, reason_of

RUNBOOK = knowledge_result(
    "kafka producers NOT_ENOUGH_REPLICAS broker disk",
    [
        ("kafka: producers blocked by a broker",
         "- **Broker disk full.** When a broker's log volume fills, the broker stops accepting "
         "writes and producers see NOT_ENOUGH_REPLICAS. - **Expired client certificate.** "
         "Clients fail the TLS handshake and reconnect every few seconds."),
        ("kafka: producers blocked by a broker",
         "1. Lower `retention.bytes` on the largest topics. 2. Add a broker to the rack "
         "before the next peak. 3. Do not restart the brokers one after another."),
    ],
)  # fmt: skip

HONEST = [
    pytest.param("The runbook says that when a broker's log volume fills, producers see "
                 "NOT_ENOUGH_REPLICAS.", id="one item"),
    pytest.param("The runbook says producers are blocked once a broker's log volume fills.",
                 id="an item with its title"),
    pytest.param("According to the runbook, a full broker disk stops the broker from accepting "
                 "writes.", id="according to"),
    pytest.param("The runbook says to lower retention.bytes on the largest topics and add a "
                 "broker to the rack.", id="a remedy over two steps"),
]  # fmt: skip

TWINS = [
    pytest.param("The runbook says that when a client certificate expires, producers see "
                 "NOT_ENOUGH_REPLICAS.", id="the cause of another item"),
    pytest.param("The runbook says that when a broker's log volume fills, producers reconnect "
                 "every few seconds.", id="the effect of another item"),
    pytest.param("According to the runbook, an expired client certificate stops the broker from "
                 "accepting writes.", id="according to, another cause"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_statement_of_one_passage_is_grounded(claim: str) -> None:
    assert reason_of(SUPPORT, claim, RUNBOOK) is None


@pytest.mark.parametrize("claim", TWINS)
def test_a_statement_made_of_two_passages_is_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, RUNBOOK) == "UNGROUNDED_TERMS"
