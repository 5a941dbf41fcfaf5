"""Merges beyond one differing word: values of several words, templates seen too rarely to
merge on their own, and constants that only look like units."""

from __future__ import annotations

from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.template_gaps import absorb, merge_gaps
from factledger.domain.logs.template_merge import merge_templates

_PHRASES = ("alpha", "beta gamma", "delta epsilon zeta", "eta theta", "iota")


def test_a_phrase_of_any_length_between_shared_words_is_one_variable() -> None:
    messages = [f"Creating image {phrase} for u_{n}" for n, phrase in enumerate(_PHRASES)]
    assert set(mine_templates(messages)) == {"Creating image <*> for <*>"}


def test_a_quoted_value_of_several_words_merges_with_its_lone_form() -> None:
    forms = {'<*> - "GET <*>" "<*>"', '<*> - "GET <*>" "<*> (Windows NT <*>; <*>) <*>"'}
    assert set(merge_gaps(forms, 4, 2).values()) == {'<*> - "GET <*>" "<*>"'}


def test_a_bracketed_list_of_any_length_is_one_variable() -> None:
    messages = [
        "members changed: [ana, bo]",
        "members changed: [cy]",
        "members changed: [dee, ed, flo]",
        "members changed: [gus, hal, ivy, jo]",
    ]
    assert set(mine_templates(messages)) == {"members changed: [<*>]"}


def test_two_constant_phrases_of_different_lengths_stay_apart() -> None:
    forms = {
        "Failed password for <*> from <*> port <*>",
        "Failed password for invalid user <*> from <*> port <*>",
    }
    assert merge_gaps(forms, 4, 2) == {}


def test_stretches_at_the_end_need_brackets_to_merge() -> None:
    forms = {f"program interrupt: {words}" for words in ("fp", "fp cr", "an odd one", "x y z w")}
    assert merge_gaps(forms, 4, 2) == {}


def test_a_rare_template_joins_the_general_one_that_fits_it() -> None:
    forms = {"granted roles <*> to <*>", "granted roles admin to bob", "granted roles x to y z"}
    assert absorb(forms) == {"granted roles admin to bob": "granted roles <*> to <*>"}


def test_a_key_value_word_fits_its_keyed_variable() -> None:
    forms = {"done user=<*> in <*>", "done user=bob in <*>", "done host=bob in <*>"}
    assert absorb(forms) == {"done user=bob in <*>": "done user=<*> in <*>"}


def test_long_words_after_a_number_are_the_template_s_own() -> None:
    verbs = ("opened", "closed", "expired", "resumed", "rejected")
    merged = merge_templates([f"Session <*> {verb} for <*>" for verb in verbs[:2]])
    assert len(set(merged.values())) == 2


def test_a_key_value_after_a_variable_is_no_unit() -> None:
    templates = ["request id=<*> method=GET ok", "request id=<*> method=PUT ok"]
    assert merge_templates(templates) == {template: template for template in templates}
