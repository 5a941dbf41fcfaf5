"""A placeholder redaction writes (``<IP>``, ``<SECRET>`` …) is a variable like a number; a
word in angle brackets that redaction never writes (``<NOSRV>``, ``<NONE>``) is a word of
the line like any other."""

from __future__ import annotations

from factledger.domain.logs.mining import template_of
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.templates import mask_word


def test_every_placeholder_of_redaction_is_a_variable() -> None:
    assert {mask_word(placeholder.value) for placeholder in Placeholder} == {"<*>"}


def test_a_word_in_angle_brackets_redaction_never_writes_is_kept() -> None:
    assert template_of("backend web/<NOSRV> has no server") == "backend web/<NOSRV> has no server"
    assert mask_word("<NONE>,") == "<NONE>,"
