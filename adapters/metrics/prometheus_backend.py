"""The Prometheus HTTP API behind the metrics port.

A range query goes to ``/api/v1/query_range``, an instant query to ``/api/v1/query``, with an
HTTP timeout and Prometheus' own ``timeout`` parameter; the units come from
``/api/v1/metadata`` for the selected names (best effort: a missing unit is no failure). The
answer is rewritten into the port's store-neutral shape (values on the step grid). An error
Prometheus answers is a ``BackendFailure`` whose reason is one of a closed set, never the
server's message.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from typing import Any, Final

import httpx
from returns.result import Failure, Result, Success

from factledger.adapters.metrics.values import encode_values
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.metrics import MetricsQuery

__all__ = ["PrometheusBackend", "to_port_shape"]

_ERROR_REASONS: Final = {
    "bad_data": ("PROMETHEUS_BAD_DATA", BackendFailureKind.INVALID_REQUEST),
    "timeout": ("PROMETHEUS_TIMEOUT", BackendFailureKind.BACKEND_TIMEOUT),
    "canceled": ("PROMETHEUS_CANCELED", BackendFailureKind.BACKEND_ERROR),
    "execution": ("PROMETHEUS_EXECUTION", BackendFailureKind.BACKEND_ERROR),
    "internal": ("PROMETHEUS_INTERNAL", BackendFailureKind.BACKEND_ERROR),
    "unavailable": ("PROMETHEUS_UNAVAILABLE", BackendFailureKind.BACKEND_ERROR),
}
_MAX_METADATA_NAMES: Final = 8


def _failure(kind: BackendFailureKind, reason: str) -> Result[str, BackendFailure]:
    return Failure(BackendFailure(kind, reason))


def _number(text: object) -> float | None:
    try:
        value = float(str(text))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def to_port_shape(data: Mapping[str, Any], query: MetricsQuery) -> JsonObject:
    """Prometheus' ``data`` (a matrix, a vector or a scalar) in the port's shape."""
    kind = data.get("resultType")
    result = data.get("result")
    start, step = query.start.timestamp(), float(query.step_seconds)
    series: list[JsonValue] = []
    if kind == "matrix" and isinstance(result, list):
        count = round((query.end.timestamp() - start) / step) + 1 if step else 1
        for item in result:
            values: list[float | None] = [None] * count
            for stamp, text in item.get("values", []):
                index = round((float(stamp) - start) / step) if step else 0
                if 0 <= index < count:
                    values[index] = _number(text)
            series.append(
                {
                    "labels": item.get("metric", {}),
                    "start": start,
                    "step": step,
                    "values": encode_values(values),
                }
            )
    elif kind == "vector" and isinstance(result, list):
        for item in result:
            stamp, text = item.get("value", [query.end.timestamp(), None])
            series.append(
                {
                    "labels": item.get("metric", {}),
                    "start": float(stamp),
                    "step": 0,
                    "values": encode_values([_number(text)]),
                }
            )
    elif kind == "scalar" and isinstance(result, list) and len(result) == 2:
        series.append(
            {
                "labels": {},
                "start": float(result[0]),
                "step": 0,
                "values": encode_values([_number(result[1])]),
            }
        )
    return {"result_type": "vector" if query.is_instant else "matrix", "series": series}


class PrometheusBackend:
    """``MetricsBackend`` over the Prometheus HTTP API at one base URL."""

    def __init__(self, url: str, timeout_seconds: float) -> None:
        self._timeout = timeout_seconds
        self._client = httpx.Client(base_url=url.rstrip("/"), timeout=timeout_seconds)

    def fetch(self, query: MetricsQuery, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """The answer in the port's shape, or why there is none."""
        deadline = time.monotonic() + min(timeout_seconds, self._timeout)
        params: dict[str, str] = {
            "query": query.promql,
            "timeout": f"{max(1, int(timeout_seconds * 1000))}ms",
        }
        if query.is_instant:
            path = "/api/v1/query"
            params["time"] = f"{query.end.timestamp():.3f}"
        else:
            path = "/api/v1/query_range"
            params["start"] = f"{query.start.timestamp():.3f}"
            params["end"] = f"{query.end.timestamp():.3f}"
            params["step"] = str(query.step_seconds)
        body = self._get(path, params, deadline)
        if not isinstance(body, dict):
            return body
        data = body.get("data")
        if not isinstance(data, dict):
            return _failure(BackendFailureKind.BACKEND_ERROR, "PROMETHEUS_MALFORMED")
        shaped = to_port_shape(data, query)
        shaped["units"] = self._units(query.metric_names, deadline)
        return Success(json.dumps(shaped, separators=(",", ":")))

    def _get(
        self, path: str, params: dict[str, str], deadline: float
    ) -> JsonObject | Result[str, BackendFailure]:
        left = deadline - time.monotonic()
        if left <= 0:
            return _failure(BackendFailureKind.BACKEND_TIMEOUT, "PROMETHEUS_TIMEOUT")
        try:
            response = self._client.get(path, params=params, timeout=left)
        except httpx.TimeoutException:
            return _failure(BackendFailureKind.BACKEND_TIMEOUT, "PROMETHEUS_TIMEOUT")
        except httpx.HTTPError:
            return _failure(BackendFailureKind.BACKEND_ERROR, "PROMETHEUS_UNREACHABLE")
        try:
            body = response.json()
        except ValueError:
            return _failure(BackendFailureKind.BACKEND_ERROR, "PROMETHEUS_MALFORMED")
        if not isinstance(body, dict):
            return _failure(BackendFailureKind.BACKEND_ERROR, "PROMETHEUS_MALFORMED")
        if body.get("status") != "success":
            reason, kind = _ERROR_REASONS.get(
                str(body.get("errorType")), ("PROMETHEUS_ERROR", BackendFailureKind.BACKEND_ERROR)
            )
            return _failure(kind, reason)
        return body

    def _units(self, names: tuple[str, ...], deadline: float) -> JsonObject:
        units: JsonObject = {}
        for name in names[:_MAX_METADATA_NAMES]:
            body = self._get("/api/v1/metadata", {"metric": name, "limit": "1"}, deadline)
            data = body.get("data") if isinstance(body, dict) else None
            entries = data.get(name) if isinstance(data, dict) else None
            if isinstance(entries, list) and entries and isinstance(entries[0], dict):
                unit = entries[0].get("unit")
                if isinstance(unit, str) and unit:
                    units[name] = unit
        return units

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()
