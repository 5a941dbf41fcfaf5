"""Words that stay put while another position varies widely are the template's own (the
kinds of an event), not a parameter, however many kinds there are; words that vary about
as widely as their neighbours are parameters. Invented vocabularies only."""

from __future__ import annotations

import itertools

from factledger.domain.logs.template_merge import MergeSettings, merge_templates

_KINDS = ("glowed", "dimmed", "flickered", "burst", "faded")
_NAMES = tuple(f"{a}{b}{c}" for a, b, c in itertools.product("bdgkmpt", "aeiou", "nrs"))[:60]


def _lamps(kinds: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    return [f"Lamp <*> {kind} for {name}" for kind in kinds for name in names]


def test_kinds_that_stay_put_across_many_names_stay_apart() -> None:
    merged = merge_templates(_lamps(_KINDS, _NAMES[:30]))
    assert set(merged.values()) == {f"Lamp <*> {kind} for <*>" for kind in _KINDS}


def test_kinds_stay_apart_when_each_name_is_seen_with_few_of_them() -> None:
    # Each name with two of the five kinds: each kind with 24 names, more than four times
    # as many as there are kinds (the default ``min_values``).
    templates = [
        f"Lamp <*> {kind} for {name}"
        for index, name in enumerate(_NAMES)
        for kind in (_KINDS[index % 5], _KINDS[(index + 1) % 5])
    ]
    merged = merge_templates(templates)
    assert set(merged.values()) == {f"Lamp <*> {kind} for <*>" for kind in _KINDS}


def test_two_positions_varying_alike_are_both_parameters() -> None:
    states = tuple(name.upper() for name in _NAMES[:12])
    units = tuple(name.capitalize() for name in _NAMES[12:28])
    templates = [f"The {unit} unit went {state} today." for unit in units for state in states]
    assert set(merge_templates(templates).values()) == {"The <*> unit went <*> today."}


def test_many_kinds_of_one_key_are_still_its_values() -> None:
    templates = [f"lamp kind={kind} owner {name}" for kind in _KINDS for name in _NAMES[:30]]
    assert set(merge_templates(templates).values()) == {"lamp kind=<*> owner <*>"}


def test_the_merged_forms_added_to_their_batch_merge_into_themselves() -> None:
    templates = _lamps(_KINDS, _NAMES[:30])
    merged = merge_templates(templates)
    again = merge_templates(templates + sorted(set(merged.values())))
    assert all(again[form] == form for form in merged.values())


def test_kinds_that_stand_at_other_places_of_the_batch_are_values_of_one_type() -> None:
    # The same five words also vary in another template: values the source writes in
    # several templates (like request methods), not the kinds of one event.
    templates = _lamps(_KINDS, _NAMES[:30]) + [f"Switch {kind} at <*>" for kind in _KINDS]
    assert set(merge_templates(templates).values()) == {
        "Lamp <*> for <*>",
        "Switch <*> at <*>",
    }


def test_kinds_stay_apart_when_only_one_of_them_stands_elsewhere() -> None:
    templates = _lamps(_KINDS, _NAMES[:30]) + [f"Switch {kind} at <*>" for kind in _NAMES[30:35]]
    templates.append(f"Switch {_KINDS[0]} at <*>")
    merged = set(merge_templates(templates).values())
    assert {f"Lamp <*> {kind} for <*>" for kind in _KINDS} <= merged


def test_a_few_words_alone_at_one_place_are_kinds_of_the_event() -> None:
    # Nothing else varies, the words stand nowhere else and are seen again and again:
    # ``VM Started`` / ``VM Stopped``.
    templates = [f"Lamp <*> {kind} (power event)" for kind in _KINDS]
    merged = merge_templates(dict.fromkeys(templates, 3))
    assert merged == {template: template for template in templates}


def test_a_few_words_alone_each_seen_once_are_a_parameter() -> None:
    templates = [f"Lamp <*> {kind} (power event)" for kind in _KINDS]
    assert set(merge_templates(templates).values()) == {"Lamp <*> (power event)"}


def test_twice_min_values_words_alone_are_a_parameter() -> None:
    templates = [f"Lamp <*> {name}ed (power event)" for name in _NAMES[:8]]
    merged = merge_templates(dict.fromkeys(templates, 3))
    assert set(merged.values()) == {"Lamp <*> (power event)"}
    fewer = merge_templates(dict.fromkeys(templates, 3), MergeSettings(min_values=5))
    assert fewer == {template: template for template in templates}


def test_repeated_messages_count_like_a_mapping_of_counts() -> None:
    templates = [f"Lamp <*> {kind} (power event)" for kind in _KINDS]
    assert merge_templates(templates * 2) == merge_templates(dict.fromkeys(templates, 2))


def test_a_few_words_beside_another_varying_word_are_not_read_as_kinds_alone() -> None:
    # The siblings are also siblings at another position: only the first rule decides.
    names = _NAMES[:2]
    templates = [f"Lamp {name} {kind} (power event)" for kind in _KINDS for name in names]
    merged = set(merge_templates(templates).values())
    assert merged == {f"Lamp {name} <*> (power event)" for name in names}
