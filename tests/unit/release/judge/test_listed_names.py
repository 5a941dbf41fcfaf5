"""A hyphenated word listed with names of the cited calls ("cart-api, search-api and
promo-svc") is a name too: it must be in the cited calls like the others. A list of the
evidence's own names passes; a hyphenated ordinary word beside a name ("a read-only
replica") is still read as its words.

The cited calls are of an incident of their own: callers of a pricing service refused by
its new rate limit."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

LIMITED = log_result(
    "pricing-api",
    "rate limited",
    [
        ("request from <*> rate limited (quota 200/min)", 96, "WARN",
         ["request from cart-ui rate limited (quota 200/min)",
          "request from order-flow rate limited (quota 200/min)",
          "request from promo-batch rate limited (quota 200/min)"]),
    ],
)  # fmt: skip


def test_a_list_of_the_evidences_names_passes() -> None:
    honest = "Requests from cart-ui, order-flow and promo-batch were rate limited by pricing-api."
    assert reason_of(SUPPORT, honest, LIMITED) is None


def test_a_name_of_its_own_in_the_list_is_refused() -> None:
    twin = "Requests from cart-ui, order-flow and stock-sync were rate limited by pricing-api."
    assert reason_of(SUPPORT, twin, LIMITED) == "UNGROUNDED_ENTITY"
    twin = "Requests from cart-ui or stock-sync were rate limited by pricing-api."
    assert reason_of(SUPPORT, twin, LIMITED) == "UNGROUNDED_ENTITY"


def test_words_of_the_evidence_hyphenated_in_a_list_pass() -> None:
    honest = "Requests from cart-ui and order-flow were rate-limited by pricing-api."
    assert reason_of(SUPPORT, honest, LIMITED) is None
