"""The merge of a batch's templates over two differing stretches: templates that share
every word but those of two stretches (a word the shapes cannot see and a value of several
words, or two of either) are one template when each stretch takes many values.

The templates are grouped by what is left when two stretches of at most ``MAX_STRETCH``
words are cut out (the words before the first, between the two, after the second; at least
one word without a variable between them, and at least ``context`` such words in all). A
group is merged, each stretch becoming one variable (keeping the brackets or quotes all its
values share), when

* it holds at least ``values`` templates and as many different values in each stretch;
* one stretch at least has words on both sides (two stretches at the two ends of a
  template, ``X is deprecated, use Y``, have no bounds to say how long each value is);
* no value without a variable is in both stretches (``from RUNNING to FAILED`` / ``from NEW
  to RUNNING``: values drawn from one set are a relation between the template's own words,
  not two parameters);
* no word without a variable is in every value of a stretch (they are aligned around it),
  and the values of a stretch neither all start nor all end with one word (a stretch
  starts and ends where they differ);
* a stretch's first (or last) words that hold no variable are not a few words repeated
  (``opened`` / ``closed`` next to a name): those are the template's own words, and a group
  cut around them says so.

The groups that keep more words are taken first, and a template is merged at most once a
call. Everything depends on the set of templates only, never on their order.
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
)

__all__ = [
    "MAX_STRETCH",
    "Cut",
    "Member",
    "merge_pairs",
    "merged_cuts",
]

# The longest stretch (in words) a merge over two stretches replaces.
MAX_STRETCH: Final = 6

_Words = tuple[str, ...]
# What is left of a template with two stretches cut out: before, between, after.
Cut = tuple[_Words, _Words, _Words]
# A template's index and the two stretches cut out of it.
Member = tuple[int, _Words, _Words]


def merge_pairs(forms: set[str], values: int, context: int) -> dict[str, str]:
    """Forms merged over the two stretches where they differ → what they become.

    The words of a cut before its first stretch are shared by the other forms of its group,
    and so are its words after the second: the forms are first grouped by those two only,
    from the starts up to the longest prefix a form shares with as many forms as a merge
    needs values and the ends from its longest such suffix on. Cuts are made only in groups
    of that many forms (a form is in a group once) whose words where the stretches start
    (and end) can pass ``_varies``, and only where what lies between the stretches starts
    and ends with words that many of the group's forms hold near there."""
    split = [tuple(form.split(" ")) for form in sorted(forms)]
    least = max(values, 2)
    heads = _shared_prefixes(split, least)
    tails = _shared_prefixes([words[::-1] for words in split], least)
    bounds: dict[tuple[_Words, _Words], list[tuple[int, int, int]]] = defaultdict(list)
    for index, words in enumerate(split):
        size = len(words)
        for start in range(min(heads[index], size - 3) + 1):
            before = words[:start]
            for end in range(max(start + 3, size - tails[index]), size + (start > 0)):
                bounds[(before, words[end:])].append((index, start, end))
    constants: dict[int, list[int]] = {}
    cuts: dict[Cut, list[Member]] = defaultdict(list)
    for members in bounds.values():
        if len(members) < least or not _open_edges(split, members, least):
            continue
        edges = _between_edges(split, members, least)
        found = []
        coarse: dict[tuple[str, str, int], set[int]] = defaultdict(set)
        for index, start, end in members:
            words = split[index]
            constant = constants.get(index)
            if constant is None:
                constant = constants[index] = _constant_counts(words)
            spans = _spans((words, constant), (start, end), edges, context)
            found.append(spans)
            for stop, begin in spans:
                coarse[(words[stop], words[begin - 1], begin - stop)].add(index)
        for (index, start, end), spans in zip(members, found, strict=True):
            words = split[index]
            for stop, begin in spans:
                if len(coarse[(words[stop], words[begin - 1], begin - stop)]) >= least:
                    cut = (words[:start], words[stop:begin], words[end:])
                    cuts[cut].append((index, words[start:stop], words[begin:end]))
    return merged_cuts(split, cuts, values)


def _shared_prefixes(split: Sequence[_Words], least: int) -> list[int]:
    """For each sequence, how many of its first words it shares with ``least`` - 1 others
    (at least; in sorted order the sequences sharing a prefix are a run, and what a run
    shares is the least of what each one shares with the next)."""
    order = sorted(range(len(split)), key=split.__getitem__)
    shared = [common_length(split[order[at]], split[order[at + 1]]) for at in range(len(order) - 1)]
    depths = [0] * len(split)
    for first in range(len(order) - least + 1):
        depth = min(shared[first : first + least - 1])
        for at in range(first, first + least):
            depths[order[at]] = max(depths[order[at]], depth)
    return depths


