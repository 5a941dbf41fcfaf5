"""Merges beyond one differing word: values of several words, templates seen too rarely to
merge on their own, and constants that only look like units."""

from __future__ import annotations

from itertools import pairwise

from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.template_gaps import absorb, merge_gaps
from factledger.domain.logs.template_merge import MergeSettings, merge_templates

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


# Two stretches vary at once: a word the shapes cannot see (letters only) and a value of
# several words, or two such words. Invented vocabularies, every combination seen once.
_NAMES = ("kestrel", "marlin", "osprey", "plover", "tern", "heron", "grebe")
_CARGO = ("salt", "raw wool bales", "tin", "dried figs", "oak planks and pitch", "rope")
_REASONS = ("fog", "ice on deck", "tide", "crew shortage", "broken winch cable", "strike")
_PORTS = ("porto", "riga", "split", "cadiz", "tallinn", "bari")


def test_a_word_and_a_phrase_varying_together_make_one_template() -> None:
    messages = [f"barge {_NAMES[n % 7]} unloaded {_CARGO[n % 6]} at quay today" for n in range(12)]
    assert set(mine_templates(messages)) == {"barge <*> unloaded <*> at quay today"}


def test_two_phrases_varying_together_make_one_template() -> None:
    places = ("porto", "old riga", "split bay west", "cadiz", "upper tallinn", "bari")
    messages = [
        f"ferry from {places[n % 6]} delayed by {_REASONS[(n * 5) % 6]} again" for n in range(6)
    ]
    assert set(mine_templates(messages)) == {"ferry from <*> delayed by <*> again"}


def test_a_word_and_a_trailing_phrase_varying_together_make_one_template() -> None:
    messages = [f"winch {_NAMES[n % 7]} stalled: {_REASONS[n % 6]}" for n in range(10)]
    assert set(mine_templates(messages)) == {"winch <*> stalled: <*>"}


def test_two_lone_words_varying_together_in_brackets_make_one_template() -> None:
    messages = [f"[{n}] pilot ({_NAMES[n % 7]}) boarded at [{_PORTS[n % 6]}]" for n in range(9)]
    assert set(mine_templates(messages)) == {"[<*>] pilot (<*>) boarded at [<*>]"}


def test_two_events_sharing_context_words_stay_apart() -> None:
    loading = [f"barge {_NAMES[n % 7]} loaded {_CARGO[n % 6]} at quay today" for n in range(8)]
    moored = [f"barge {_NAMES[n % 7]} moored beside {_PORTS[n % 6]} at noon" for n in range(8)]
    mined = set(mine_templates(loading + moored))
    assert mined == {"barge <*> loaded <*> at quay today", "barge <*> moored beside <*> at noon"}


def test_different_constant_words_at_one_side_stay_apart() -> None:
    verbs = ("hoisted", "lowered")
    messages = [
        f"crane {_NAMES[n % 7]} {verbs[n % 2]} by {_REASONS[(n // 2) % 6]}" for n in range(14)
    ]
    mined = set(mine_templates(messages))
    assert mined == {"crane <*> hoisted by <*>", "crane <*> lowered by <*>"}


def test_a_verb_seen_rarely_is_not_folded_into_another_event() -> None:
    pairs = zip(_NAMES[:6], _REASONS, strict=True)
    forms = {f"crane {name} hoisted by {reason}" for name, reason in pairs}
    forms |= {"crane tern lowered by fog", "crane heron lowered by ice on deck"}
    merged = merge_templates(sorted(forms))
    assert merged["crane tern lowered by fog"] == "crane tern lowered by fog"
    assert set(merged.values()) - set(forms) == {"crane <*> hoisted by <*>"}


def test_two_stretches_at_both_ends_stay_apart() -> None:
    pairs = zip(_NAMES, ("oar", "sail", "mast", "keel", "hull", "deck", "rudder"), strict=True)
    forms = {f"{old} is retired, rename it to {new}" for old, new in pairs}
    assert merge_templates(sorted(forms)) == {form: form for form in forms}


def test_two_stretches_taking_values_of_one_set_stay_apart() -> None:
    states = ("DOCKED", "LOADING", "SEALED", "DEPARTED", "ARRIVED", "HELD")
    forms = {f"hold <*> moved from {a} to {b} now" for a, b in pairwise(states)}
    forms |= {f"hold <*> moved from {a} to HELD now" for a in states[:2]}
    assert merge_templates(sorted(forms)) == {form: form for form in forms}


