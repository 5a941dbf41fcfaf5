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
  (``"<*>"`` and ``"<*> (<*>; <*>) <*>"``). A value of several words (a phrase, a list, a
  time written with spaces) thus ends in one template whatever its length.

Both depend on the batch only and never on the order of the templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Final

from factledger.domain.logs.template_words import VARIABLE, collapse, enclosed_variable

__all__ = ["absorb", "merge_gaps"]

# The longest stretch (in words) a gap merge replaces.
_MAX_GAP: Final = 6

_Words = tuple[str, ...]


def absorb(forms: set[str]) -> dict[str, str]:
    """Each form a more general form of its length matches → the most specific such form."""
    split = {form: tuple(form.split(" ")) for form in sorted(forms)}
    general: dict[tuple[int, tuple[int, ...]], dict[_Words, list[_Words]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for words in split.values():
        mask = tuple(index for index, word in enumerate(words) if VARIABLE in word)
        if mask and len(mask) < len(words):
            constants = tuple(word for word in words if VARIABLE not in word)
            general[(len(words), mask)][constants].append(words)
    masks: dict[int, list[_Mask]] = defaultdict(list)
    for (length, mask), group in general.items():
        keep = tuple(index for index in range(length) if index not in mask)
        heads = frozenset(constants[0] for constants in group)
        masks[length].append((mask, frozenset(mask), keep, heads, group))
    renamed: dict[str, str] = {}
    for form, words in split.items():
        best = _most_specific(words, masks.get(len(words), []))
        if best is not None:
            renamed[form] = " ".join(best)
    return renamed


# A mask of general forms: its variable positions (as a tuple and a set), its constant
# positions, the first constant word of each of its forms, and its forms by their constants.
_Mask = tuple[
    tuple[int, ...], frozenset[int], tuple[int, ...], frozenset[str], dict[_Words, list[_Words]]
]


def _most_specific(words: _Words, masks: Sequence[_Mask]) -> _Words | None:
    own = frozenset(index for index, word in enumerate(words) if VARIABLE in word)
    best: _Words | None = None
    best_rank: tuple[int, _Words] | None = None
    for mask, positions, keep, heads, group in masks:
        if len(mask) <= len(own) or words[keep[0]] not in heads or not own < positions:
            continue
        key = tuple(words[index] for index in keep)
        for candidate in group.get(key, ()):
            if all(_fits(words[index], candidate[index]) for index in mask):
                rank = (len(mask), candidate)
                if best_rank is None or rank < best_rank:
                    best, best_rank = candidate, rank
    return best


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
    for index, words in enumerate(split):
        size = len(words)
        last_start, first_stop = starts[index], size - ends[index]
        if last_start == 0 and first_stop == size:
            continue
        constant = [0]
        for word in words:
            constant.append(constant[-1] + (VARIABLE not in word))
        total = constant[-1]
        for start in range(last_start + 1):
            for stop in range(max(start + 1, first_stop), min(start + _MAX_GAP, size) + 1):
                if total - (constant[stop] - constant[start]) < context:
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
            shared = sum(VARIABLE not in word for word in key[0] + key[1])
            chosen.append((-shared, key, merged, members))
    chosen.sort(key=lambda item: item[:3])
    renamed: dict[str, str] = {}
    for _, (before, after), merged, members in chosen:
        form = collapse(" ".join((*before, merged, *after)))
        for index, _gap in members:
            name = " ".join(split[index])
            if name not in renamed and name != form:
                renamed[name] = form
    return renamed


def _shared_depths(split: Sequence[_Words], from_end: bool) -> list[int]:
    """For each form, how many of its first (or last) words it shares with a form of another
    length: a stretch merge needs forms of two lengths sharing the words around it."""
    root: dict[str, list[object]] = {}
    for words in split:
        node, size = root, len(words)
        for word in _ends(words, from_end):
            child = node.get(word)
            if child is None:
                child = node[word] = [size, False, {}]
            elif child[0] != size:
                child[1] = True
            node = child[2]  # type: ignore[assignment]
    depths = []
    for words in split:
        node, depth = root, 0
        for word in _ends(words, from_end):
            child = node[word]
            if not child[1]:
                break
            depth += 1
            node = child[2]  # type: ignore[assignment]
        depths.append(depth)
    return depths


def _ends(words: _Words, from_end: bool) -> _Words:
    """The words of a form but its last (or first), from the start (or the end)."""
    return words[:0:-1] if from_end else words[:-1]


def _has_constant(words: _Words) -> bool:
    return any(VARIABLE not in word for word in words)


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
    return None