def _constant_counts(words: _Words) -> list[int]:
    """How many words without a variable come before each position (and in all, last)."""
    counts = [0]
    for word in words:
        counts.append(counts[-1] + (VARIABLE not in word))
    return counts


def _between_edges(
    split: Sequence[_Words], members: list[tuple[int, int, int]], least: int
) -> tuple[set[str], set[str]]:
    """The words that can start (and end) what lies between the stretches in a group of
    forms sharing the words before and after them: those that ``least`` of the forms hold
    where such a word can be."""
    starts: dict[str, int] = defaultdict(int)
    ends: dict[str, int] = defaultdict(int)
    for index, start, end in members:
        words = split[index]
        for word in set(words[start + 1 : min(start + MAX_STRETCH, end - 2) + 1]):
            starts[word] += 1
        for word in set(words[max(start + 1, end - MAX_STRETCH - 1) : end - 1]):
            ends[word] += 1
    return (
        {word for word, count in starts.items() if count >= least},
        {word for word, count in ends.items() if count >= least},
    )


def _spans(
    form: tuple[_Words, list[int]],
    bounds: tuple[int, int],
    edges: tuple[set[str], set[str]],
    context: int,
) -> list[tuple[int, int]]:
    """Where what lies between the stretches can be in a form (its words and
    ``_constant_counts``) whose first stretch starts at the first of ``bounds`` and whose
    second ends at the other: starting and ending with words of ``edges``, holding a
    constant word, at least ``context`` constant words left (as end of the first stretch,
    start of the second)."""
    words, constant = form
    start, end = bounds
    firsts, lasts = edges
    total = constant[-1]
    found = []
    for stop in range(start + 1, min(start + MAX_STRETCH, end - 2) + 1):
        if words[stop] not in firsts:
            continue
        first_out = constant[stop] - constant[start]
        for begin in range(max(stop + 1, end - MAX_STRETCH), end):
            if constant[begin] == constant[stop] or words[begin - 1] not in lasts:
                continue
            if total - first_out - (constant[end] - constant[begin]) >= context:
                found.append((stop, begin))
    return found


def merged_cuts(
    split: Sequence[_Words], cuts: dict[Cut, list[Member]], values: int
) -> dict[str, str]:
    """The groups of cuts that merge, the one keeping more words first: form → merged."""
    chosen = []
    least = max(values, 2)
    for cut, members in cuts.items():
        if len(members) < least or len({index for index, _, _ in members}) < least:
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


def _open_edges(split: Sequence[_Words], members: list[tuple[int, int, int]], least: int) -> bool:
    """Whether the first words of the first stretches of a group of forms (and the last words
    of the second) can pass ``_varies``: not all one word, and a variable among them or
    ``least`` different ones."""
    for edge in (1, 2):
        words = {split[member[0]][member[edge] - edge + 1] for member in members}
        if len(words) < 2 or (len(words) < least and not any(VARIABLE in word for word in words)):
            return False
    return True


def _overlap(firsts: set[_Words], seconds: set[_Words]) -> bool:
    """Whether a value without a variable is in both stretches."""
    return any(VARIABLE not in " ".join(value) for value in firsts & seconds)


def _varies(stretches: set[_Words], least: int) -> bool:
    """Whether the values of a stretch are values: no constant word in all of them, not all
    starting (or ending) with one word (the stretch starts where they differ), and their
    constant first (and last) words not a few repeated ones."""
    common: set[str] | None = None
    for stretch in stretches:
        words = {word for word in stretch if VARIABLE not in word}
        common = words if common is None else common & words
    if common:
        return False
    for edge in (0, -1):
        if len({stretch[edge] for stretch in stretches}) < 2:
            return False
        found = [stretch[edge] for stretch in stretches if VARIABLE not in stretch[edge]]
        distinct = len(set(found))
        if distinct < least and len(found) > distinct:
            return False
    return True


def _variable(stretches: set[_Words]) -> str:
    """The one word the values of a stretch become (their shared brackets kept)."""
    ordered = sorted(stretches)
    return enclosed_variable([words[0] for words in ordered], [words[-1] for words in ordered])