def test_a_bracketed_stretch_needs_one_shared_word_only() -> None:
    forms = ["held: [<*>]", "held: [riko, maso]", "held: [tule, bapi, nove]"]
    tight = MergeSettings(min_values=5, gap_context=3)
    assert set(merge_templates(forms, tight).values()) == {"held: [<*>]"}


def test_lists_of_items_around_a_variable_join_a_lone_variable() -> None:
    forms = [
        "routing <*> keys to <*> now",
        "routing <*> keys to pa-ko <*> mu-ve now",
        "routing <*> keys to pu-de ci-ho <*> now",
    ]
    assert set(merge_templates(forms).values()) == {"routing <*> keys to <*> now"}


def test_stretches_sharing_a_word_beside_a_lone_variable_stay_apart() -> None:
    once = ["moved <*> bytes", "moved <*> of <*> bytes"]
    assert merge_templates(once) == {form: form for form in once}
    shared = [*once, "moved riko <*> of <*> bytes"]
    assert merge_templates(shared) == {form: form for form in shared}


def test_a_unit_after_some_values_only_is_part_of_the_value() -> None:
    forms = ["link <*> idle, uptime <*>", "link <*> idle, uptime <*> sec"]
    assert set(merge_templates(forms).values()) == {"link <*> idle, uptime <*>"}
    inner = ["link <*> idle <*> hr ago", "link <*> idle <*> ago"]
    assert set(merge_templates(inner).values()) == {"link <*> idle <*> ago"}


def test_a_longer_word_after_some_values_only_stays_the_template_s_own() -> None:
    forms = ["link <*> idle, uptime <*>", "link <*> idle, uptime <*> exceeded"]
    assert merge_templates(forms) == {form: form for form in forms}


def test_a_quoted_value_of_several_words_joins_its_key_s_variable() -> None:
    forms = ["lamp <*> lit tag=<*> for owner", 'lamp <*> lit tag="two words", for owner']
    assert set(merge_templates(forms).values()) == {"lamp <*> lit tag=<*> for owner"}


def test_words_after_a_key_s_variable_that_are_not_one_quoted_value_stay_apart() -> None:
    forms = ["lamp <*> lit tag=<*> for owner", "lamp <*> lit tag=two words for owner"]
    assert merge_templates(forms) == {form: form for form in forms}
    other = ["lamp <*> lit tag=<*> for owner", 'lamp <*> lit mark="two words", for owner']
    assert merge_templates(other) == {form: form for form in other}


def test_a_stretch_of_flag_words_between_key_values_is_one_variable() -> None:
    marks = ("HOT", "COLD", "HOT WET", "DRY HOT", "WET")
    forms = {f"[GATE DROP] cell=<*> dir=<*> {mark} seq=<*>" for mark in marks}
    assert set(merge_gaps(forms, 4, 2).values()) == {"[GATE DROP] cell=<*> dir=<*> seq=<*>"}


def test_a_variable_without_a_key_is_no_shared_word_around_a_stretch() -> None:
    marks = ("HOT", "COLD", "HOT WET", "DRY HOT", "WET")
    forms = {f"[GATE DROP] cell=<*> dir=<*> {mark} <*>" for mark in marks}
    assert merge_gaps(forms, 4, 2) == {}


_CLAUSES = ("<*>;", "<*> CAP <*>;", "<*> ALSO <*> = <*>;", "<*> ALSO <*> = <*> CAP <*>;")


def test_a_long_stretch_merges_when_more_shared_words_surround_it() -> None:
    # Seven words differ at most (longer than a stretch may be), among twelve constant
    # words around them: one value of several words written inside a message.
    head = "Saw <*> fresh rows and <*> stale cells for probe FIND ALL IN <*> ONLY <*> ="
    forms = {f"{head} {clause} mark <*> (see zebra_limit)" for clause in _CLAUSES}
    assert set(merge_gaps(forms, 4, 2).values()) == {f"{head} <*>; mark <*> (see zebra_limit)"}


def test_a_long_stretch_with_few_shared_words_around_it_stays_apart() -> None:
    forms = {f"Saw <*> = {clause} mark <*>" for clause in _CLAUSES}
    assert not merge_gaps(forms, 4, 2)
