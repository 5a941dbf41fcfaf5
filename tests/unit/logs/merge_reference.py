"""The batch merge written the plain way (a trie of first and last words, every mask of a
length tried for every template, every word position bucketed): the oracle the indexed merge
in ``template_gaps`` and ``template_merge`` is checked against."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from factledger.domain.logs.template_gaps import (
    _MAX_GAP,
    _ends,
    _fits,
    _has_constant,
    _merged_gap,
    _shared_words,
    _shares_a_word,
    bracketed,
)
from factledger.domain.logs.template_merge import (
    _MAX_ROUNDS,
    _OFF,
    DEFAULT_MERGE,
    MergeSettings,
    _generalise,
    _is_kind,
    _is_variable,
    _messages,
)
from factledger.domain.logs.template_pairs import MAX_STRETCH, Cut, Member, merged_cuts
from factledger.domain.logs.template_places import Places
from factledger.domain.logs.template_quotes import join_quoted, unjoin
from factledger.domain.logs.template_spans import absorb_last
from factledger.domain.logs.template_tails import merge_tails
from factledger.domain.logs.template_twins import twin_sets
from factledger.domain.logs.template_union import components, union
from factledger.domain.logs.template_words import (
    VARIABLE,
    collapse,
    has_constant,
    narrowed,
    quoted_values,
)

__all__ = [
    "reference_absorb",
    "reference_merge_gaps",
    "reference_merge_pairs",
    "reference_merge_templates",
]

_Words = tuple[str, ...]
_Mask = tuple[
    tuple[int, ...], frozenset[int], tuple[int, ...], frozenset[str], dict[_Words, list[_Words]]
]


def reference_merge_templates(
    templates: Sequence[str], settings: MergeSettings = DEFAULT_MERGE
) -> dict[str, str]:
    """``merge_templates`` over the plain stages."""
    counts = Counter(join_quoted(template) for template in templates)
    distinct = list(counts)
    current = {template: template for template in distinct}
    forms = set(distinct)
    paired = False
    places = Places(distinct)
    for _ in range(_MAX_ROUNDS):
        seen = (places, _messages(current, counts))
        support = Counter(current.values())
        renamed = _merge_round(forms, settings, support, seen)
        if not renamed:
            renamed = reference_absorb(forms)
        if not renamed and settings.gap_context < _OFF:
            renamed = reference_merge_gaps(forms, settings.min_values, settings.gap_context)
            if not renamed:
                renamed = merge_tails(
                    forms, seen[1], settings.min_values, settings.gap_context, support
                )
            if not renamed and not paired:
                renamed = reference_merge_pairs(forms, settings.min_values, settings.gap_context)
                paired = True
        if not renamed:
            break
        forms = set(renamed.values()) | (forms - renamed.keys())
        for template, form in current.items():
            current[template] = renamed.get(form, form)
    current = absorb_last(current, counts, forms, settings.min_values)
    return {template: unjoin(current[join_quoted(template)]) for template in templates}


def reference_absorb(forms: set[str]) -> dict[str, str]:
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


def reference_merge_gaps(forms: set[str], values: int, context: int) -> dict[str, str]:
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
                kept = total - (constant[stop] - constant[start])
                if kept < context and not (kept and bracketed(words[start], words[stop - 1])):
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


def reference_merge_pairs(forms: set[str], values: int, context: int) -> dict[str, str]:
    """Forms merged over the two stretches where they differ: every cut of every form."""
    split = [tuple(form.split(" ")) for form in sorted(forms)]
    cuts: dict[Cut, list[Member]] = defaultdict(list)
    for index, words in enumerate(split):
        size = len(words)
        for start in range(size):
            for stop in range(start + 1, min(start + MAX_STRETCH, size) + 1):
                for begin in range(stop + 1, size):
                    for end in range(begin + 1, min(begin + MAX_STRETCH, size) + 1):
                        kept = words[:start] + words[stop:begin] + words[end:]
                        between = words[stop:begin]
                        if sum(VARIABLE not in word for word in kept) < context or all(
                            VARIABLE in word for word in between
                        ):
                            continue
                        cut = (words[:start], between, words[end:])
                        cuts[cut].append((index, words[start:stop], words[begin:end]))
    return merged_cuts(split, cuts, values)


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


def _merge_round(
    forms: set[str],
    settings: MergeSettings,
    support: Mapping[str, int] | None = None,
    seen: tuple[Places, Mapping[str, int]] | None = None,
) -> dict[str, str]:
    """One round: the forms that merge → what they become."""
    places, messages = (Places(forms), {}) if seen is None else seen
    by_length: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for form in forms:
        by_length[form.count(" ") + 1].append(tuple(form.split(" ")))
    renamed: dict[str, str] = {}
    for length, group in by_length.items():
        if len(group) < 2:
            continue
        group.sort()
        parent = list(range(len(group)))
        found = [
            (position, members)
            for position in range(length)
            for members in _siblings(group, position, settings.min_context)
        ]
        twins = twin_sets(group, found)
        for number, (position, members) in enumerate(found):
            if number in twins:
                union(parent, members)
                continue
            before = group[members[0]][position - 1] if position else ""
            values, before = narrowed([group[index][position] for index in members], before)
            sizes = [
                (
                    _breadth(group, found, support, index, position),
                    messages.get(" ".join(group[index]), 1),
                )
                for index in members
            ]
            if _is_variable(values, before == VARIABLE, settings) and not _is_kind(
                values, before, sizes, settings, places
            ):
                union(parent, members)
        for members in components(parent):
            if len(members) > 1:
                merged = _generalise([group[index] for index in members])
                for index in members:
                    renamed[" ".join(group[index])] = merged
    return renamed


def _breadth(
    group: Sequence[tuple[str, ...]],
    found: Sequence[tuple[int, list[int]]],
    support: Mapping[str, int] | None,
    index: int,
    position: int,
) -> int:
    """The templates one form stands for, or the forms of its largest sibling set at
    another position than ``position``, whichever are more."""
    own = 1 if support is None else support.get(" ".join(group[index]), 1)
    sizes = [len(members) for at, members in found if at != position and index in members]
    return max([own, *sizes])


def _siblings(group: Sequence[tuple[str, ...]], position: int, min_context: int) -> list[list[int]]:
    """Index sets of the forms that agree everywhere except at ``position`` and share at
    least ``min_context`` words without a variable there."""
    buckets: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for index, words in enumerate(group):
        buckets[words[:position] + words[position + 1 :]].append(index)
    return [
        members
        for rest, members in buckets.items()
        if len(members) > 1
        and (
            sum(map(has_constant, rest)) >= min_context
            or quoted_values(
                [group[i][position] for i in members],
                group[members[0]][position - 1] if position else "",
            )
        )
    ]
