"""A rare template that a far more common, shorter template matches over stretches (each of
its variables standing for one word or several) is merged into it, when that template's
variables already stand for stretches in the batch. Invented vocabularies only."""

from __future__ import annotations

from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.template_spans import absorb_spans

_FRONTS = ("kelo_in", "mavu_in", "tiso_in", "ropa_in")
_FLAGS = ("----", "kQ--", "Rv--", "--ZX")


def _proxy_line(n: int, front: str, flag: str) -> str:
    return (
        f"10.0.{n % 7}.{n}:{4000 + n} [0{n % 9}/Dec/2026:10:{n % 60:02d}:01.{n:03d}] {front} "
        f"pool{n % 5}/node{n % 3} {n}/{n % 11}/3/4/{n} {200 + n % 3} {n * 37} - - {flag} "
        f'{n % 5}/2/1/0/0 0/0 "GET /v{n}/item HTTP/1.1"'
    )


def test_a_line_whose_rare_words_stand_where_a_merged_stretch_is_takes_its_template() -> None:
    messages = [_proxy_line(n, _FRONTS[n % 4], _FLAGS[(n // 4) % 4]) for n in range(120)]
    rare = _proxy_line(999, "zubi_in", "Mq--")
    mined = mine_templates([*messages, rare])
    assert set(mined) == {'<*> [<*>] <*> - - <*> "GET <*>"'}


def test_a_key_written_empty_and_a_flag_word_fit_a_stretch_of_keys() -> None:
    general = "[FW DROP] IN=<*> OUT=<*> SRC=<*> ID=<*> END=<*>"
    member = "[FW DROP] IN=<*> OUT= SRC=<*> ID=<*> KIND=<*> PORT=<*> ACK END=<*>"
    rare = "[FW DROP] IN=lan OUT= SRC=<*> ID=<*> KIND=<*> PORT=<*> SYN END=<*>"
    spanning = {general: [member, general], rare: [rare]}
    assert absorb_spans({general, rare}, {general: 40, rare: 3}, spanning, 4) == {rare: general}


def test_a_template_whose_variables_stand_for_one_word_each_takes_no_longer_one() -> None:
    general = "core halted for cause <*>"
    rare = "core halted for cause <*>: bad header: slot=<*>"
    spanning = {general: [general], rare: [rare]}
    assert absorb_spans({general, rare}, {general: 40, rare: 1}, spanning, 4) == {}


def test_a_template_unlike_every_one_the_general_stands_for_stays_apart() -> None:
    general = "<*> host <*>: <*>"
    members = [general, "<*> host <*>: link <*> up", "<*> host <*>: link <*> down"]
    rare = "<*> host <*>: fan <*> speed <*> rpm"
    spanning = {general: members, rare: [rare]}
    assert absorb_spans({general, rare}, {general: 40, rare: 1}, spanning, 4) == {}
    near = "<*> host <*>: port <*> down"
    spanning[near] = [near]
    assert absorb_spans({general, near}, {general: 40, near: 1}, spanning, 4) == {near: general}


def test_a_stretch_of_words_without_a_variable_is_not_a_value() -> None:
    general = "<*> store: <*>"
    rare = "using disk store: write back"
    spanning = {general: [general, "used disk store: <*> back"], rare: [rare]}
    assert absorb_spans({general, rare}, {general: 40, rare: 1}, spanning, 4) == {}


def test_a_template_nearly_as_common_as_the_general_one_stays_apart() -> None:
    general = "job <*> done"
    rare = "job <*> of <*> done"
    spanning = {general: [general, "job <*> of all done"], rare: [rare]}
    assert absorb_spans({general, rare}, {general: 40, rare: 11}, spanning, 4) == {}
    assert absorb_spans({general, rare}, {general: 44, rare: 11}, spanning, 4) == {rare: general}
