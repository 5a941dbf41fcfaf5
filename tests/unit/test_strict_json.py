"""One strict JSON reader for tool arguments, drafts and raw tool results."""

from __future__ import annotations

import pytest

from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.domain.strict_json import DuplicateKey, NonStandardConstant, decode_strict


def test_a_key_given_twice_is_refused_at_any_depth() -> None:
    with pytest.raises(DuplicateKey):
        decode_strict('{"a": {"b": 1, "b": 2}}')


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_the_constants_json_does_not_have_are_refused(constant: str) -> None:
    with pytest.raises(NonStandardConstant):
        decode_strict(f'{{"value": {constant}}}')


def test_plain_json_is_read_as_json() -> None:
    assert decode_strict('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


def test_a_draft_with_nan_is_not_json() -> None:
    text = '{"conclusion": "x", "analyses": [], "confidence": NaN}'
    assert parse_draft(text) == MalformedDraft("NOT_JSON")


def test_a_draft_naming_a_key_twice_says_so() -> None:
    text = '{"conclusion": "x", "conclusion": "y", "analyses": []}'
    assert parse_draft(text) == MalformedDraft("DUPLICATE_KEY")
