"""The merge of a batch's templates over two differing stretches: templates that share
every word but those of two stretches (a word the shapes cannot see and a value of several
words, or two of either) are one template when each stretch takes many values.

The templates are grouped by what is left when two stretches of at most ``MAX_STRETCH``
words are cut out (the words before the first, between the two, after the second; at least
one word without a variable between them, and at least ``context`` such words in all). A
group is merged, each stretch becoming one variable (keeping the brackets or quotes all its
values share), when

* it holds two templates or more and at least ``values`` different values in each stretch;
* one stretch at least has words on both sides (two stretches at the two ends of a
  template, ``X is deprecated, use Y``, have no bounds to say how long each value is);
* no value without a variable is in both stretches (``from RUNNING to FAILED`` / ``from NEW
  to RUNNING``: values drawn from one set are a relation between the template's own words,
  not two parameters);
* no word without a variable is in every value of a stretch (they are aligned around it);
* a stretch's first (or last) words that hold no variable are not a few words repeated
  (``opened`` / ``closed`` next to a name): those are the template's own words, and a group
  cut around them says so.

The groups that keep more words are taken first, and a template is merged at most once a
call. Everything depends on the set of templates only, never on their order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Final

from factledger.domain.logs.template_words import VARIABLE, collapse, enclosed_variable

__all__ = [
    "MAX_STRETCH",
    "Cut",
    "Member",
    "add_cuts",
    "merge_pairs",
    "merged_cuts",
    "shared_prefixes",
]

MAX_STRETCH: Final = 6
"""The longest stretch (in words) a merge over two stretches replaces."""

_Words = tuple[str, ...]
Cut = tuple[_Words, _Words, _Words]
"""What is left of a template with two stretches cut out: before, between, after."""
Member = tuple[int, _Words, _Words]
"""A template's index and the two stretches cut out of it."""


def merge_pairs(forms: set[str], values: int, context: int) -> dict[str, str]:
    """Forms merged over the two stretches where they differ → what they become.

    A cut's words before the first stretch are shared by another form of its group (and so
    are its words after the second): only the starts up to the longest prefix a form shares
    with another form, and the ends from its longest shared suffix on, are tried."""
    split = [tuple(form.split(" ")) for form in sorted(forms)]
    heads = shared_prefixes(split)
    tails = shared_prefixes([words[::-1] for words in split])
    cuts: dict[Cut, list[Member]] = defaultdict(list)
    for index, words in enumerate(split):
        size = len(words)
        starts = range(min(heads[index], size - 3) + 1)
        add_cuts(cuts, index, words, starts, size - tails[index], context)
    return merged_cuts(split, cuts, values)


def shared_prefixes(split: Sequence[_Words]) -> list[int]:
    """For each sequence, how many of its first words it shares with another one (the
    nearest ones in sorted order share the most)."""
    order = sorted(range(len(split)), key=split.__getitem__)
    depths = [0] * len(split)
    for at in range(len(order) - 1):
        first, second = order[at], order[at + 1]
        shared = _common_length(split[first], split[second])
        depths[first] = max(depths[first], shared)
        depths[second] = max(depths[second], shared)
    return depths


def _common_length(first: _Words, second: _Words) -> int:
    size = min(len(first), len(second))
    for index in range(size):
        if first[index] != second[index]:
            return index
    return size


def add_cuts(
    cuts: dict[Cut, list[Member]],
    index: int,
    words: _Words,
    starts: Iterable[int],
    last_stop: int,
    context: int,
) -> None:
    """Every cut of ``words`` whose first stretch starts at one of ``starts`` and whose
    second ends at ``last_stop`` or later, with a constant word between the stretches and
    at least ``context`` constant words left."""
    size = len(words)
    constant = [0]
    for word in words:
        constant.append(constant[-1] + (VARIABLE not in word))
    total = constant[-1]
    for start in starts:
        for stop in range(start + 1, min(start + MAX_STRETCH, size - 2) + 1):
            first_out = constant[stop] - constant[start]
            for begin in range(stop + 1, size):
                if constant[begin] == constant[stop]:
                    continue
                for end in range(max(begin + 1, last_stop), min(begin + MAX_STRETCH, size) + 1):
                    if total - first_out - (constant[end] - constant[begin]) < context:
                        continue
                    cut = (words[:start], words[stop:begin], words[end:])
                    cuts[cut].append((index, words[start:stop], words[begin:end]))


def merged_cuts(
    split: Sequence[_Words], cuts: dict[Cut, list[Member]], values: int
) -> dict[str, str]:
    """The groups of cuts that merge, the one keeping more words first: form → merged."""
    chosen = []
    least = max(values, 2)
    for cut, members in cuts.items():
        if len(members) < least or len({index for index, _, _ in members}) < 2:
            continue
        firsts = {first for _, first, _ in members}
        seconds = {second for _, _, second in members}
        if len(firsts) < least or len(seconds) < least:
            continue
        if (cut[0] == () and cut[2] == ()) or _overlap(firsts, seconds):
            continue
        if not (_varies(firsts, least) and _varies(seconds, least)):
            continue
        shared = sum(VARIABLE not in word for part in cut for word in part)
        chosen.append((-shared, cut, _variable(firsts), _variable(seconds), members))
    chosen.sort(key=lambda item: item[:4])
    renamed: dict[str, str] = {}
    for _, (before, between, after), first, second, members in chosen:
        form = collapse(" ".join((*before, first, *between, second, *after)))
        for index, _first, _second in members:
            name = " ".join(split[index])
            if name not in renamed and name != form:
                renamed[name] = form
    return renamed


def _overlap(firsts: set[_Words], seconds: set[_Words]) -> bool:
    """Whether a value without a variable is in both stretches."""
    return any(VARIABLE not in " ".join(value) for value in firsts & seconds)


def _varies(stretches: set[_Words], least: int) -> bool:
    """Whether the values of a stretch are values: no constant word in all of them, and its
    constant first (and last) words not a few repeated ones."""
    common: set[str] | None = None
    for stretch in stretches:
        words = {word for word in stretch if VARIABLE not in word}
        common = words if common is None else common & words
    if common:
        return False
    for edge in (0, -1):
        found = [stretch[edge] for stretch in stretches if VARIABLE not in stretch[edge]]
        distinct = len(set(found))
        if distinct < least and len(found) > distinct:
            return False
    return True


def _variable(stretches: set[_Words]) -> str:
    """The one word the values of a stretch become (their shared brackets kept)."""
    ordered = sorted(stretches)
    return enclosed_variable([words[0] for words in ordered], [words[-1] for words in ordered])
