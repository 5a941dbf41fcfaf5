"""Merging the templates of a batch: a word position that takes many values in otherwise
identical templates is a parameter.

Templates are compared only with templates of the same length (in words). For every word
position, the templates that agree everywhere except there form a *sibling set*; the set is
merged into one template, that position becoming ``<*>``, when the values it takes there say
the position is variable:

* one of the siblings already has a variable there (the position holds numbers in some
  messages and words in others);
* every value is the value of one ``key=`` or ``key:`` (a named parameter), and there are
  at least ``keyed_values`` of them;
* there are at least ``min_values`` different values.

When nothing merges so, the stages of ``template_gaps`` (absorb, then one differing stretch)
are asked, then the merge of a key's value written last of ``template_tails``, and when they
too find nothing, once a batch, the merge over two differing stretches of ``template_pairs``;
the rounds then go on until nothing changes. Once they are done, a rare template that a far
more common, shorter one matches over stretches is merged into it (``template_spans``).

A merge can make two variables adjacent (``<*> <*>`` becomes ``<*>``), changing the length,
so the rounds repeat until nothing changes. Everything depends on the batch only: no word
list, no per-source rule.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Final

from attrs import frozen

from factledger.domain.logs.template_gaps import absorb, merge_gaps
from factledger.domain.logs.template_pairs import merge_pairs
from factledger.domain.logs.template_places import Places
from factledger.domain.logs.template_quotes import join_quoted, unjoin
from factledger.domain.logs.template_spans import absorb_last
from factledger.domain.logs.template_tails import merge_tails
from factledger.domain.logs.template_twins import twin_sets
from factledger.domain.logs.template_union import components, union
from factledger.domain.logs.template_words import (
    VARIABLE,
    collapse,
    collapse_lists,
    enclosed_variable,
    has_constant,
    holds_variable,
    is_unit,
    key_of,
    narrowed,
    one_key,
    quoted_values,
)

__all__ = [
    "DEFAULT_MERGE",
    "VARIABLE",
    "MergeSettings",
    "collapse",
    "collapse_lists",
    "merge_templates",
]

_MAX_ROUNDS: Final = 12
_OFF: Final = 99


@frozen
class MergeSettings:
    """The thresholds of the batch merge (one setting for every source)."""

    min_values: int = 4
    """Different words at one position that make it a parameter on their own."""
    keyed_values: int = 3
    """Different values of one ``key=``/``key:`` that make it a parameter."""
    subsume: bool = True
    """A sibling with a variable at the position makes the position a parameter."""
    min_context: int = 1
    """Words without a variable that siblings must share besides the position."""
    unit_values: int = 2
    """Different words right after a variable that make the position part of it (a
    unit: ``12 KB`` / ``3 MB``)."""
    gap_context: int = 2
    """Words without a variable that templates of different lengths must share around
    the stretch where they differ to be merged there (``gaps``)."""


DEFAULT_MERGE: Final = MergeSettings()


def merge_templates(
    templates: Iterable[str] | Mapping[str, int], settings: MergeSettings = DEFAULT_MERGE
) -> dict[str, str]:
    """For each template of a batch, the template it is merged into (itself when none).

    ``templates``: one per message (repeated), or each once with its count of messages.
    A quoted value of several words is one word of its template (``template_quotes``).
    A stage that found nothing to merge in a set of forms is, on a later set, asked only
    about what changed since (a pair or sibling set of unchanged forms merges or not alike)."""
    given = templates if isinstance(templates, Mapping) else Counter(templates)
    counts: Counter[str] = Counter()
    for template, count in given.items():
        counts[join_quoted(template)] += count
    merged = _merge_forms(counts, settings)
    return {template: unjoin(merged[join_quoted(template)]) for template in given}


def _merge_forms(counts: Mapping[str, int], settings: MergeSettings) -> dict[str, str]:
    """``merge_templates`` over templates whose quoted values are joined."""
    distinct = list(counts)
    current = {template: template for template in distinct}
    forms = set(distinct)
    quiet_round: set[str] | None = None
    quiet_absorb: set[str] | None = None
    paired = False
    places = Places(distinct)
    for _ in range(_MAX_ROUNDS):
        changed = None if quiet_round is None else forms ^ quiet_round
        support = Counter(current.values())
        messages = _messages(current, counts)
        renamed = _merge_round(forms, settings, changed, support, (places, messages))
        if not renamed:
            quiet_round = forms
            renamed = absorb(forms, None if quiet_absorb is None else forms - quiet_absorb)
            if not renamed:
                quiet_absorb = forms
        if not renamed and settings.gap_context < _OFF:
            renamed = merge_gaps(forms, settings.min_values, settings.gap_context)
            if not renamed:
                renamed = merge_tails(
                    forms, messages, settings.min_values, settings.gap_context, support
                )
            if not renamed and not paired:
                renamed = merge_pairs(forms, settings.min_values, settings.gap_context)
                paired = True
        if not renamed:
            break
        forms = set(renamed.values()) | (forms - renamed.keys())
        for template, form in current.items():
            current[template] = renamed.get(form, form)
    return absorb_last(current, counts, forms, settings.min_values)


def _merge_round(
    forms: set[str],
    settings: MergeSettings,
    changed: set[str] | None = None,
    support: Mapping[str, int] | None = None,
    seen: tuple[Places, Mapping[str, int]] | None = None,
) -> dict[str, str]:
    """One round: the forms that merge → what they become. With ``changed`` (the forms
    added or removed since a set in which nothing merged), only the sibling sets that one
    of them is or was in are looked at. ``support``: how many templates of the batch each
    form stands for (one when not given); ``seen``: where the batch's words stand and how
    many messages each form stands for (those of ``forms``, one each, when not given)."""
    by_length = _by_length(forms)
    places, messages = (Places(forms), {}) if seen is None else seen
    touched = None if changed is None else _by_length(changed)
    renamed: dict[str, str] = {}
    for length, group in by_length.items():
        near = None if touched is None else touched.get(length)
        if len(group) < 2 or (touched is not None and near is None):
            continue
        group.sort()
        parent = list(range(len(group)))
        found = _sibling_sets(group, length, settings.min_context, near)
        breadth = _breadths(group, found, support)
        twins = twin_sets(group, found)
        for number, (position, members) in enumerate(found):
            if members[-1] < 0:
                continue
            if number in twins:
                union(parent, members)
                continue
            before = group[members[0]][position - 1] if position else ""
            values, before = narrowed([group[index][position] for index in members], before)
            sizes = [
                (breadth[index].get(position, 1), messages.get(" ".join(group[index]), 1))
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


def _sibling_sets(
    group: Sequence[tuple[str, ...]],
    length: int,
    min_context: int,
    near: Sequence[tuple[str, ...]] | None,
) -> list[tuple[int, list[int]]]:
    """Every sibling set of a length's forms as (position, member indexes); a set none of
    ``near`` is in ends with ``-1`` (it counts for the breadth of its members only)."""
    paired: dict[tuple[int, ...], list[int]] = {}
    found: list[tuple[int, list[int]]] = []
    for position in range(length):
        anchors = tuple(at for at in _ANCHORS[length] if at != position)
        if anchors not in paired:
            paired[anchors] = _sharing(group, anchors, None)
        only = None if near is None else {_rest(words, position) for words in near}
        for members in _siblings(group, paired[anchors], position, min_context):
            aside = only is not None and _rest(group[members[0]], position) not in only
            found.append((position, [*members, -1] if aside else members))
    return found


def _breadths(
    group: Sequence[tuple[str, ...]],
    found: Sequence[tuple[int, list[int]]],
    support: Mapping[str, int] | None,
) -> list[dict[int, int]]:
    """For each form and position, how many templates share the form's word there: the
    templates the form stands for, or the forms of its largest sibling set at another
    position, whichever are more."""
    largest: list[list[tuple[int, int]]] = [[] for _ in group]
    for position, members in found:
        size = len(members) - (members[-1] < 0)
        for index in members:
            if index >= 0:
                largest[index].append((size, position))
    breadth: list[dict[int, int]] = []
    for index, sets in enumerate(largest):
        own = 1 if support is None else support.get(" ".join(group[index]), 1)
        sets.sort(reverse=True)
        top = sets[:2]
        at: dict[int, int] = {}
        for _size, position in sets:
            other = next((size for size, where in top if where != position), 1)
            at[position] = max(own, other)
        breadth.append(at)
    return breadth


def _is_kind(
    values: Sequence[str],
    before: str,
    sizes: Sequence[tuple[int, int]],
    settings: MergeSettings,
    places: Places,
) -> bool:
    """Whether the words siblings hold at a position (after the word ``before``, ``""`` at
    the first) are the kinds of one event rather than a parameter: none holds a variable,
    neither the keyed nor the unit rule names them, they are not quoted values
    (``quoted_values``), fewer than half of them stand at another place of the batch too
    (words the source writes in several templates are values of one type), and either

    * each is the same word in ``min_values`` times as many templates as there are words
      (half of the siblings at least): a word that stays put while others vary that much is
      the template's own; or
    * nothing else varies beside them (no sibling is in another sibling set or stands for
      other templates), they are fewer than twice ``min_values`` and one of them at least is
      written in several messages: a few words found in one place only, not each seen
      once, are the template's own (``VM Started`` / ``VM Stopped``).

    ``sizes``: each sibling's breadth (``_breadths``) and count of messages."""
    if any(map(holds_variable, values)) or quoted_values(values, before):
        return False
    after_variable = before == VARIABLE
    distinct = len(set(values))
    if distinct >= settings.keyed_values and one_key(values):
        return False
    if after_variable and distinct >= settings.unit_values and all(map(is_unit, values)):
        return False
    wide = sum(breadth >= settings.min_values * distinct for breadth, _ in sizes)
    if 2 * wide < len(sizes) and not (
        distinct < 2 * settings.min_values
        and max(breadth for breadth, _ in sizes) <= 1
        and max(count for _, count in sizes) > 1
    ):
        return False
    return 2 * sum(map(places.recurs, set(values))) < distinct


