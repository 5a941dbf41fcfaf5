"""The port behind ``query_metrics``: a time-series store that answers one PromQL query.

An adapter (Prometheus over HTTP, the demo's fixture file, later another TSDB) takes a checked
``MetricsQuery`` and returns the raw JSON text of its answer in one store-neutral shape, or a
``BackendFailure`` with a safe reason code; it gives up by itself after ``timeout_seconds``::

    {"result_type": "matrix" | "vector",
     "series": [{"labels": {"__name__": "...", "pod": "..."},
                 "start": <unix seconds of values[0]>, "step": <seconds, 0 for an instant>,
                 "values": "<base64 of little-endian float64, NaN for no sample>"}],
     "units": {"<metric name>": "<unit from the store's metadata>"}}

A series' ``values`` lie on the grid ``start + i * step``, packed (parsing a day of values
as JSON numbers would cost more than the whole projection); NaN is a step without a sample
(or a value that is not finite). An error the store answers is a failure, never a
result.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from attrs import frozen
from returns.result import Result

from factledger.domain.tool_result import BackendFailure

__all__ = ["MetricsBackend", "MetricsQuery"]


@frozen
class MetricsQuery:
    """One checked PromQL query over one window."""

    promql: str
    """The query text, as validated."""
    start: datetime
    """First evaluation time (time-zone aware)."""
    end: datetime
    """Last evaluation time; equal to ``start`` for an instant query."""
    step_seconds: int
    """Seconds between evaluations (0 for an instant query)."""
    metric_names: tuple[str, ...] = ()
    """The metric names the query selects (for a unit look-up in the store's metadata)."""

    @property
    def is_instant(self) -> bool:
        """True when the query is evaluated once, at ``end``."""
        return self.step_seconds == 0


class MetricsBackend(Protocol):
    """Answers one checked query."""

    def fetch(self, query: MetricsQuery, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """The raw JSON text in the port's shape, or why there is none."""
        ...

    def close(self) -> None:
        """Release what the adapter holds (an HTTP client)."""
        ...
