"""The model's text becomes words to look for, never FTS5 syntax."""

from __future__ import annotations

import pytest

from factledger.adapters.knowledge.query import (
    SearchTerms,
    fts_string,
    match_expression,
    search_terms,
)


def test_words_are_case_folded_deduplicated_and_stripped_of_stop_words() -> None:
    terms = search_terms("Why is the Pool exhausted? pool POOL exhausted")

    assert terms.terms == ("pool", "exhausted")


def test_a_word_with_inner_punctuation_also_searches_its_exact_compound() -> None:
    terms = search_terms("card-gateway GW-504 acquirer.pool.max_connections")

    assert terms.terms == ("card", "gateway", "gw", "504", "acquirer", "pool", "max", "connections")
    assert terms.phrases == (
        ("card", "gateway"),
        ("gw", "504"),
        ("acquirer", "pool", "max", "connections"),
    )
    assert match_expression(terms).endswith(
        '"card gateway" OR "gw 504" OR "acquirer pool max connections"'
    )


@pytest.mark.parametrize(
    "query",
    ["", "   ", "\n\t", "🔥🔥", "*", '""', "()", "OR", "AND NOT", "the of and", "- + ^ : { }"],
)
def test_a_query_without_a_usable_word_is_empty(query: str) -> None:
    assert search_terms(query).is_empty
    assert search_terms(query) == SearchTerms((), ())


@pytest.mark.parametrize(
    ("query", "expression"),
    [
        ('title:"pool"', '"title" OR "pool" OR "title pool"'),
        ("NEAR(pool exhausted, 2)", '"near" OR "pool" OR "exhausted" OR "2" OR "near pool"'),
        ("pool*", '"pool"'),
        ("deadlock OR pool", '"deadlock" OR "pool"'),
        ("-pool NOT deadlock", '"pool" OR "deadlock"'),
        ("{title section}: pool", '"title" OR "section" OR "pool"'),
        ("(pool", '"pool"'),
        ("pool)) OR ((", '"pool"'),
        ("^pool + exhausted", '"pool" OR "exhausted"'),
        ("'; DROP TABLE knowledge; --", '"drop" OR "table" OR "knowledge"'),
        ("pool\x00exhausted", '"pool" OR "exhausted" OR "pool exhausted"'),
        ("ｐｏｏｌ", '"pool"'),
    ],
)
def test_fts5_operators_in_the_query_become_plain_words(query: str, expression: str) -> None:
    assert match_expression(search_terms(query)) == expression


def test_every_part_of_the_expression_is_a_quoted_string_of_letters_and_digits() -> None:
    terms = search_terms('a"b c""d NEAR/3 e:f "g')

    for term in terms.terms:
        assert term.isalnum()
    assert all(part.startswith('"') for part in match_expression(terms).split(" OR "))


def test_an_fts5_string_doubles_inner_quotes() -> None:
    assert fts_string('say "hi"') == '"say ""hi"""'


def test_the_number_of_words_and_the_length_read_are_bounded() -> None:
    many = " ".join(f"word{index}" for index in range(100))

    assert len(search_terms(many, max_terms=16).terms) == 16
    assert search_terms("pool " + "x" * 2000 + " deadlock", max_chars=1000).terms == ("pool",)
