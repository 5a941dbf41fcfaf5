"""One series' values, cut down to a few points that keep its spikes and its change point.

The values are split into buckets; each bucket keeps its minimum, its maximum and its last
value, so a spike shorter than a bucket is still seen. The change point is where the mean
level shifts most (found on the bucket means, then placed on the first value past the midway
level, with the mean levels on either side of that value); it is kept too. All of it runs on Python's built-ins over slices, so 50 series of a
day at 15 s take a few milliseconds.
"""

from __future__ import annotations

import math
from typing import Final

from attrs import frozen

__all__ = ["ChangePoint", "SeriesShape", "shape_series"]

_TINY: Final = 1e-12


@frozen
class ChangePoint:
    """Where the level of a series shifts most."""

    index: int
    """The index of the first value at the new level."""
    before: float
    """The mean level before it."""
    after: float
    """The mean level from it on."""

    @property
    def relative_shift(self) -> float:
        """``|after - before|`` relative to the larger level (0 to 2)."""
        scale = max(abs(self.before), abs(self.after), _TINY)
        return abs(self.after - self.before) / scale


@frozen
class SeriesShape:
    """What is kept of one series."""

    kept: tuple[int, ...]
    """Indexes of the values kept, in time order."""
    present: int
    """How many values the series has (not null)."""
    minimum: int
    """Index of the smallest value."""
    maximum: int
    """Index of the largest value."""
    first: int
    """Index of the first value."""
    last: int
    """Index of the last value."""
    change: ChangePoint | None
    """The change point, when the level shifts."""

    @property
    def score(self) -> float:
        """How much the series changed in the window: its level shift, then its spread."""
        return self.change.relative_shift if self.change is not None else 0.0


def _bucket_extremes(chunk: list[float | None], offset: int) -> tuple[int, int, int, float, int]:
    """(min index, max index, last index, sum, count) of one bucket's present values."""
    if None not in chunk:
        values: list[float] = chunk  # type: ignore[assignment]  # no None in it
        low, high = min(values), max(values)
        return (
            offset + values.index(low),
            offset + values.index(high),
            offset + len(values) - 1,
            math.fsum(values),
            len(values),
        )
    present = [(i, v) for i, v in enumerate(chunk) if v is not None]
    low_at, _ = min(present, key=lambda item: item[1])
    high_at, _ = max(present, key=lambda item: item[1])
    return (
        offset + low_at,
        offset + high_at,
        offset + present[-1][0],
        math.fsum(v for _, v in present),
        len(present),
    )


def shape_series(values: list[float | None], buckets: int) -> SeriesShape | None:
    """The points to keep of one series (None when it has no value at all)."""
    width = max(1, math.ceil(len(values) / buckets))
    stats = [
        _bucket_extremes(values[start : start + width], start)
        for start in range(0, len(values), width)
        if any(v is not None for v in values[start : start + width])
    ]
    if not stats:
        return None
    kept: set[int] = set()
    for low, high, last, _, _ in stats:
        kept.update((low, high, last))
    minimum = min((s[0] for s in stats), key=lambda i: values[i])  # type: ignore[arg-type, return-value]
    maximum = max((s[1] for s in stats), key=lambda i: values[i])  # type: ignore[arg-type, return-value]
    first = next(i for i, v in enumerate(values) if v is not None)
    change = _change_point(values, stats, width)
    kept.add(first)
    if change is not None:
        kept.add(change.index)
    return SeriesShape(
        kept=tuple(sorted(kept)),
        present=sum(s[4] for s in stats),
        minimum=minimum,
        maximum=maximum,
        first=first,
        last=stats[-1][2],
        change=change,
    )


def _change_point(
    values: list[float | None], stats: list[tuple[int, int, int, float, int]], width: int
) -> ChangePoint | None:
    """The split of the buckets with the largest weighted shift of mean, then placed on the
    first value at or past the midway level in the buckets around that split."""
    if len(stats) < 2:
        return None
    total_sum = math.fsum(s[3] for s in stats)
    total_count = sum(s[4] for s in stats)
    best: tuple[float, int, float, float] | None = None
    left_sum, left_count = 0.0, 0
    for split in range(1, len(stats)):
        left_sum += stats[split - 1][3]
        left_count += stats[split - 1][4]
        right_count = total_count - left_count
        before = left_sum / left_count
        after = (total_sum - left_sum) / right_count
        weight = math.sqrt(left_count * right_count / total_count)
        strength = abs(after - before) * weight
        if best is None or strength > best[0]:
            best = (strength, split, before, after)
    assert best is not None
    _, split, before, after = best
    if abs(after - before) <= _TINY:
        return None
    index = _first_past(values, stats, split, width, (before + after) / 2, after > before)
    exact_before, exact_after = _mean(values[:index]), _mean(values[index:])
    return ChangePoint(
        index,
        before if exact_before is None else exact_before,
        after if exact_after is None else exact_after,
    )


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return math.fsum(present) / len(present) if present else None


def _first_past(
    values: list[float | None],
    stats: list[tuple[int, int, int, float, int]],
    split: int,
    width: int,
    midway: float,
    rising: bool,
) -> int:
    low_bound = (stats[split - 1][2] // width) * width
    high_bound = stats[split][2]
    for index in range(low_bound, high_bound + 1):
        value = values[index]
        if value is not None and (value >= midway if rising else value <= midway):
            return index
    return stats[split][2]
