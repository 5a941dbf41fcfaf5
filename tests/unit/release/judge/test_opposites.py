"""A claim that affirms the contrary of its evidence in another word ("requests hit the edge
cache" of ``edge cache miss``) reverses it; the evidence's own word, or the contrary denied,
passes.

The cited calls are of an incident of their own: a CDN edge cache that went cold."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

MISSES = log_result(
    "edge-proxy",
    "edge cache miss",
    [
        ("edge cache miss for <*>; fetching from origin", 310, "WARN",
         ["edge cache miss for /img/logo.png; fetching from origin"]),
    ],
)  # fmt: skip
DENIED = log_result(
    "auth-proxy",
    "token denied",
    [
        ("token denied for client <*>: signature expired", 88, "WARN",
         ["token denied for client web-7: signature expired"]),
    ],
)  # fmt: skip


def test_the_evidences_own_word_passes() -> None:
    honest = "Requests to edge-proxy missed the edge cache and were fetched from origin."
    assert reason_of(SUPPORT, honest, MISSES) is None
    assert reason_of(SUPPORT, "auth-proxy denied tokens of client web-7.", DENIED) is None


def test_the_contrary_word_is_refused() -> None:
    twin = "Requests to edge-proxy hit the edge cache and were fetched from origin."
    assert reason_of(SUPPORT, twin, MISSES) == "POLARITY_MISMATCH"
    twin = "auth-proxy accepted tokens of client web-7."
    assert reason_of(SUPPORT, twin, DENIED) == "POLARITY_MISMATCH"


def test_the_contrary_word_denied_is_left_to_polarity() -> None:
    honest = "Requests to edge-proxy did not hit the edge cache and were fetched from origin."
    assert reason_of(SUPPORT, honest, MISSES) is None
