"""A call's clauses read string by string (each string split once, remembered by text) are the
clauses of its strings joined by newlines, also where a separator spans the newline between
two strings ("done.\n", "a,\n", "\n- item", "x -\n")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.release.judge.text_parts import text_clauses
from factledger.domain.release.judge.words import clauses

PIECES = st.sampled_from(
    ["a", "pool", " ", "  ", "\n", "\t", "-", "\u2013", "\u2014", "- ", " - ", ".", ". ", ",",
     ", ", ";", ":", "(", ")", "[", "]", "|", "!", "?", "but", " but ", "while", "whereas",
     "But", "b", "w", "x.y", "…"]
)  # fmt: skip
STRINGS = st.lists(PIECES, max_size=6).map("".join)
CALLS = st.lists(STRINGS, max_size=6)
WRITTEN: list[list[str]] = [
    [],
    [""],
    ["", ""],
    ["excerpt", "Pool exhausted. Retries timed out", "section"],
    ["A bigger pool only queues work.", "- shift traffic", "- page the acquirer"],
    ["first line,", "second line -", "- third", "-", "- ", "fourth"],
    ["nospace", "atall"],
    ["a b", "-", "- c"],
    ["a b", "-", "c d"],
    ["a b", "\u2014 c", "\u2013\td"],
]


@settings(max_examples=1500)
@given(CALLS)
def test_clauses_by_string_are_the_clauses_of_the_joined_strings(texts: list[str]) -> None:
    assert text_clauses(texts) == clauses("\n".join(texts))


def test_written_calls_read_alike() -> None:
    for texts in WRITTEN:
        assert text_clauses(texts) == clauses("\n".join(texts)), texts


def test_a_list_item_after_a_newline_drops_its_dash() -> None:
    found = text_clauses(["Pool exhausted", "- shift traffic"])
    assert found == ("Pool exhausted", "shift traffic")
