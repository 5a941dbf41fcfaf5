"""A denied causative ("did not make payments fail") denies what it would have caused, not
its object: the payments happened, they did not fail. Such a denied cause is grounded by a
cited text that names the cause and denies the effect with causal wording ("so no payment
fails because of it"); an affirmed cause, a cause the text does not name, or an effect the
text affirms are still refused.

The cited calls are of an incident of their own: a checkout whose fraud-score upstream
answers slowly while the payments themselves go through."""

from __future__ import annotations

import pytest

from factledger.domain.release.judge.words import words
from tests.unit.release.judge.incidents import SUPPORT, knowledge_result, log_result, reason_of

SLOW_SCORES = log_result(
    "checkout-api",
    "Slow upstream fraud-score",
    [("Slow upstream fraud-score: answered in <*>", 4, "WARN",
      ["Slow upstream fraud-score: answered in 2.2s",
       "Slow upstream fraud-score: answered in 3.1s"])],
)  # fmt: skip
RUNBOOK = knowledge_result(
    "checkout-api fraud-score slow upstream",
    [
        ("checkout-api: card payments declined (PAY-DECLINE-02)",
         "A payment whose card issuer is unreachable fails with `IssuerUnavailable` and HTTP "
         "502; the payment is not retried."),
        ("checkout-api: slow fraud-score upstream",
         "Warnings `Slow upstream fraud-score` mean the scoring service answered in more than "
         "2 s. Payments still go through with the default score, so no payment fails because "
         "of it."),
    ],
)  # fmt: skip

HONEST = [
    pytest.param("The four slow fraud-score answers did not make payments fail: the runbook says "
                 "payments still go through with the default score.", id="did not make X fail"),
    pytest.param("The slow fraud-score upstream did not make payments fail, as the runbook says "
                 "payments still go through with the default score.", id="as the runbook says"),
]  # fmt: skip

TWINS = [
    pytest.param("The four slow fraud-score answers made payments fail: the runbook says "
                 "payments still go through with the default score.", id="the cause affirmed"),
    pytest.param("The unreachable card issuer did not make payments fail: the runbook says "
                 "payments still go through with the default score.", id="another cause"),
    pytest.param("The four slow fraud-score answers did not make payments fail: the runbook says "
                 "they fail with IssuerUnavailable.", id="an effect the evidence affirms"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_denied_cause_the_evidence_denies_too_is_grounded(claim: str) -> None:
    assert reason_of(SUPPORT, claim, SLOW_SCORES, RUNBOOK) is None


@pytest.mark.parametrize("claim", TWINS)
def test_an_affirmed_or_other_cause_stays_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, SLOW_SCORES, RUNBOOK) is not None


def test_a_denied_causative_denies_the_effect_not_its_object() -> None:
    marked = {w.raw: w.negated for w in words("The answers did not make quotes fail.")}
    assert marked == {"answers": False, "make": True, "quotes": False, "fail": True}
