"""A negative observation that names what was searched in the words a model writes: a
searched ``status=503`` named as "no more 503s", and a search for a message on one host
(``Connection reset ledger-db-2``) whose host is the claim's subject ("ledger-db-2 never
logged a Connection reset ...") in place of the service. The twin one edit away (the
opposite polarity, another window, a subject that is no searched name) is still refused.

The cited calls are of an incident of their own: a ledger API and its database hosts."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import NEGATIVE, log_result, reason_of

NO_LATE_503 = log_result(
    "ledger-api", "status=503", [],
    start="2026-11-28T14:40:00.000Z", end="2026-11-28T15:00:00.000Z",
)  # fmt: skip
NO_RESET_ON_DB2 = log_result("ledger-api", "Connection reset ledger-db-2", [])


@pytest.mark.parametrize(
    "honest",
    [
        "After 14:40 UTC ledger-api returned no more 503s, right up to 15:00.",
        "ledger-api logged no 503s between 14:40 and 15:00 UTC.",
    ],
)
def test_a_code_named_in_the_plural_passes(honest: str) -> None:
    assert reason_of(NEGATIVE, honest, NO_LATE_503) is None


@pytest.mark.parametrize(
    ("twin", "reason"),
    [
        ("After 14:40 UTC ledger-api kept returning 503s, right up to 15:00.", "POLARITY_MISMATCH"),
        ("After 14:20 UTC ledger-api returned no more 503s, right up to 15:00.",
         "NEGATIVE_BROADER_THAN_SCOPE"),
        ("After 14:40 UTC ledger-api returned no more 502s, right up to 15:00.",
         "NEGATIVE_BROADER_THAN_SCOPE"),
    ],
)  # fmt: skip
def test_a_code_with_its_claim_changed_is_refused(twin: str, reason: str) -> None:
    assert reason_of(NEGATIVE, twin, NO_LATE_503) == reason


@pytest.mark.parametrize(
    "honest",
    [
        "ledger-db-2 never logged a Connection reset between 14:00 and 15:00 UTC.",
        "ledger-db-2 logged no Connection reset between 2 pm and 3 pm UTC.",
    ],
)
def test_the_searched_host_as_the_subject_passes(honest: str) -> None:
    assert reason_of(NEGATIVE, honest, NO_RESET_ON_DB2) is None


@pytest.mark.parametrize(
    "twin",
    [
        "ledger-db-2 also logged Connection reset errors between 14:00 and 15:00 UTC.",
        "No ledger host logged a Connection reset between 14:00 and 15:00 UTC.",
        "ledger-db-2 never logged a Connection reset.",
    ],
)
def test_the_searched_host_with_its_claim_changed_is_refused(twin: str) -> None:
    assert reason_of(NEGATIVE, twin, NO_RESET_ON_DB2) is not None
