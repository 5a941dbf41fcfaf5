"""A status code the cited search asked for (``status=502``), written as one thing ("the
first payments 502", "failed with 502 because", "before the 502 came back"), names the
response status: it is no count of the result. Written as a count ("502 failed requests",
"the 502 lines", "502 of them") it is still refused, as is a code the call does not hold.

The cited call is of an incident of its own: a payments API whose card-network proxy
answers 502 while its upstream connection pool is exhausted."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

PROXY_502 = log_result(
    "payments-api",
    "status=502",
    [
        ("POST <*> failed status=<*> in <*>: upstream pool exhausted (card-proxy)", 41, "ERROR",
         ["POST /v3/charges failed status=502 in 2003ms: upstream pool exhausted (card-proxy)",
          "POST /v3/charges failed status=502 in 2001ms: upstream pool exhausted (card-proxy)"]),
    ],
)  # fmt: skip

HONEST = [
    pytest.param("The first payments 502 was logged at 14:32:05 UTC.", id="the first NAME 502"),
    pytest.param("POST /v3/charges failed with 502 after about 2 s.", id="with 502"),
    pytest.param("Each failed charge hung for about 2 s (2003ms) before the 502 came back.",
                 id="the 502 came back"),
]  # fmt: skip

TWINS = [
    pytest.param("payments-api logged 502 failed charges.", id="a count, adjective and plural"),
    pytest.param("All 41 of the 502 lines were logged at ERROR level.", id="the 502 lines"),
    pytest.param("The first payments 504 was logged at 14:32:05 UTC.", id="a code not held"),
    pytest.param("POST /v3/charges failed with 500 after about 2 s.", id="another code after with"),
]  # fmt: skip


@pytest.mark.parametrize("claim", HONEST)
def test_a_searched_code_named_as_one_thing_is_the_status(claim: str) -> None:
    assert reason_of(SUPPORT, claim, PROXY_502) is None


@pytest.mark.parametrize("claim", TWINS)
def test_a_searched_code_written_as_a_count_or_another_code_is_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, PROXY_502) is not None
