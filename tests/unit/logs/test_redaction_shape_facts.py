"""The facts of a word's shape are kept for the process: a second redactor reuses them, and
what it decides is what a redactor deciding afresh would."""

from __future__ import annotations

from factledger.domain.logs.redaction import Redactor, shape_facts
from factledger.domain.logs.redaction.word_shapes import shape_of
from factledger.domain.logs.templates import mask_word

LINES = (
    "user=alice password=hunter2 from 10.1.2.3 took 46ms",
    "call +44 20 7946 0958 or 030/1234567 about order 88123",
    "peer 2130706433 closed; token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
)


def test_a_second_redactor_reuses_the_facts_of_shapes_the_first_judged() -> None:
    Redactor(word_hook=mask_word).redact_words(LINES[0])
    before = shape_facts._remembered_shape.cache_info()
    Redactor(word_hook=mask_word).redact_words(LINES[0])
    after = shape_facts._remembered_shape.cache_info()
    assert after.hits > before.hits
    assert after.misses == before.misses


def test_remembered_facts_are_the_facts_judged_afresh() -> None:
    for line in LINES:
        for word in line.split():
            shape = shape_of(word)
            assert shape_facts.shape_facts(shape) == shape_facts._shape_facts(shape)
            key = word[: word.find("=") + 1]
            if key:
                assert shape_facts.key_facts(key) == shape_facts._key_facts(key)


def test_a_long_shape_is_judged_each_time_and_alike() -> None:
    word = "x" * (shape_facts.LONGEST_REMEMBERED + 1) + "=s3cr3t"
    before = shape_facts._remembered_shape.cache_info().currsize
    assert shape_facts.shape_facts(word) == shape_facts._shape_facts(word)
    assert shape_facts._remembered_shape.cache_info().currsize == before


def test_redactions_do_not_depend_on_what_an_earlier_redactor_saw() -> None:
    first = [Redactor(word_hook=mask_word).redact_words(line) for line in LINES]
    warm = Redactor(word_hook=mask_word)
    assert [warm.redact_words(line) for line in LINES] == first
    assert [Redactor().redact(line) for line in LINES] == [text for text, _ in first]
