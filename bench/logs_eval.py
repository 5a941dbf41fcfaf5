"""Template quality on the Loghub 2k samples: grouping accuracy (GA) and F1 grouping accuracy
(FGA), the projector's miner against Drain3.

    python bench/logs_eval.py [--data DIR]

Every dataset is mined from the ``Content`` column of its ground truth
(``*_structured_corrected.csv`` when present, else ``*_structured.csv``):

* factledger — ``mine_templates``: the projector's own pipeline (redaction, masking, batch
  merge), one configuration for every dataset;
* Drain3 default — ``TemplateMiner`` with its default configuration (no masks);
* Drain3 example masks — the masks of Drain3's example ``drain3.ini``, similarity 0.4,
  depth 4, ``_`` as extra delimiter;
* Drain3 tuned — Drain's hand-tuned per-dataset masks, similarity and depth from the Loghub
  benchmark (a different setting for every dataset).

GA: the share of messages whose predicted group is exactly their true group. FGA: the F1 of
template-level precision and recall, a predicted template counting as correct when its
messages are exactly those of one true template.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.logs_common import (  # noqa: E402
    DATASETS,
    DEFAULT_LOGHUB,
    DRAIN3_EXAMPLE_MASKS,
    DRAIN3_PER_DATASET,
    LoghubSample,
    drain3_miner,
    load_sample,
    require_directory,
)
from factledger.domain.logs.mining import mine_templates  # noqa: E402

Miner = Callable[[LoghubSample], list[str]]


def grouping_scores(truth: Sequence[str], predicted: Sequence[str]) -> tuple[float, float]:
    """(GA, FGA) of a predicted grouping against the true one."""
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


def factledger(sample: LoghubSample) -> list[str]:
    return mine_templates(sample.contents)


def drain3_with(
    masks: tuple[tuple[str, str], ...], similarity: float, depth: int, delimiters: tuple[str, ...]
) -> Callable[[Sequence[str]], list[str]]:
    def mine(contents: Sequence[str]) -> list[str]:
        miner = drain3_miner(masks, similarity, depth, delimiters)
        add = miner.add_log_message  # type: ignore[attr-defined]
        return [str(add(content)["cluster_id"]) for content in contents]

    return mine


def drain3_default(sample: LoghubSample) -> list[str]:
    return drain3_with((), 0.4, 4, ())(sample.contents)


def drain3_examples(sample: LoghubSample) -> list[str]:
    return drain3_with(DRAIN3_EXAMPLE_MASKS, 0.4, 4, ("_",))(sample.contents)


def drain3_tuned(sample: LoghubSample) -> list[str]:
    setting = DRAIN3_PER_DATASET[sample.name]
    masks = tuple((pattern, "*") for pattern in setting.masks)
    return drain3_with(masks, setting.similarity, setting.depth, ())(sample.contents)


MINERS: tuple[tuple[str, Miner], ...] = (
    ("factledger", factledger),
    ("Drain3 default", drain3_default),
    ("Drain3 example masks", drain3_examples),
    ("Drain3 tuned per dataset", drain3_tuned),
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="GA and FGA on the Loghub 2k samples.")
    parser.add_argument("--data", type=Path, default=DEFAULT_LOGHUB, help="Loghub directory")
    args = parser.parse_args(argv)
    root = require_directory(args.data)
    samples = [load_sample(root, name) for name in DATASETS]
    header = "| dataset | truth | " + " | ".join(f"{name} GA / FGA" for name, _ in MINERS) + " |"
    print(header)
    print("|" + "---|" * (len(MINERS) + 2))
    totals = {name: [0.0, 0.0] for name, _ in MINERS}
    for sample in samples:
        cells = []
        for name, miner in MINERS:
            accuracy, f1 = grouping_scores(sample.event_ids, miner(sample))
            totals[name][0] += accuracy
            totals[name][1] += f1
            cells.append(f"{accuracy:.3f} / {f1:.3f}")
        print(f"| {sample.name} | {sample.truth_file} | " + " | ".join(cells) + " |")
    averages = [
        f"**{totals[name][0] / len(samples):.3f} / {totals[name][1] / len(samples):.3f}**"
        for name, _ in MINERS
    ]
    print("| average | | " + " | ".join(averages) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