def _messages(current: Mapping[str, str], counts: Mapping[str, int]) -> dict[str, int]:
    """How many messages each form stands for."""
    found: dict[str, int] = defaultdict(int)
    for template, form in current.items():
        found[form] += counts[template]
    return found


def _by_length(forms: Iterable[str]) -> dict[int, list[tuple[str, ...]]]:
    by_length: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for form in forms:
        by_length[form.count(" ") + 1].append(tuple(form.split(" ")))
    return by_length


def _rest(words: tuple[str, ...], position: int) -> tuple[str, ...]:
    return words[:position] + words[position + 1 :]


class _Anchors(dict[int, tuple[int, ...]]):
    """The first two and last two word positions of a length (fewer when it is short)."""

    def __missing__(self, length: int) -> tuple[int, ...]:
        value = tuple(sorted({at for at in (0, 1, length - 2, length - 1) if 0 <= at < length}))
        self[length] = value
        return value


_ANCHORS: Final = _Anchors()


def _sharing(
    group: Sequence[tuple[str, ...]],
    anchors: tuple[int, ...],
    near: Sequence[tuple[str, ...]] | None,
) -> list[int]:
    """The indexes of the forms whose words at ``anchors`` another form also has (and, with
    ``near``, one of those forms has): siblings at a position outside ``anchors`` agree
    there, so no other form can be one."""
    by_anchor: dict[object, list[int]] = defaultdict(list)
    key = itemgetter(*anchors) if anchors else _nothing
    for index, words in enumerate(group):
        by_anchor[key(words)].append(index)
    wanted = None if near is None else {key(words) for words in near}
    return sorted(
        index
        for anchor, members in by_anchor.items()
        if len(members) > 1 and (wanted is None or anchor in wanted)
        for index in members
    )


