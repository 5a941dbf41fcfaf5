"""Two positions of one template taking the same few words, whatever the other holds, are
values of one type: a parameter at both. Kinds at one position, and changes between states
(never from a state to itself), stay apart. Invented vocabularies only."""

from __future__ import annotations

import itertools

from factledger.domain.logs.template_merge import merge_templates
from factledger.domain.logs.template_twins import twin_sets


def _lamp(first: str, second: str) -> str:
    return f"lamp <*> lit= {first}, dimmed= {second}"


def test_two_positions_taking_the_same_two_words_are_parameters() -> None:
    templates = [_lamp(a, b) for a, b in itertools.product(("yes", "no"), repeat=2)]
    assert set(merge_templates(templates).values()) == {"lamp <*> lit= <*>, dimmed= <*>"}


def test_three_combinations_are_enough() -> None:
    templates = [_lamp("yes", "yes"), _lamp("yes", "no"), _lamp("no", "yes")]
    assert set(merge_templates(templates).values()) == {"lamp <*> lit= <*>, dimmed= <*>"}


def test_two_words_at_one_position_stay_apart() -> None:
    templates = [_lamp(a, "yes") for a in ("yes", "no")]
    assert merge_templates(templates) == {template: template for template in templates}


def test_changes_between_two_states_stay_apart() -> None:
    templates = ["lamp <*> went from on to off", "lamp <*> went from off to on"]
    assert merge_templates(templates) == {template: template for template in templates}


def test_the_twin_sets_are_named_by_their_number() -> None:
    group = sorted(tuple(_lamp(a, b).split(" ")) for a, b in itertools.product("xy", repeat=2))
    found = [(3, [0, 2]), (3, [1, 3]), (5, [0, 1]), (5, [2, 3])]
    assert twin_sets(group, found) == {0, 1, 2, 3}
    assert twin_sets(group, found[:1]) == set()
