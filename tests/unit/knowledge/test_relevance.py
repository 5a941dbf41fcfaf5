"""Relevance levels: derived from score and coverage by the embedded backend, normalised and
compared by the domain."""

from __future__ import annotations

import pytest

from factledger.adapters.knowledge.relevance import RelevanceRule, derive_relevance
from factledger.domain.knowledge.relevance import RelevanceLevel, best_level, normalise_relevance
from factledger.domain.knowledge.text import clip_words, flatten

RULE = RelevanceRule()


@pytest.mark.parametrize(
    ("score", "best", "matched", "terms", "expected"),
    [
        (10.0, 10.0, 1, 1, RelevanceLevel.HIGH),  # best hit of a one-word query
        (5.0, 10.0, 3, 5, RelevanceLevel.HIGH),  # half the best score, 60 % of the words
        (4.9, 10.0, 5, 5, RelevanceLevel.MEDIUM),  # every word, but well below the best
        (10.0, 10.0, 2, 5, RelevanceLevel.MEDIUM),  # the best score, 40 % of the words
        (10.0, 10.0, 1, 5, RelevanceLevel.REFERENCE),  # ranks first, shares one word of five
        (2.4, 10.0, 5, 5, RelevanceLevel.REFERENCE),  # far below the best
        (0.0, 0.0, 1, 1, RelevanceLevel.HIGH),  # no score spread at all
        (3.0, 3.0, 0, 2, RelevanceLevel.REFERENCE),  # matched through the title only
    ],
)
def test_the_level_follows_the_score_ratio_and_the_share_of_query_words(
    score: float, best: float, matched: int, terms: int, expected: RelevanceLevel
) -> None:
    assert derive_relevance(score, best, matched, terms, RULE) is expected


def test_a_rule_refuses_thresholds_outside_zero_to_one() -> None:
    with pytest.raises(ValueError, match="high_coverage"):
        RelevanceRule(high_coverage=1.5)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("HIGH", RelevanceLevel.HIGH),
        ("medium", RelevanceLevel.MEDIUM),
        ("  Reference\n", RelevanceLevel.REFERENCE),
        ("LOW", RelevanceLevel.REFERENCE),
        ("HIGHEST", RelevanceLevel.REFERENCE),
        (3, RelevanceLevel.REFERENCE),
        (None, RelevanceLevel.REFERENCE),
    ],
)
def test_unknown_levels_normalise_to_reference(value: object, expected: RelevanceLevel) -> None:
    assert normalise_relevance(value) is expected


def test_the_best_level_is_the_highest_present_or_none() -> None:
    assert best_level(()) is None
    assert best_level((RelevanceLevel.REFERENCE, RelevanceLevel.MEDIUM)) is RelevanceLevel.MEDIUM
    assert best_level((RelevanceLevel.MEDIUM, RelevanceLevel.HIGH)) is RelevanceLevel.HIGH


def test_clipping_keeps_short_text_and_cuts_long_text_after_a_whole_word() -> None:
    assert clip_words("short", 10).text == "short"
    assert not clip_words("exactly ten", 11).cut
    assert clip_words("one two three four", 12).text == "one two…"
    assert clip_words("one two, three", 10).text == "one two…"
    assert clip_words("abcdefghijkl", 5).text == "abcd…"
    assert clip_words("abc", 1).text == "…"


def test_flattening_joins_lines_and_drops_invisible_characters() -> None:
    assert flatten("\ufeff a\r\n\n b\u200b\x07 c ") == "a b c"
