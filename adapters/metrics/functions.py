"""The PromQL functions the metrics tool knows: what each does to its argument's unit and
whether a query may call it when ``[tools.metrics] functions`` is not set.

One table, so the allow-list and the unit reading never disagree on a function: a function
that is not here has no unit the tool can name (its values are reported without one) and is
refused unless a section lists it. ``label_replace``, ``absent`` and the time-shifting
functions are absent on purpose: they invent series or labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from attrs import frozen

__all__ = ["DEFAULT_FUNCTIONS", "FUNCTIONS", "FunctionUnit", "KnownFunction"]


class FunctionUnit(StrEnum):
    """What a function does to the unit of the values it is given."""

    PER_SECOND = "PER_SECOND"
    """A per-second rate of its argument (``rate`` of seconds is seconds per second)."""
    SAME = "SAME"
    """Values in its argument's unit (an average, a rounding, a bound)."""
    COUNT = "COUNT"
    """A count of samples, whatever their unit."""
    BUCKET_UNIT = "BUCKET_UNIT"
    """The unit of the histogram buckets it reads (``histogram_quantile``)."""


@frozen
class KnownFunction:
    """One function of the table."""

    unit: FunctionUnit
    """What it does to its argument's unit."""
    by_default: bool = True
    """Whether a query may call it when the section lists no functions of its own."""


FUNCTIONS: Final[Mapping[str, KnownFunction]] = {
    "rate": KnownFunction(FunctionUnit.PER_SECOND),
    "irate": KnownFunction(FunctionUnit.PER_SECOND),
    "deriv": KnownFunction(FunctionUnit.PER_SECOND),
    "increase": KnownFunction(FunctionUnit.SAME),
    "delta": KnownFunction(FunctionUnit.SAME),
    "histogram_quantile": KnownFunction(FunctionUnit.BUCKET_UNIT),
    "avg_over_time": KnownFunction(FunctionUnit.SAME),
    "min_over_time": KnownFunction(FunctionUnit.SAME),
    "max_over_time": KnownFunction(FunctionUnit.SAME),
    "sum_over_time": KnownFunction(FunctionUnit.SAME),
    "count_over_time": KnownFunction(FunctionUnit.COUNT),
    "last_over_time": KnownFunction(FunctionUnit.SAME),
    "quantile_over_time": KnownFunction(FunctionUnit.SAME),
    "abs": KnownFunction(FunctionUnit.SAME),
    "ceil": KnownFunction(FunctionUnit.SAME),
    "floor": KnownFunction(FunctionUnit.SAME),
    "round": KnownFunction(FunctionUnit.SAME),
    "clamp_min": KnownFunction(FunctionUnit.SAME),
    "clamp_max": KnownFunction(FunctionUnit.SAME),
    "clamp": KnownFunction(FunctionUnit.SAME, by_default=False),
}
"""Every function the tool reads a unit through, by name."""

DEFAULT_FUNCTIONS: Final = tuple(name for name, known in FUNCTIONS.items() if known.by_default)
"""Functions a query may call unless the section lists its own."""
