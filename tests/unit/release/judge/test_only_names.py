""" "Only <name>" is refused when the cited evidence says the same of another name; it
passes when the others' lines say something else, or when the claim names them too.

The cited calls are of an incident of their own: upstreams of an edge proxy, one of them
answering 503."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

UPSTREAMS = log_result(
    "edge-proxy",
    "upstream",
    [
        ("upstream <*> answered <*>", 140, "WARN",
         ["upstream cart-api answered 503", "upstream search-api answered 200"]),
        ("retrying upstream <*>", 40, "WARN",
         ["retrying upstream cart-api", "retrying upstream search-api"]),
    ],
)  # fmt: skip


def test_only_the_name_the_evidence_singles_out_passes() -> None:
    honest = "Only cart-api answered edge-proxy with a 503."
    assert reason_of(SUPPORT, honest, UPSTREAMS) is None
    honest = "edge-proxy retried only cart-api and search-api upstreams."
    assert reason_of(SUPPORT, honest, UPSTREAMS) is None


def test_only_a_name_the_evidence_says_the_same_of_is_refused() -> None:
    twin = "edge-proxy retried only cart-api as an upstream."
    assert reason_of(SUPPORT, twin, UPSTREAMS) == "QUANTIFIER_UNSUPPORTED"
