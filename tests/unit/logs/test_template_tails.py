"""The value of a key written last, of any length (a statement, a reason of several words):
templates that share every word up to a ``key:`` and differ after it are one template when
what follows takes many values seen once each, or when it is a variable in some of them.
Words after a key seen again and again, none of them a variable, stay the template's own.
Invented vocabularies only."""

from __future__ import annotations

from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.template_merge import merge_templates
from factledger.domain.logs.template_tails import merge_tails

_TAILS = (
    "FETCH ALL FROM <*>",
    "MOVE <*> TO shelf",
    "COUNT rows IN <*> WHERE tag = <*>",
    "DROP <*>",
    "LIST <*> BY owner",
)


def test_a_value_of_many_lengths_after_a_key_each_seen_once_is_one_variable() -> None:
    templates = [f"NOTE: took <*> ms order: {tail}" for tail in _TAILS]
    assert set(merge_templates(templates).values()) == {"NOTE: took <*> ms order: <*>"}


def test_a_trailing_value_that_is_a_variable_in_some_lines_takes_the_others() -> None:
    templates = ["Woke cause: <*>", "Woke cause: LID (Opened)", "Woke cause: TMR (Timer)"]
    merged = merge_templates(dict.fromkeys(templates, 20))
    assert set(merged.values()) == {"Woke cause: <*>"}


def test_words_after_a_key_seen_again_and_again_stay_the_template_s_own() -> None:
    tails = ("bad opcode", "bad opcode field", "stack overflow", "odd alignment trap")
    templates = [f"core trap: {tail} <*>" for tail in tails]
    merged = merge_templates(dict.fromkeys(templates, 5))
    assert merged == {template: template for template in templates}


def test_words_seen_once_after_a_word_that_is_no_key_stay_apart() -> None:
    forms = {f"NOTE: took <*> ms ordering {tail}" for tail in _TAILS}
    assert merge_tails(forms, {}, 4, 2) == {}


def test_a_key_needs_shared_words_before_it() -> None:
    forms = {f"order: {tail}" for tail in _TAILS}
    assert merge_tails(forms, {}, 4, 2) == {}


def test_tails_of_one_length_are_left_to_the_sibling_merge() -> None:
    forms = {f"NOTE: order: {word} <*>" for word in ("FETCH", "MOVE", "DROP", "LIST")}
    assert merge_tails(forms, {}, 4, 2) == {}


def test_statements_of_a_mined_batch_are_one_template() -> None:
    messages = [
        f"NOTE:  took {n}.5 ms  order: {tail.replace('<*>', f'x{n}')}"
        for n, tail in enumerate(_TAILS)
    ]
    assert set(mine_templates(messages)) == {"NOTE: took <*> ms order: <*>"}


_REPLIES = (
    "(dock <*> replied: <*> Come back soon, gate shut. (after LOAD step))",
    "(lost link with <*> during the first handshake)",
    "(dial <*>: Line dropped)",
    "(dock <*> replied: <*> The crate you sent is over the weight limit of the bay. (after WEIGH))",
)


def test_a_bracketed_value_written_last_of_many_lengths_is_one_variable() -> None:
    templates = [f"<*>: to=<*>, via=none, state=held {reply}" for reply in _REPLIES]
    merged = merge_templates(dict.fromkeys(templates, 20))
    assert set(merged.values()) == {"<*>: to=<*>, via=none, state=held (<*>)"}


def test_fewer_bracketed_tails_than_a_merge_needs_stay_the_template_s_own() -> None:
    reasons = (
        "(disk full at last, so the gate shut)",
        "(read only mount found at the dock, gate shut)",
        "(quota gone over by the crate of the bay at the dock)",
    )
    templates = [f"<*>: write failed, state=held {reason}" for reason in reasons]
    merged = merge_templates(dict.fromkeys(templates, 20))
    assert merged == {template: template for template in templates}


def test_a_bracket_closed_before_the_end_is_no_value_written_last() -> None:
    forms = {
        f"<*>: state=held (dial <*>) {tail}"
        for tail in ("then quit", "and retried twice", "so gave up on it", "at last")
    }
    assert merge_tails(forms, {}, 4, 2) == {}


_ARGUMENTS = ("-z", "--deep", "-k <*>", "spin up", "drain fast now")


def test_the_last_field_of_a_record_runs_to_the_end_of_its_line() -> None:
    templates = [f"<*> : BAY=<*> ; CRATE=<*> ; RUN=<*> {arguments}" for arguments in _ARGUMENTS]
    merged = merge_templates(dict.fromkeys(templates, 30))
    assert set(merged.values()) == {"<*> : BAY=<*> ; CRATE=<*> ; RUN=<*>"}


def test_words_after_a_key_value_outside_a_record_stay_the_template_s_own() -> None:
    forms = {f"<*> : crate RUN=<*> {arguments}" for arguments in _ARGUMENTS}
    assert merge_tails(forms, {}, 4, 2) == {}


def test_tails_holding_other_keys_are_other_records() -> None:
    tails = ("hold=<*>", "hold=<*> gate=<*>", "gate=<*> far", "lane=<*> up down", "lid=<*>")
    forms = {f"<*> : BAY=<*> ; CRATE=<*> ; RUN=<*> {tail}" for tail in tails}
    assert merge_tails(forms, {}, 4, 2) == {}


def test_a_lone_variable_takes_one_tail_merged_from_several_templates() -> None:
    lone, merged = "Slow op: <*>", "Slow op: scan <*> rows <*>"
    forms = {lone, merged}
    assert merge_tails(forms, {}, 4, 2, {merged: 3}) == {merged: lone}
    assert merge_tails(forms, {}, 4, 2, {merged: 1}) == {}
