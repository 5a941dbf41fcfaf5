"""Two merges of a batch's templates beyond one differing word:

* **absorb**: a template that a more general template of the same length matches (equal
  words where that one has no variable, and where it has one, a word around which that
  variable's word fits: ``user=bob`` in ``user=<*>``) is merged into it, the most specific
  such template first. A merge found late in a batch (``roles <*> to <*>``) thus also takes
  the templates seen too rarely to make it themselves (``roles admin to bob``).
* **gaps**: templates of different lengths that share the words before and after one
  stretch (at least ``context`` of them without a variable) are merged there, the stretch
  becoming one variable, when the stretches take at least ``values`` different forms or one
  of them is a lone variable in brackets or quotes that encloses every other stretch
  (``"<*>"`` and ``"<*> (<*>; <*>) <*>"``), or each is a lone variable or one followed by a
  unit (``lifetime <*>`` and ``lifetime <*> sec``), or each starts with one ``key=`` and
  all but a lone ``key=<*>`` are one quoted or bracketed value (``tag="two words"``). A
  value of several words (a phrase, a list, a time written with spaces) thus ends in one
  template whatever its length.

Both depend on the batch only and never on the order of the templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Final

from factledger.domain.logs.template_words import (
    VARIABLE,
    collapse,
    common_length,
    enclosed_variable,
    is_unit,
    key_of,
)

__all__ = ["absorb", "bracketed", "merge_gaps"]

# The longest stretch (in words) a gap merge replaces; a longer one, up to ``_LONGEST``,
# when the words around it without a variable are at least as many as its own.
_MAX_GAP: Final = 6
_LONGEST: Final = 12

_Words = tuple[str, ...]
_PAIRS: Final = {"(": ")", "[": "]", "{": "}", '"': '"', "'": "'"}


def absorb(forms: set[str], fresh: set[str] | None = None) -> dict[str, str]:
    """Each form a more general form of its length matches → the most specific such form.

    A general form looks only at the forms of its length that hold its first (or its last)
    constant word at its place, whichever are fewer (an index by length, position and
    word). With ``fresh`` (the forms added since a set in which nothing was absorbed), only
    pairs with a fresh form are looked at."""
    generals: list[tuple[_Words, list[int], list[int]]] = []
    split = [tuple(form.split(" ")) for form in forms]
    for words in split:
        keep = [index for index, word in enumerate(words) if VARIABLE not in word]
        if keep and len(keep) < len(words):
            mask = [index for index, word in enumerate(words) if VARIABLE in word]
            generals.append((words, mask, keep))
    new = None if fresh is None else {tuple(form.split(" ")) for form in fresh}
    every = _place_index(split, generals if new is None else [g for g in generals if g[0] in new])
    only_new = {} if new is None else _place_index(list(new), generals)
    best: dict[_Words, tuple[int, _Words]] = {}
    for general, mask, keep in generals:
        size, first, last = len(general), keep[0], keep[-1]
        at = every if new is None or general in new else only_new
        candidates = min(
            at.get((size, first, general[first]), ()),
            at.get((size, last, general[last]), ()),
            key=len,
        )
        rank = (len(mask), general)
        for words in candidates:
            known = best.get(words)
            if (known is None or rank < known) and _absorbs(general, mask, keep, words):
                best[words] = rank
    return {" ".join(words): " ".join(rank[1]) for words, rank in best.items()}


def _place_index(
    split: Sequence[_Words], generals: Sequence[tuple[_Words, list[int], list[int]]]
) -> dict[tuple[int, int, str], list[_Words]]:
    """The forms by length, position and word, at the first and last constant positions of
    the general forms of their length."""
    places: dict[int, set[int]] = defaultdict(set)
    for general, _mask, keep in generals:
        places[len(general)].update((keep[0], keep[-1]))
    at: dict[tuple[int, int, str], list[_Words]] = defaultdict(list)
    for words in split:
        size = len(words)
        for index in places.get(size, ()):
            at[(size, index, words[index])].append(words)
    return at


def _absorbs(general: _Words, mask: list[int], keep: list[int], words: _Words) -> bool:
    """Whether ``general`` matches ``words`` and is more general (variables at a strict
    superset of the positions ``words`` has them)."""
    if any(words[index] != general[index] for index in keep):
        return False
    if any(VARIABLE in words[index] for index in keep):
        return False
    if not any(VARIABLE not in words[index] for index in mask):
        return False
    return all(_fits(words[index], general[index]) for index in mask)


def _fits(word: str, pattern: str) -> bool:
    """True when ``word`` is a value of the template word ``pattern`` (one variable)."""
    if word == pattern:
        return True
    before, _, after = pattern.partition(VARIABLE)
    if VARIABLE in after:
        return False
    return len(word) > len(before) + len(after) and word.startswith(before) and word.endswith(after)


def merge_gaps(forms: set[str], values: int, context: int) -> dict[str, str]:
    """Forms of different lengths merged over the one stretch where they differ."""
    split = [tuple(form.split(" ")) for form in sorted(forms)]
    stretches: dict[tuple[_Words, _Words], list[tuple[int, _Words]]] = defaultdict(list)
    starts = _shared_depths(split, from_end=False)
    ends = _shared_depths(split, from_end=True)
    lengths: dict[tuple[str, str], set[int]] = defaultdict(set)
    for words in split:
        lengths[(words[0], words[-1])].add(len(words))
    for index, words in enumerate(split):
        size = len(words)
        last_start, first_stop = starts[index], size - ends[index]
        if last_start == 0 and first_stop == size:
            continue
        if len(lengths[(words[0], words[-1])]) < 2:
            # No form of another length has both its end words: a stretch keeps one end.
            _one_end_stretches(words, index, last_start, first_stop, context, stretches)
            continue
        constant = [0]
        for word in words:
            constant.append(constant[-1] + (VARIABLE not in word))
        total = constant[-1]
        for start in range(last_start + 1):
            for stop in range(max(start + 1, first_stop), min(start + _LONGEST, size) + 1):
                kept = total - (constant[stop] - constant[start])
                if kept < context and not (kept and bracketed(words[start], words[stop - 1])):
                    continue
                if stop - start > _MAX_GAP and kept < stop - start:
                    continue
                stretches[(words[:start], words[stop:])].append((index, words[start:stop]))
    chosen = []
    for key, members in stretches.items():
        gaps = {gap for _, gap in members}
        if len({len(gap) for gap in gaps}) < 2 or _shares_a_word(gaps):
            continue
        inside = _has_constant(key[0]) and _has_constant(key[1])
        merged = _merged_gap(gaps, values, inside)
        if merged is not None:
            chosen.append((-_shared_words(key), key, merged, members))
    chosen.sort(key=lambda item: item[:3])
    renamed: dict[str, str] = {}
    for _, (before, after), merged, members in chosen:
        form = collapse(" ".join((*before, merged, *after)))
        for index, _gap in members:
            name = " ".join(split[index])
            if name not in renamed and name != form:
                renamed[name] = form
    return renamed


def _one_end_stretches(
    words: _Words,
    index: int,
    last_start: int,
    first_stop: int,
    context: int,
    stretches: dict[tuple[_Words, _Words], list[tuple[int, _Words]]],
) -> None:
    """The stretches of a form that reach its first or its last word."""
    size = len(words)
    spans = [(0, stop) for stop in range(max(1, first_stop), min(_MAX_GAP, size) + 1)]
    spans += [(start, size) for start in range(max(1, size - _MAX_GAP), last_start + 1)]
    for start, stop in spans:
        kept = sum(VARIABLE not in word for word in words[:start] + words[stop:])
        if kept < context and not (kept and bracketed(words[start], words[stop - 1])):
            continue
        stretches[(words[:start], words[stop:])].append((index, words[start:stop]))


def bracketed(first: str, last: str) -> bool:
    """Whether a stretch from ``first`` to ``last`` is one bracketed or quoted group: it
    needs fewer shared words around it (``context``), one at least, to be merged."""
    closer = _PAIRS.get(first[:1])
    return closer is not None and last.endswith(closer) and len(first + last) > 1


def _shared_depths(split: Sequence[_Words], from_end: bool) -> list[int]:
    """For each form, how many of its first (or last) words it shares with a form of another
    length: a stretch merge needs forms of two lengths sharing the words around it.

    The forms are sorted by those words; the form of another length sharing the most with
    a form is then the nearest one of another length on either side, and what they share
    is the least of what each neighbour on the way shares with the next."""
    order = sorted(range(len(split)), key=lambda index: _ends(split[index], from_end))
    ends = [_ends(split[index], from_end) for index in order]
    sizes = [len(split[index]) for index in order]
    shared = [common_length(ends[at], ends[at + 1]) for at in range(len(order) - 1)]
    depths = [0] * len(order)
    for steps in (range(1, len(order)), range(len(order) - 2, -1, -1)):
        reach = 0
        for at in steps:
            before = at - 1 if steps.step == 1 else at + 1
            between = shared[min(at, before)]
            reach = between if sizes[before] != sizes[at] else min(reach, between)
            depths[order[at]] = max(depths[order[at]], reach)
    return depths


def _ends(words: _Words, from_end: bool) -> _Words:
    """The words of a form but its last (or first), from the start (or the end)."""
    return words[:0:-1] if from_end else words[:-1]


def _has_constant(words: _Words) -> bool:
    """Whether a word holds no variable or is a ``key=`` value (its key is constant)."""
    return any(map(_constant, words))


def _shared_words(key: tuple[_Words, _Words]) -> int:
    """How many words around a stretch are constant (a ``key=`` value's key counted): the
    stretch that keeps more of them is the tighter one, taken first."""
    return sum(map(_constant, key[0] + key[1]))


def _constant(word: str) -> bool:
    """A word without a variable, or a ``key=`` value: a key is a word of its template."""
    return VARIABLE not in word or bool(key_of(word))


def _shares_a_word(gaps: set[_Words]) -> bool:
    """True when a word without a variable is in every stretch (they are aligned around
    it by another, shorter stretch)."""
    common: set[str] | None = None
    for gap in gaps:
        words = {word for word in gap if VARIABLE not in word}
        common = words if common is None else common & words
        if not common:
            return False
    return bool(common)


def _merged_gap(gaps: set[_Words], values: int, inside: bool) -> str | None:
    """The one word a set of differing stretches becomes, or None when they stay apart:
    enough different stretches between shared words or within brackets or quotes, or
    a lone bracketed variable among them."""
    word = enclosed_variable([gap[0] for gap in gaps], [gap[-1] for gap in gaps])
    enclosed = word[:1] != VARIABLE[0] and word[-1:] != VARIABLE[-1]
    if len(gaps) >= values and (inside or enclosed):
        return word
    if enclosed and (word,) in gaps:
        return word
    if inside and (VARIABLE,) in gaps and _items_of_one_list(gaps):
        return VARIABLE
    if (VARIABLE,) in gaps and all(map(_unit_or_not, gaps)):
        return VARIABLE
    return _keyed_variable(gaps)


def _keyed_variable(gaps: set[_Words]) -> str | None:
    """The lone variable of one ``key=`` among stretches that all start with that key and
    are, but for it, one quoted or bracketed value (``tag=<*>`` and ``tag="two words",``): a
    key's value of several words is still its value."""
    lone = [gap[0] for gap in gaps if len(gap) == 1 and VARIABLE in gap[0]]
    if len(lone) != 1:
        return None
    key = key_of(lone[0])
    if not key or not lone[0].startswith(key + VARIABLE):
        return None
    for gap in gaps:
        first = gap[0]
        if len(gap) == 1 and first == lone[0]:
            continue
        if key_of(first) != key or not bracketed(first[len(key) :], gap[-1].rstrip(",;.")):
            return None
    return lone[0]


def _unit_or_not(gap: _Words) -> bool:
    """Whether a stretch is a lone variable, or one followed by a unit (``<*> sec``): a
    unit written after some values and not after others is part of the value."""
    return gap[0] == VARIABLE and (len(gap) == 1 or (len(gap) == 2 and is_unit(gap[1])))


def _items_of_one_list(gaps: set[_Words]) -> bool:
    """Whether stretches beside a lone variable are lists of items around a variable: each
    holds a variable, there are two at least, and no word without a variable is in two of
    them (a word repeated across stretches is the template's own)."""
    seen: set[str] = set()
    others = 0
    for gap in gaps:
        if gap == (VARIABLE,):
            continue
        others += 1
        constants = {word for word in gap if VARIABLE not in word}
        if len(constants) == len(gap) or constants & seen:
            return False
        seen |= constants
    return others >= 2
