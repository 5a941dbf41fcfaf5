"""The merge of a batch's templates over a key's value written last: templates that share
every word up to a word that is a bare ``key:`` (at least ``context`` words without a
variable up to it) and differ in what follows, in their lengths too, are one template, what
follows becoming one variable, when

* at least ``values`` of them stand for one message each: a value of an open set, each seen
  once (statement texts, free text after ``reason:``); or
* what follows is a lone variable in one of them and words in two other templates of the
  batch at least (a form merged from several counts for each): the position holds values
  the shapes saw in some lines (``Wake reason: <*>``, ``Wake reason: RTC (Alarm)``).

Words after a key seen again and again, none of them a variable, stay the template's own
(``program interrupt: fp cr field <*>`` / ``program interrupt: illegal instruction <*>``).

A value written last in brackets (a remote party's reply, a reason of many words) is merged
the same way: templates sharing every word up to one whose tails are each one bracketed value
(its first opener closed at the very end), of two lengths at least and ``values`` different
ones at least, are ``head (<*>)``: the gap merge's rule for a bracketed stretch
(``template_gaps``), for a stretch of any length that ends the template. Fewer bracketed
tails stay the template's own (``(disk full)`` / ``(read only)``).

The last field of a record runs to the end of its line: templates sharing every word up to
a ``key=<*>`` that follows two ``key=`` fields at least (``TTY=<*> ; PWD=<*> ; COMMAND=<*>
-q``) whose tails, holding no ``key=`` of their own, take ``values`` forms at least of two
lengths at least, are that head alone (a command and its arguments are the key's value).
Tails holding keys are other fields (other records), and words after a ``key=<*>`` that ends
no record (``user=<*> logged in``) stay the template's own.

The longest shared head is taken first and a template is merged at most once a call.
Everything depends on the batch only, never on the order of the templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Final

from factledger.domain.logs.template_words import VARIABLE, enclosed_variable, key_of

__all__ = ["merge_tails"]

_Words = tuple[str, ...]
# The templates (beside the lone variable's) whose tails join a lone variable after one key.
_BESIDE_LONE: Final = 2
_PAIRS: Final = {"(": ")", "[": "]", "{": "}"}
# The ``key=`` fields before a record's last one whose value may run to the end.
_FIELDS: Final = 2


def merge_tails(
    forms: Iterable[str],
    messages: Mapping[str, int],
    values: int,
    context: int,
    support: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Forms merged over what follows a shared ``key:`` → what they become. ``messages``:
    how many messages each form stands for, ``support``: how many templates of the batch
    (one when not given)."""
    heads, enclosed, keyed = _heads(forms, context)
    chosen = []
    for head, members in heads.items():
        if _merges(members, messages, values, support or {}):
            chosen.append((-sum(VARIABLE not in word for word in head), head, members, VARIABLE))
    for head, members in enclosed.items():
        tails = {tail for _, tail in members}
        if _varied(tails, values):
            variable = enclosed_variable([tail[0] for tail in tails], [tail[-1] for tail in tails])
            chosen.append((-sum(VARIABLE not in word for word in head), head, members, variable))
    for head, members in keyed.items():
        tails = {tail for _, tail in members}
        if _varied(tails, values) and not any(map(key_of, chain(*tails))):
            chosen.append((-sum(VARIABLE not in word for word in head), head, members, ""))
    chosen.sort(key=lambda item: item[:2])
    renamed: dict[str, str] = {}
    for _, head, members, variable in chosen:
        merged = " ".join((*head, variable) if variable else head)
        for form, _tail in members:
            if form not in renamed and form != merged:
                renamed[form] = merged
    return renamed


_Heads = dict[_Words, list[tuple[str, _Words]]]


def _heads(forms: Iterable[str], context: int) -> tuple[_Heads, _Heads, _Heads]:
    """The forms by shared head: up to a bare ``key:``, up to a bracketed tail, and up to
    a ``key=<*>`` after two ``key=`` fields at least (a record's last field), each with
    ``context`` words without a variable before the tail at least."""
    heads: _Heads = defaultdict(list)
    enclosed: _Heads = defaultdict(list)
    keyed: _Heads = defaultdict(list)
    for form in sorted(forms):
        words = tuple(form.split(" "))
        constant = 0
        fields = 0
        for at, word in enumerate(words[:-1]):
            if constant >= context and _encloses(words[at:]):
                enclosed[words[:at]].append((form, words[at:]))
            key = key_of(word)
            if VARIABLE in word:
                if fields >= _FIELDS and constant >= context and key and word == key + VARIABLE:
                    keyed[words[: at + 1]].append((form, words[at + 1 :]))
                fields += bool(key)
                continue
            constant += 1
            fields += bool(key)
            if constant >= context and word.endswith(":") and key == word:
                heads[words[: at + 1]].append((form, words[at + 1 :]))
    return heads, enclosed, keyed


def _encloses(tail: _Words) -> bool:
    """Whether the words are one bracketed value: the first word opens a bracket that the
    last one closes at its very end (and none closes it before)."""
    opener = tail[0][:1]
    closer = _PAIRS.get(opener)
    if closer is None or not tail[-1].endswith(closer) or len(tail) < 2:
        return False
    depth = 0
    text = " ".join(tail)
    for at, char in enumerate(text):
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return at == len(text) - 1
    return False


def _varied(tails: set[_Words], values: int) -> bool:
    """Whether the tails after one head take ``values`` forms at least, of two lengths at
    least (bracketed tails, a record's last field: see the module)."""
    return len(tails) >= max(values, 2) and len({len(tail) for tail in tails}) > 1


def _merges(
    members: list[tuple[str, _Words]],
    messages: Mapping[str, int],
    values: int,
    support: Mapping[str, int],
) -> bool:
    """Whether the tails after one head are values of its key (see the module)."""
    tails = {tail for _, tail in members}
    if len({len(tail) for tail in tails}) < 2:
        return False
    if (VARIABLE,) in tails:
        beside = sum(support.get(form, 1) for form, tail in members if tail != (VARIABLE,))
        if beside >= _BESIDE_LONE:
            return True
    once = sum(messages.get(form, 1) == 1 for form, _ in members)
    return once >= max(values, 2)
