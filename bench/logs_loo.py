"""Leave-one-dataset-out for the miner's settings: a dataset's score counts only when the
setting it was mined with was chosen without looking at it.

For each dataset, every setting of ``GRID`` is scored on all the *other* datasets (mean of
(GA + FGA) / 2); the best one (the first in grid order on a tie) mines the held-out dataset.
The per-message masking does not depend on the settings, so it runs once per dataset and
only the batch merge is repeated.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence

from attrs import frozen

from factledger.domain.logs.template_merge import DEFAULT_MERGE, MergeSettings, merge_templates

__all__ = ["GRID", "Corpus", "HeldOut", "grouping_scores", "leave_one_out", "score_setting"]


@frozen
class Corpus:
    """One dataset: its name, its messages' masked templates and their true template ids."""

    name: str
    masked: tuple[str, ...]
    truth: tuple[str, ...]


@frozen
class HeldOut:
    """A dataset mined with the setting chosen on the others."""

    name: str
    setting: MergeSettings
    accuracy: float
    f1: float


def _grid() -> tuple[MergeSettings, ...]:
    settings = [DEFAULT_MERGE]
    for values, keyed, context, unit, gap in itertools.product(
        (3, 4, 5), (2, 3, 99), (1, 2, 3), (2, 3, 99), (2, 3, 99)
    ):
        setting = MergeSettings(
            min_values=values,
            keyed_values=keyed,
            min_context=context,
            unit_values=unit,
            gap_context=gap,
        )
        if setting != DEFAULT_MERGE:
            settings.append(setting)
    return tuple(settings)


GRID: tuple[MergeSettings, ...] = _grid()
"""The settings tried (the default first); 99 turns a rule off."""


def grouping_scores(truth: Sequence[str], predicted: Sequence[str]) -> tuple[float, float]:
    """(GA, FGA) of a predicted grouping against the true one.

    GA: the share of messages whose predicted group is exactly their true group. FGA: the F1
    of template-level precision and recall, a predicted group counting as correct when its
    messages are exactly those of one true template.
    """
    true_groups: dict[str, list[int]] = defaultdict(list)
    predicted_groups: dict[str, list[int]] = defaultdict(list)
    for index, (true_id, predicted_id) in enumerate(zip(truth, predicted, strict=True)):
        true_groups[true_id].append(index)
        predicted_groups[predicted_id].append(index)
    true_sets = {frozenset(members) for members in true_groups.values()}
    correct_messages = 0
    correct_groups = 0
    for members in predicted_groups.values():
        if frozenset(members) in true_sets:
            correct_messages += len(members)
            correct_groups += 1
    accuracy = correct_messages / len(truth)
    precision = correct_groups / len(predicted_groups)
    recall = correct_groups / len(true_groups)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return accuracy, f1


def score_setting(corpus: Corpus, setting: MergeSettings) -> tuple[float, float]:
    """(GA, FGA) of one dataset mined with one setting."""
    merged = merge_templates(corpus.masked, setting)
    return grouping_scores(corpus.truth, [merged[template] for template in corpus.masked])


def leave_one_out(
    corpora: Sequence[Corpus], grid: Sequence[MergeSettings] = GRID
) -> tuple[list[HeldOut], MergeSettings]:
    """Each dataset scored with the setting chosen on the others, and the setting chosen on
    all of them."""
    table = [[score_setting(corpus, setting) for corpus in corpora] for setting in grid]

    def best(excluded: int | None) -> int:
        scores = [
            sum((ga + fga) / 2 for index, (ga, fga) in enumerate(row) if index != excluded)
            for row in table
        ]
        top = max(scores)
        return next(i for i, score in enumerate(scores) if score >= top - 1e-12)

    held_out = []
    for index, corpus in enumerate(corpora):
        chosen = best(index)
        accuracy, f1 = table[chosen][index]
        held_out.append(HeldOut(corpus.name, grid[chosen], accuracy, f1))
    return held_out, grid[best(None)]
