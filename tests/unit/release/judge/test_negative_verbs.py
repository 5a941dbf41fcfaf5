"""A negative observation worded with the searched action itself ("never retried an upload",
"did not evict any session", "no failover") is a no-match of that search when the verb, or
its noun written as one word, is a term of the cited query: it says what the search looked
for and did not find. Every other rule of a negative observation still holds: the service,
the window, every other term; a verb the query did not search ("never failed") stays broader.

The cited calls are of an incident of their own: a photo-sync mobile backend."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import NEGATIVE, log_result, reason_of

RETRIES = log_result("sync-worker", "retrying upload", [])
"""No retried upload in sync-worker's log, 14:00-15:00."""

EVICTIONS = log_result("session-cache", "evicting session", [])
"""No session eviction in session-cache's log, 14:00-15:00."""

FAILOVER = log_result("photo-db", "fail over to standby", [])
"""No failover of photo-db, 14:00-15:00."""

HONEST = [
    ("sync-worker never retried an upload between 14:00 and 15:00.", RETRIES),
    ("sync-worker did not retry any upload between 14:00 and 15:00 UTC.", RETRIES),
    ("session-cache did not evict a single session between 2 pm and 3 pm.", EVICTIONS),
    ("photo-db logged no failover to the standby between 14:00 and 15:00.", FAILOVER),
    ("photo-db never failed over to its standby from 14:00 to 15:00.", FAILOVER),
]

BROADER = [
    ("No service retried an upload between 14:00 and 15:00.", RETRIES),
    ("sync-worker never retried an upload.", RETRIES),
    ("sync-worker never failed between 14:00 and 15:00.", RETRIES),
    ("session-cache did not lose any session between 14:00 and 15:00.", EVICTIONS),
    ("sync-worker's uploads did not happen between 14:00 and 15:00.", RETRIES),
    ("photo-db never went down between 14:00 and 15:00.", FAILOVER),
]


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_the_searched_action_denied_is_a_no_match(claim: str, cited: object) -> None:
    assert reason_of(NEGATIVE, claim, cited) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("claim", "cited"), BROADER)
def test_a_denial_beyond_the_search_stays_broader(claim: str, cited: object) -> None:
    assert reason_of(NEGATIVE, claim, cited) is not None  # type: ignore[arg-type]
