"""A double-quoted value of several words stands at one position of its template (a user
agent, a request line, a quoted message): templates of one format line up whatever the
length of their quoted values, and the merge decides on the whole value like on one word.
The templates it gives are written with their spaces. Invented vocabularies only."""

from __future__ import annotations

import itertools

from factledger.domain.logs.mining import mine_templates, template_of
from factledger.domain.logs.template_merge import merge_templates
from factledger.domain.logs.template_quotes import join_quoted, unjoin

_AGENTS = (
    "Zorp/3.1",
    "Blim/5.0 (Tux; Qx 12) Fnord/9",
    "kettle-client/0.9 beta",
    "Wobble (Dusk; rv:7.1)",
    "pinger",
)


def test_a_quoted_value_of_several_words_is_one_word_of_its_template() -> None:
    joined = join_quoted('got "<*> (Tux; Qx <*>) Fnord" from <*>')
    assert len(joined.split(" ")) == 4
    assert unjoin(joined) == 'got "<*> (Tux; Qx <*>) Fnord" from <*>'


def test_a_key_s_quoted_value_is_one_word_and_escaped_quotes_do_not_end_it() -> None:
    text = 'err="failed to \\"run\\" for \\"<*>\\" now" pod=<*>'
    assert join_quoted(text).split(" ")[1] == "pod=<*>"


def test_a_quote_that_is_never_closed_leaves_the_words_apart() -> None:
    assert join_quoted('said "hello there to <*>') == 'said "hello there to <*>'


def test_quoted_agents_of_any_length_are_one_variable() -> None:
    messages = [
        f'{n}.{n}.0.1 fetch /a/{n} "{agent}" took {n}ms'
        for n, agent in enumerate(_AGENTS * 3, start=1)
    ]
    assert set(mine_templates(messages)) == {'<*> fetch <*> "<*>" took <*>'}


def test_several_quoted_values_and_absent_ones_make_one_template() -> None:
    referers = ("-", "/home", "/a/b c", "-")
    messages = [
        f'[{n}] "GET /x/{n} HTTP/1.1" {n} "{referer}" "{agent}"'
        for n, (referer, agent) in enumerate(itertools.product(referers, _AGENTS))
    ]
    assert set(mine_templates(messages)) == {'[<*>] "GET <*>" <*> "<*>" "<*>"'}


def test_quoted_phrases_seen_again_and_again_stay_the_template_s_own() -> None:
    phrases = ("Lamp lit up", "Lamp went dark", "Fuse blown", "Lamp swapped out", "Bulb flickers")
    templates = [f'"{phrase}" lamp=<*> room=<*>' for phrase in phrases]
    merged = merge_templates(dict.fromkeys(templates, 6))
    assert merged == {template: template for template in templates}


def test_merged_templates_are_written_with_spaces() -> None:
    templates = [f'fetch "{agent}" done' for agent in _AGENTS]
    merged = merge_templates(templates)
    assert set(merged.values()) == {'fetch "<*>" done'}
    assert all(unjoin(form) == form for form in merged.values())


def test_quoted_fields_apart_by_spaces_are_not_a_list() -> None:
    assert template_of('got "/a/1" "/b/2" now') == 'got "<*>" "<*>" now'


def test_quoted_values_apart_in_one_of_their_words_are_read_by_that_word() -> None:
    # The method of a request line seen again and again in one template only: kinds.
    templates = [f'<*> "{method} <*>" status: <*>' for method in ("GET", "PUT", "DELETE", "HEAD")]
    merged = merge_templates(dict.fromkeys(templates, 6))
    assert merged == {template: template for template in templates}


def test_quoted_messages_that_quote_their_values_stay_apart() -> None:
    # A key's quoted value that starts with a word of its own and holds variables is a
    # formatted message: its words are the event's, whatever its length.
    kinds = ("Wibble for", "Zonk", "Plosh within for", "Grist for", "Frob for", "Quill")
    messages = [
        f'time={n} level=info msg="{kind} \\"{n}a{n}\\""'
        for n, kind in enumerate(kinds * 8, start=1)
    ]
    assert len(set(mine_templates(messages))) == len(kinds)
