"""One series' values, cut down to a few points that keep its spikes and its change point.

The values are split into buckets; each bucket keeps its minimum, its maximum and its last
value, so a spike shorter than a bucket is still seen. The change point is where the mean
level shifts most (found on the bucket means, then placed on the first value past the midway
level, with the mean levels on either side of that value); it is kept too. Everything is done
on whole arrays (numpy), so 50 series of a day at 15 s take a few milliseconds.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

__all__ = ["ChangePoint", "SeriesShape", "shape_series"]

_TINY: Final = 1e-12
Values = NDArray[np.float64]


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
    """How many values the series has (not NaN)."""
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
        """How much the series changed in the window (its relative level shift)."""
        return self.change.relative_shift if self.change is not None else 0.0


@frozen
class _Buckets:
    low: NDArray[np.intp]
    high: NDArray[np.intp]
    last: NDArray[np.intp]
    sums: Values
    counts: NDArray[np.intp]
    width: int


def _buckets(values: Values, buckets: int) -> _Buckets:
    width = max(1, math.ceil(len(values) / buckets))
    rows = math.ceil(len(values) / width)
    padded = np.full(rows * width, np.nan)
    padded[: len(values)] = values
    grid = padded.reshape(rows, width)
    present = ~np.isnan(grid)
    filled = present.any(axis=1)
    grid, present = grid[filled], present[filled]
    offsets = np.arange(rows)[filled] * width
    low = offsets + np.argmin(np.where(present, grid, np.inf), axis=1)
    high = offsets + np.argmax(np.where(present, grid, -np.inf), axis=1)
    last = offsets + width - 1 - np.argmax(present[:, ::-1], axis=1)
    sums = np.where(present, grid, 0.0).sum(axis=1)
    return _Buckets(low, high, last, sums, present.sum(axis=1), width)


def shape_series(values: Values, buckets: int) -> SeriesShape | None:
    """The points to keep of one series (None when it has no value at all)."""
    present = ~np.isnan(values)
    count = int(present.sum())
    if count == 0:
        return None
    parts = _buckets(values, buckets)
    first = int(np.argmax(present))
    last = len(values) - 1 - int(np.argmax(present[::-1]))
    change = _change_point(values, parts)
    extra = [first, last] if change is None else [first, last, change.index]
    kept = np.unique(np.concatenate([parts.low, parts.high, parts.last, np.array(extra)]))
    return SeriesShape(
        kept=tuple(int(i) for i in kept),
        present=count,
        minimum=int(np.nanargmin(values)),
        maximum=int(np.nanargmax(values)),
        first=first,
        last=last,
        change=change,
    )


def _change_point(values: Values, parts: _Buckets) -> ChangePoint | None:
    """The split of the buckets with the largest weighted shift of mean, placed on the first
    value at or past the midway level in the two buckets around that split."""
    if len(parts.sums) < 2:
        return None
    left_sums = np.cumsum(parts.sums)[:-1]
    left_counts = np.cumsum(parts.counts)[:-1].astype(np.float64)
    total_sum, total_count = float(parts.sums.sum()), float(parts.counts.sum())
    right_counts = total_count - left_counts
    before = left_sums / left_counts
    after = (total_sum - left_sums) / right_counts
    strength = np.abs(after - before) * np.sqrt(left_counts * right_counts / total_count)
    split = int(np.argmax(strength))
    low_level, high_level = float(before[split]), float(after[split])
    if abs(high_level - low_level) <= _TINY:
        return None
    midway = (low_level + high_level) / 2
    start = int(parts.last[split]) // parts.width * parts.width
    stop = int(parts.last[split + 1]) + 1
    segment = values[start:stop]
    past = segment >= midway if high_level > low_level else segment <= midway
    hits = np.flatnonzero(past)
    index = start + int(hits[0]) if len(hits) else int(parts.last[split + 1])
    exact_before, exact_after = _mean(values[:index]), _mean(values[index:])
    return ChangePoint(
        index,
        low_level if exact_before is None else exact_before,
        high_level if exact_after is None else exact_after,
    )


def _mean(values: Values) -> float | None:
    present = values[~np.isnan(values)]
    return float(present.mean()) if len(present) else None
