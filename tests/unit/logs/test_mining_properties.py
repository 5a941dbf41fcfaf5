"""Properties of template mining that hold for any input (hypothesis)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.redaction.word_shapes import ZERO_DIGITS
from factledger.domain.logs.template_merge import merge_templates
from factledger.domain.logs.templates import mask_word
from tests.unit.logs.mining_corpora import styled_messages

_LITERAL = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", min_size=3, max_size=8)
_VALUE = st.from_regex(r"[0-9][0-9a-zA-Z_.:\-]{0,10}[0-9a-zA-Z]", fullmatch=True)
_WORD = st.text(alphabet="ab01.:=_-/()[]\"',<>*KB", min_size=1, max_size=14)


@given(_WORD)
def test_masking_depends_only_on_where_the_digits_are(word: str) -> None:
    assert mask_word(word) == mask_word(word.translate(ZERO_DIGITS))


@st.composite
def _template_and_fillings(draw: st.DrawFn) -> tuple[list[str | None], list[list[str]]]:
    words: list[str | None] = draw(
        st.lists(st.one_of(_LITERAL, st.none()), min_size=2, max_size=8).filter(
            lambda items: (
                any(item is None for item in items) and sum(item is not None for item in items) >= 2
            )
        )
    )
    slots = sum(word is None for word in words)
    fillings = draw(
        st.lists(st.lists(_VALUE, min_size=slots, max_size=slots), min_size=2, max_size=12)
    )
    return words, fillings


@settings(max_examples=60, deadline=None)
@given(_template_and_fillings())
def test_masking_a_variable_token_never_splits_a_template(
    case: tuple[list[str | None], list[list[str]]],
) -> None:
    words, fillings = case
    messages = []
    for values in fillings:
        filled = iter(values)
        messages.append(" ".join(word if word is not None else next(filled) for word in words))
    assert len(set(mine_templates(messages))) == 1


@settings(max_examples=25, deadline=None)
@given(st.permutations(styled_messages()))
def test_the_templates_of_a_batch_do_not_depend_on_its_order(messages: list[str]) -> None:
    reference = styled_messages()
    expected = dict(zip(reference, mine_templates(reference), strict=True))
    assert dict(zip(messages, mine_templates(messages), strict=True)) == expected


def _as_pattern(template: str) -> re.Pattern[str]:
    parts = [re.escape(part) for part in template.split("<*>")]
    return re.compile(".+?".join(parts) + r"\Z", re.DOTALL)


_MASKED_WORD = st.one_of(st.sampled_from(["<*>", "key=<*>", "x<*>"]), _LITERAL)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(_MASKED_WORD, min_size=1, max_size=6), min_size=1, max_size=30))
def test_a_merge_only_generalises_and_a_second_merge_changes_nothing(
    rows: list[list[str]],
) -> None:
    templates = [" ".join(row) for row in rows]
    merged = merge_templates(templates)
    for template, target in merged.items():
        assert _as_pattern(target).match(template) is not None, (template, target)
    again = merge_templates(merged.values())
    assert all(again[target] == target for target in merged.values())
