"""Where a batch's words stand: a word at two places (after another first word, or at
another position) recurs; a word of one template's place does not, however many times it
is written there. Invented vocabularies only."""

from __future__ import annotations

from factledger.domain.logs.template_merge import merge_templates
from factledger.domain.logs.template_places import Places


def test_a_word_in_two_templates_recurs() -> None:
    places = Places(["Lamp <*> glowed for bob", "Switch glowed at <*>"])
    assert places.recurs("glowed")


def test_a_word_at_one_place_does_not_recur_whatever_else_varies() -> None:
    places = Places([f"Lamp <*> glowed for {name}" for name in ("bob", "ann", "kim")])
    assert not places.recurs("glowed")
    assert not places.recurs("Lamp")


def test_a_word_at_another_position_after_the_same_first_word_recurs() -> None:
    places = Places(["Lamp glowed <*>", "Lamp <*> glowed"])
    assert places.recurs("glowed")


def test_variables_and_unknown_words_do_not_recur() -> None:
    places = Places(["Lamp <*> glowed", "Switch <*> dimmed"])
    assert not places.recurs("<*>")
    assert not places.recurs("faded")


def test_a_word_recurs_whatever_brackets_and_punctuation_it_is_written_with() -> None:
    places = Places(
        ["[<*>] shelving crate, owner [tovi], bins [<*>]", "sealing lot [<*>] for [tovi]"]
    )
    assert places.recurs("[tovi],")
    assert places.recurs("[tovi]")
    assert places.recurs("tovi")


def test_names_written_in_two_templates_with_other_punctuation_merge_in_both() -> None:
    owners = ("tovi", "rasemu", "kelda-crate", "bonu-crate", "pirav", "sulo-crate")
    templates = [
        f"[<*>] shelving crate, owner [{owner}], bins [<*>]" for owner in owners for _ in range(9)
    ] + [f"sealing lot [<*>] for [{owner}]" for owner in owners for _ in range(4)]
    merged = merge_templates(templates)
    assert set(merged.values()) == {
        "[<*>] shelving crate, owner [<*>], bins [<*>]",
        "sealing lot [<*>] for [<*>]",
    }
