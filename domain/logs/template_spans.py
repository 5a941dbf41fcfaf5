"""The last merge of a batch's templates: a rare template that a far more common, shorter
template matches, each of that one's variables standing for one word or several, is
merged into it.

A merge of many values makes a variable of a stretch of several words (``fe be/srv
0/1/2 200 512`` is one ``<*>``; ``ID=<*> ... URGP=<*>``); a template of the same event
whose other positions took a value seen too rarely there to merge (one front end, one flag
word, a key written empty) stays apart, longer than the template it belongs to. It is
taken by a shorter template when

* that template stands for ``values`` times as many messages at least;
* one of the templates it stands for has the rare template's length (so a variable of it
  already stands for a stretch of several words in the batch) and differs from one of the
  rare template's in two words at most (the rare values): the rest of the event is the
  same;
* it matches the rare template: every constant word equal and in order, each variable word
  (``<*>``, ``key=<*>``, ``"<*>"``) standing for one word that fits it as in
  ``template_gaps.absorb`` (``key=`` written empty fits ``key=<*>``), or for a stretch of
  several words holding a variable that starts with what the variable's word starts with
  and ends with what it ends with.

Of several such templates the one standing for the most messages is taken (then the one of
fewer words, then the first in order). Only the batch decides: no word list, and the result
does not depend on the order of the templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from factledger.domain.logs.template_words import VARIABLE

__all__ = ["absorb_last", "absorb_spans"]

_Words = tuple[str, ...]
_NEAR = 2


def absorb_last(
    current: dict[str, str], counts: Mapping[str, int], forms: set[str], values: int
) -> dict[str, str]:
    """``current`` (each template → its form, ``forms`` their set; ``counts``: each
    template's messages) after this merge, done once the other stages are done."""
    members: dict[str, list[str]] = defaultdict(list)
    messages: dict[str, int] = defaultdict(int)
    for template, form in current.items():
        members[form].append(template)
        messages[form] += counts[template]
    renamed = absorb_spans(forms, messages, members, values)
    if renamed:
        for template, form in current.items():
            current[template] = renamed.get(form, form)
    return current


def absorb_spans(
    forms: set[str],
    messages: Mapping[str, int],
    spanning: Mapping[str, Sequence[str]],
    values: int,
) -> dict[str, str]:
    """Each rare form a shorter, far more common form matches over stretches → that form.
    ``spanning``: each form with the templates it stands for."""
    split = sorted(tuple(form.split(" ")) for form in forms)
    generals = sorted(
        (-messages.get(form, 1), len(words), words, form)
        for words, form in ((words, " ".join(words)) for words in split)
        if any(member.count(" ") >= len(words) for member in spanning[form])
    )
    parts = _Parts(spanning)
    found: dict[_Words, _Words] = {}
    for words in split:
        name = " ".join(words)
        least = values * messages.get(name, 1)
        own: list[tuple[_Words, list[tuple[int, int, _Words]]]] | None = None
        for count, size, general, form in generals:
            if -count < least:
                break
            if size >= len(words) or not _ends_agree(general, words):
                continue
            if own is None:
                own = [(template, _thirds(template)) for template in parts.templates(name)]
            if _near(own, parts[form]) and _matches(general, words):
                found[words] = general
                break
    return {" ".join(words): " ".join(_final(words, found)) for words in found}


class _Parts(dict[str, dict[tuple[int, int, _Words], list[_Words]]]):
    """The templates each form stands for, by length and by each third of their words
    (found when first asked): two templates of one length that differ in two words at most
    share one third at least."""

    def __init__(self, spanning: Mapping[str, Sequence[str]]) -> None:
        super().__init__()
        self._spanning = spanning

    def templates(self, form: str) -> list[_Words]:
        """The templates ``form`` stands for, split into words."""
        return [tuple(template.split(" ")) for template in self._spanning.get(form, (form,))]

    def __missing__(self, form: str) -> dict[tuple[int, int, _Words], list[_Words]]:
        found: dict[tuple[int, int, _Words], list[_Words]] = {}
        for words in self.templates(form):
            for key in _thirds(words):
                found.setdefault(key, []).append(words)
        self[form] = found
        return found


def _thirds(words: _Words) -> list[tuple[int, int, _Words]]:
    """A template's length with each third of its words (and which third)."""
    size = len(words)
    cuts = (0, size // 3, 2 * size // 3, size)
    return [(size, third, words[cuts[third] : cuts[third + 1]]) for third in range(3)]


def _near(
    own: Sequence[tuple[_Words, list[tuple[int, int, _Words]]]],
    parts: Mapping[tuple[int, int, _Words], list[_Words]],
) -> bool:
    """Whether a template of ``own`` (each with its thirds) and one indexed in ``parts`` have
    one length and differ in two words at most."""
    for words, thirds in own:
        for key in thirds:
            if any(_close(words, other) for other in parts.get(key, ())):
                return True
    return False


def _close(words: _Words, other: _Words) -> bool:
    """Whether two templates of one length differ in two words at most."""
    differences = 0
    for one, two in zip(words, other, strict=True):
        if one != two:
            differences += 1
            if differences > _NEAR:
                return False
    return True


def _ends_agree(general: _Words, words: _Words) -> bool:
    """Whether a constant first (last) word of ``general`` is the first (last) of ``words``."""
    first, last = general[0], general[-1]
    return (VARIABLE in first or first == words[0]) and (VARIABLE in last or last == words[-1])


def _final(words: _Words, found: Mapping[_Words, _Words]) -> _Words:
    """The form a chain of merges ends in (each step is into a form of more messages)."""
    while words in found:
        words = found[words]
    return words


def _matches(general: _Words, words: _Words) -> bool:
    """Whether ``general`` matches ``words``, each of its variable words over a stretch of
    one word or more."""
    size, length = len(general), len(words)
    reach = [[False] * (length + 1) for _ in range(size + 1)]
    reach[size][length] = True
    for at in range(size - 1, -1, -1):
        pattern = general[at]
        variable = VARIABLE in pattern
        for start in range(length - 1, -1, -1):
            if not variable:
                reach[at][start] = words[start] == pattern and reach[at + 1][start + 1]
                continue
            before, _, after = pattern.partition(VARIABLE)
            if not words[start].startswith(before):
                continue
            reach[at][start] = any(
                reach[at + 1][stop] and _closes(words, start, stop, before, after)
                for stop in range(start + 1, length + 1)
            )
    return reach[0][0]


def _closes(words: Sequence[str], start: int, stop: int, before: str, after: str) -> bool:
    """Whether ``words[start:stop]`` is a value of ``before<*>after``."""
    if stop - start == 1:
        word = words[start]
        if word == before + VARIABLE + after:
            return True
        if word == before + after and before.endswith(("=", ":")):
            return True
        return len(word) > len(before) + len(after) and word.endswith(after)
    if not any(VARIABLE in word for word in words[start:stop]):
        return False
    return words[stop - 1].endswith(after)
