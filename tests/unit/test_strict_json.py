"""One strict JSON reader for tool arguments, drafts and raw tool results."""

from __future__ import annotations

import pytest

from factledger.application.contracts.draft import MalformedDraft, parse_draft
from factledger.application.contracts.envelope import LogsEnvelope
from factledger.application.contracts.parse import EnvelopeError, parse_envelope
from factledger.domain.strict_json import (
    DuplicateKey,
    NonStandardConstant,
    ObjectFault,
    decode_strict,
    object_fault,
)


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


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("[1, 2]", "NOT_AN_OBJECT"),
        ('"text"', "NOT_AN_OBJECT"),
        ("{} []", "NOT_JSON"),
        ('{"a": NaN}', "NOT_JSON"),
        ("[" * 20_000 + "]" * 20_000, "NOT_JSON"),
        ('{"a": 1, "a": 1}', "DUPLICATE_KEY"),
        ('{"a": {"b": []}}', None),
    ],
)
def test_a_draft_and_an_envelope_read_one_object_by_the_same_rule(
    text: str, fault: ObjectFault | None
) -> None:
    assert object_fault(text) == fault
    if fault is not None:
        assert parse_draft(text) == MalformedDraft(fault)
        assert parse_envelope(LogsEnvelope, text) == EnvelopeError(fault)
