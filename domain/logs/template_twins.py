"""Twin positions of a template: two positions that take the same few words, each whatever
the other holds (``allDrawn= true, shown= false``, ``allDrawn= false, shown= false``,
``allDrawn= true, shown= true``). Words one template writes at two positions, in three
combinations at least, are values of one type (``true`` / ``false``, ``on`` / ``off``): a
parameter at both, however few they are. The kinds of an event are written at one position
of its template, and a change between two of its states (``from on to off``) never goes
from a state to itself, so neither makes twins. It depends on the batch only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from factledger.domain.logs.template_words import VARIABLE, bare

__all__ = ["twin_sets"]


def twin_sets(group: Sequence[tuple[str, ...]], found: Sequence[tuple[int, list[int]]]) -> set[int]:
    """The numbers (in ``found``) of the sibling sets of one length's forms whose words, none
    holding a variable, are also the words of a sibling set at another position that one of
    their forms is in (compared without the punctuation around them). ``found``: (position,
    member indexes) of every sibling set (a negative index is not a member)."""
    words_of: list[frozenset[str]] = []
    by_form: dict[int, dict[int, frozenset[str]]] = defaultdict(dict)
    for position, members in found:
        words = frozenset(bare(group[index][position]) for index in members if index >= 0)
        words_of.append(words)
        for index in members:
            if index >= 0:
                by_form[index][position] = words
    twins: set[int] = set()
    for number, (position, members) in enumerate(found):
        words = words_of[number]
        if len(words) < 2 or any(VARIABLE in word for word in words):
            continue
        if any(
            other == words
            for index in members
            if index >= 0
            for where, other in by_form[index].items()
            if where != position
        ):
            twins.add(number)
    return twins