def _nothing(_words: tuple[str, ...]) -> object:
    """The anchor of a length-one form: none."""
    return None


def _siblings(
    group: Sequence[tuple[str, ...]], candidates: Sequence[int], position: int, min_context: int
) -> list[list[int]]:
    """Index sets of the forms (among ``candidates``) that agree everywhere except at
    ``position`` and share at least ``min_context`` words without a variable there."""
    buckets: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for index in candidates:
        words = group[index]
        buckets[words[:position] + words[position + 1 :]].append(index)
    return [
        members
        for rest, members in buckets.items()
        if len(members) > 1
        and (sum(map(has_constant, rest)) >= min_context or _quoted_apart(group, members, position))
    ]


def _quoted_apart(group: Sequence[tuple[str, ...]], members: Sequence[int], position: int) -> bool:
    """Whether the siblings' words at ``position`` are each one whole quoted value
    (``quoted_values``): the quotes say they are a parameter, no shared word needs to."""
    before = group[members[0]][position - 1] if position else ""
    return quoted_values([group[index][position] for index in members], before)


def _is_variable(values: Sequence[str], after_variable: bool, settings: MergeSettings) -> bool:
    """Whether the words siblings hold at one position make it a parameter."""
    if settings.subsume and any(map(holds_variable, values)):
        keys = {key_of(value) for value in values}
        if len(keys) == 1 or "" in keys:
            return True
    distinct = set(values)
    if len(distinct) >= settings.min_values:
        return True
    if (
        after_variable
        and len(distinct) >= settings.unit_values
        and all(is_unit(value) for value in distinct)
    ):
        return True
    if len(distinct) >= settings.keyed_values:
        return one_key(distinct)
    return False


def _generalise(members: Sequence[tuple[str, ...]]) -> str:
    """One template for forms of one length: a position where they differ is a variable."""
    words: list[str] = []
    for column in zip(*members, strict=True):
        values = set(column)
        if len(values) == 1:
            words.append(column[0])
            continue
        keys = {key_of(value) for value in values}
        key = keys.pop() if len(keys) == 1 else ""
        words.append(key + VARIABLE if key else enclosed_variable(column, column))
    return collapse(" ".join(words))
