"""The indexed batch merge gives exactly what the plain one gives (``merge_reference``), on
template sets built to merge: families of one template with words replaced, inserted and
removed, variables in brackets, quotes, ``key=`` words and units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.logs import template_gaps
from factledger.domain.logs.template_gaps import absorb, merge_gaps
from factledger.domain.logs.template_merge import MergeSettings, _merge_round, merge_templates
from factledger.domain.logs.template_pairs import merge_pairs
from tests.unit.logs.merge_reference import (
    _merge_round as reference_round,
)
from tests.unit.logs.merge_reference import (
    _shared_depths as reference_depths,
)
from tests.unit.logs.merge_reference import (
    reference_absorb,
    reference_merge_gaps,
    reference_merge_pairs,
    reference_merge_templates,
)

_WORDS = st.sampled_from(
    [
        "<*>",
        "<*>",
        "a",
        "b",
        "c",
        "d",
        "e",
        "to",
        "KB",
        "ms,",
        "x=<*>",
        "x=1",
        "x=2",
        "x=3",
        "y:4",
        "[<*>]",
        "[a,",
        "b]",
        '"<*>"',
        '"a',
        'b"',
        "(<*>;",
        "u_<*>",
        "u_7",
        "id<*>x",
    ]
)
_SETTINGS = [
    MergeSettings(),
    MergeSettings(min_values=3, keyed_values=2, gap_context=3),
    MergeSettings(min_values=2, subsume=False, min_context=0, gap_context=0),
    MergeSettings(gap_context=99),
]


@st.composite
def template_sets(draw: st.DrawFn) -> list[str]:
    templates: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        base = draw(st.lists(_WORDS, min_size=1, max_size=9))
        templates.append(" ".join(base))
        for _ in range(draw(st.integers(0, 9))):
            words = list(base)
            at = draw(st.integers(0, len(words)))
            kind = draw(st.sampled_from(["replace", "insert", "delete"]))
            if kind == "replace" and at < len(words):
                words[at] = draw(_WORDS)
            elif kind == "insert":
                words[at:at] = draw(st.lists(_WORDS, min_size=1, max_size=4))
            elif len(words) > 1:
                del words[min(at, len(words) - 1)]
            templates.append(" ".join(words))
    return templates


@settings(max_examples=400, deadline=None)
@given(templates=template_sets(), which=st.integers(0, len(_SETTINGS) - 1))
def test_the_indexed_merge_is_the_plain_merge(templates: list[str], which: int) -> None:
    setting = _SETTINGS[which]
    assert merge_templates(templates, setting) == reference_merge_templates(templates, setting)


@settings(max_examples=400, deadline=None)
@given(templates=template_sets())
def test_each_indexed_stage_is_the_plain_stage(templates: list[str]) -> None:
    forms = set(templates)
    assert absorb(forms) == reference_absorb(forms)
    assert merge_gaps(forms, 4, 2) == reference_merge_gaps(forms, 4, 2)
    assert merge_gaps(forms, 2, 1) == reference_merge_gaps(forms, 2, 1)
    assert merge_gaps(forms, 3, 0) == reference_merge_gaps(forms, 3, 0)
    for values, context in ((4, 2), (2, 1), (3, 0)):
        assert merge_pairs(forms, values, context) == reference_merge_pairs(forms, values, context)
    for setting in _SETTINGS:
        assert _merge_round(forms, setting) == reference_round(forms, setting)
    split = [tuple(form.split(" ")) for form in sorted(forms)]
    for from_end in (False, True):
        expected = reference_depths(split, from_end)
        assert template_gaps._shared_depths(split, from_end) == expected


@settings(max_examples=300, deadline=None)
@given(before=template_sets(), after=template_sets())
def test_a_stage_asked_only_about_changes_answers_as_on_the_whole_set(
    before: list[str], after: list[str]
) -> None:
    old = set(before)
    new = set(after) | set(before[: len(before) // 2])
    if not reference_absorb(old):
        assert absorb(new, new - old) == reference_absorb(new)
    for setting in _SETTINGS:
        if not reference_round(old, setting):
            assert _merge_round(new, setting, new ^ old) == reference_round(new, setting)


@pytest.mark.xfail(
    strict=True,
    reason="a round asked only about changes misses a sibling set that an unchanged form joins "
    "through a second position (found by the property above; the same on afa468e)",
)
def test_a_round_asked_about_changes_sees_a_set_an_unchanged_form_joins() -> None:
    before = ["b a b <*>", "a a b <*>", "a b <*>", "<*>"]
    old = set(before)
    new = {"a a a <*>"} | set(before[:2])
    assert not reference_round(old, _SETTINGS[0])
    assert _merge_round(new, _SETTINGS[0], new ^ old) == reference_round(new, _SETTINGS[0])
