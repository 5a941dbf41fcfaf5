"""Where the words of a batch's templates stand.

A word's *place* is its position in a template together with the template's first word
(none for the first word itself), and for a word of a quoted value of several words
(``template_quotes``) its place in that value. The words that tell the kinds of one event apart
(``opened`` / ``closed`` of ``Session <*> opened for bob``) stand at one place whatever else
varies; a value of a type the source writes in several of its templates (a request method,
a state, a user name) stands at several. The batch merge reads this to tell the kinds of an
event, which stay apart, from the values of such a type, which are a parameter. It depends
on the batch only.
"""

from __future__ import annotations

from collections.abc import Iterable

from factledger.domain.logs.template_words import JOINER, VARIABLE, bare, key_of

__all__ = ["Places"]

_Place = tuple[str, int, int, int]


class Places:
    """The places of the words of a batch's templates, indexed on the first question."""

    def __init__(self, forms: Iterable[str]) -> None:
        self._forms = tuple(forms)
        self._index: dict[str, set[_Place]] | None = None

    def recurs(self, word: str) -> bool:
        """Whether ``word`` stands at two places at least in the batch, whatever brackets,
        quotes and punctuation it is written with there (``[tovi],`` / ``[tovi]``)."""
        index = self._index
        if index is None:
            index = self._index = _index(self._forms)
        return len(index.get(bare(word), ())) > 1


def _index(forms: Iterable[str]) -> dict[str, set[_Place]]:
    """Each word without a variable → up to two of its places."""
    index: dict[str, set[_Place]] = {}
    for form in forms:
        words = form.split(" ")
        first = words[0]
        size = len(words)
        for position, word in enumerate(words):
            if JOINER in word:
                for part, inner in enumerate(word.split(JOINER)):
                    if VARIABLE not in inner:
                        _add(index, bare(inner), (first if position else "", position, size, part))
                continue
            if VARIABLE in word:
                continue
            place = (first if position else "", position, size, 0)
            _add(index, bare(word), place)
            key = key_of(word)
            if key and len(key) < len(word):
                _add(index, bare(word[len(key) :]), place)
    return index


def _add(index: dict[str, set[_Place]], word: str, place: _Place) -> None:
    places = index.get(word)
    if places is None:
        places = index[word] = set()
    if len(places) < 2:
        places.add(place)
