"""A whole quoted word where templates differ is a value the source quoted (a name, an
identifier), never the kind of an event by itself, however few such words there are; in a
document whose keys are quoted too, quotes say nothing and the usual rules decide. Invented
vocabularies only."""

from __future__ import annotations

from factledger.domain.logs.template_merge import merge_templates

_NAMES = ("kobu", "lirem", "satova", "pench", "wugal")


def test_a_few_quoted_names_alone_at_one_place_are_a_parameter() -> None:
    templates = [f'FATAL: shelf "{name}" is not stocked' for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 9))
    assert set(merged.values()) == {'FATAL: shelf "<*>" is not stocked'}


def test_single_quoted_names_with_trailing_punctuation_are_a_parameter() -> None:
    templates = [f"opened drawer '{name}', waiting" for name in _NAMES[:4]]
    merged = merge_templates(dict.fromkeys(templates, 6))
    assert set(merged.values()) == {"opened drawer '<*>', waiting"}


def test_unquoted_words_alone_at_one_place_stay_kinds() -> None:
    templates = [f"FATAL: shelf {name} is not stocked" for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 9))
    assert merged == {template: template for template in templates}


def test_a_quoted_value_after_a_quoted_key_is_read_like_any_word() -> None:
    templates = [f'{{"op": "{name}", "slot": <*>}}' for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 9))
    assert merged == {template: template for template in templates}


def test_a_word_with_a_quote_inside_is_not_a_quoted_value() -> None:
    templates = [f'FATAL: shelf {name}="x" is not stocked' for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 9))
    assert merged == {template: template for template in templates}


def test_quoted_words_that_start_the_line_stay_kinds() -> None:
    templates = [f'"{name}" is not stocked' for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 9))
    assert merged == {template: template for template in templates}


def test_quoted_names_among_variables_only_need_no_shared_word() -> None:
    templates = [f'[<*>] "<*>" "<*>" "{name}.zo" "<*>"' for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 7))
    assert set(merged.values()) == {'[<*>] "<*>" "<*>" "<*>" "<*>"'}


def test_unquoted_names_among_variables_only_stay_apart() -> None:
    templates = [f"[<*>] <*> <*> {name}.zo <*>" for name in _NAMES]
    merged = merge_templates(dict.fromkeys(templates, 7))
    assert merged == {template: template for template in templates}
