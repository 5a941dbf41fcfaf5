"""A fixed series set from a file behind the metrics port (the demo's metrics; tests).

The file is JSON: ``{"units": {"<name>": "<unit>"}, "series": [{"labels": {"__name__": ...},
"samples": [[<unix seconds>, <value>], ...]}]}``. It answers plain series selectors
(``name{label="value", other=~"re"}``) the way Prometheus evaluates them: at each step the
latest sample of the last five minutes. Any other expression is refused
(``FIXTURE_SELECTORS_ONLY``): a fixture does not pretend to compute what it cannot.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import promql_parser as promql
from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.adapters.metrics.values import encode_values
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.metrics import MetricsQuery

__all__ = ["FixtureMetricsBackend"]

_LOOKBACK: Final = 300.0


@frozen
class _Series:
    labels: Mapping[str, str]
    stamps: list[float]
    values: list[float]


def _matches(matcher: promql.Matcher, labels: Mapping[str, str]) -> bool:
    value = labels.get(matcher.name, "")
    if matcher.op == promql.MatchOp.Equal:
        return value == matcher.value
    if matcher.op == promql.MatchOp.NotEqual:
        return value != matcher.value
    found = re.fullmatch(matcher.value, value) is not None
    return found if matcher.op == promql.MatchOp.Re else not found


class FixtureMetricsBackend:
    """``MetricsBackend`` over a fixed series set read once from a file."""

    def __init__(self, path: Path) -> None:
        document = json.loads(path.read_text(encoding="utf-8"))
        self._units: JsonObject = dict(document.get("units", {}))
        self._series = [
            _Series(
                {str(k): str(v) for k, v in item["labels"].items()},
                [float(stamp) for stamp, _ in item["samples"]],
                [float(value) for _, value in item["samples"]],
            )
            for item in document["series"]
        ]

    def _selector(self, text: str) -> promql.VectorSelector | None:
        node = promql.parse(text)
        while isinstance(node, promql.ParenExpr):
            node = node.expr
        return node if isinstance(node, promql.VectorSelector) else None

    def fetch(self, query: MetricsQuery, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """The selected series on the query's step grid, in the port's shape."""
        selector = self._selector(query.promql)
        if selector is None or selector.offset is not None:
            return Failure(
                BackendFailure(BackendFailureKind.INVALID_REQUEST, "FIXTURE_SELECTORS_ONLY")
            )
        name = selector.name
        matchers = [m for m in selector.matchers.matchers if m.name != "__name__"]
        if name is None:
            name = next(m.value for m in selector.matchers.matchers if m.name == "__name__")
        start, end = query.start.timestamp(), query.end.timestamp()
        step = float(query.step_seconds)
        times = [end] if query.is_instant else _grid(start, end, step)
        found: list[JsonValue] = []
        for series in self._series:
            labels = series.labels
            if labels.get("__name__") != name or not all(_matches(m, labels) for m in matchers):
                continue
            values = [_at(series, moment) for moment in times]
            if any(value is not None for value in values):
                packed = encode_values(values)
                found.append(
                    {"labels": dict(labels), "start": times[0], "step": step, "values": packed}
                )
        units = {name: self._units[name]} if name in self._units else {}
        shaped = {"result_type": "vector" if query.is_instant else "matrix", "series": found}
        return Success(json.dumps({**shaped, "units": units}, separators=(",", ":")))

    def close(self) -> None:
        """Nothing is held open."""
        return


def _grid(start: float, end: float, step: float) -> list[float]:
    count = int((end - start) // step) + 1
    return [start + index * step for index in range(count)]


def _at(series: _Series, moment: float) -> float | None:
    index = bisect.bisect_right(series.stamps, moment) - 1
    if index < 0 or moment - series.stamps[index] > _LOOKBACK:
        return None
    return series.values[index]
