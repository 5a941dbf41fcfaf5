"""A call read once is remembered by what it holds: the same result and scope read again (a
draft checked, then released) is the view read then, and nothing a caller changes in its
values afterwards reaches the remembered view."""

from __future__ import annotations

import copy

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.claims import parse_claim
from factledger.domain.release.judge.evidence import view_of

RESULT: JsonObject = {
    "matched_count": 46,
    "patterns": [{"template": "order <*> failed: GW-504 acquirer pool exhausted", "count": 46}],
}
SCOPE: JsonObject = {"service": "card-gateway", "query": "GW-504"}


def test_the_same_result_and_scope_read_again_is_the_view_read_before() -> None:
    first = view_of(copy.deepcopy(RESULT), copy.deepcopy(SCOPE))
    assert view_of(copy.deepcopy(RESULT), copy.deepcopy(SCOPE)) is first


def test_another_result_or_scope_is_another_view() -> None:
    other: JsonObject = {**RESULT, "matched_count": 47}
    assert view_of(other, SCOPE) is not view_of(RESULT, SCOPE)
    assert view_of(RESULT, {**SCOPE, "service": "payments-api"}) is not view_of(RESULT, SCOPE)


def test_a_result_changed_after_it_was_read_leaves_the_remembered_view_as_it_was() -> None:
    content = copy.deepcopy(RESULT)
    content["note"] = "first reading"
    view = view_of(content, SCOPE)
    content["note"] = "a later change"
    assert "first reading" in view.text
    assert "a later change" not in view_of(copy.deepcopy(view.content), SCOPE).text


def test_a_parsed_claim_is_remembered_by_its_text() -> None:
    claim = "46 orders failed with GW-504 since 14:32 UTC"
    assert parse_claim(claim) is parse_claim("46 orders failed with GW-504 since 14:32 UTC")
