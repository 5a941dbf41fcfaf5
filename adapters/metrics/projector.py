"""The raw answer of a metrics store → a bounded, redacted ``query_metrics`` result.

At most ``max_series`` series are shown: those whose level changed most in the window (then
those that spread most), never the first ones alphabetically. Each is downsampled so that its
spikes and its change point survive (``downsample.py``); its labels are redacted as log
fields are, and the values of labels that name machines (pod, host, instance) are masked wholly
(numbered, so two pods stay apart). Every
value carries the series' unit and every point its ISO time, so a claim such as "p99 latency
rose above 2 s at 09:41" can be read off the result. ``truncated`` is true when a series or a
point was left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from typing import Final

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.adapters.metrics.downsample import SeriesShape, Values, shape_series
from factledger.adapters.metrics.units import unit_from_metadata, unit_of_name
from factledger.adapters.metrics.values import decode_values
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    ProjectedEvidenceStatus,
    ProjectedToolResult,
    ProjectionFailure,
)

__all__ = ["ProjectionRules", "evidence_status_of", "iso", "project_metrics"]

_MASKS: Final = {"pod": Placeholder.POD.value, "ip": Placeholder.IP.value}
_TINY: Final = 1e-12


@frozen
class ProjectionRules:
    """How much of a raw answer a result keeps."""

    max_series: int
    """The most series shown."""
    buckets: int
    """Buckets per series (min, max and last of each are kept)."""
    redact_labels: frozenset[str]
    """Labels masked wholly."""
    unit: str | None
    """The unit the query's names and functions give its values."""


@lru_cache(maxsize=8192)
def iso(seconds: float) -> str:
    """A Unix time as ISO-8601 UTC (``2026-03-14T09:41:00Z``)."""
    moment = datetime.fromtimestamp(seconds, UTC)
    spelled = moment.isoformat(timespec="milliseconds" if moment.microsecond else "seconds")
    return spelled.replace("+00:00", "Z")


def _number(value: float) -> float | int:
    rounded = float(f"{value:.6g}")
    return int(rounded) if rounded.is_integer() and abs(rounded) < 1e15 else rounded


@frozen
class _Series:
    labels: Mapping[str, str]
    start: float
    step: float
    values: Values
    shape: SeriesShape
    spread: float


def _parse(raw_json: str) -> tuple[list[JsonObject], Mapping[str, JsonValue]] | None:
    try:
        raw = json.loads(raw_json)
    except ValueError:
        return None
    series = raw.get("series") if isinstance(raw, dict) else None
    if not isinstance(series, list) or not all(isinstance(s, dict) for s in series):
        return None
    units = raw.get("units")
    return series, units if isinstance(units, dict) else {}


def _series(item: JsonObject, buckets: int) -> _Series | ProjectionFailure | None:
    labels, start, step, values = (item.get(k) for k in ("labels", "start", "step", "values"))
    if (
        not isinstance(labels, dict)
        or not isinstance(start, int | float)
        or not isinstance(step, int | float)
        or not isinstance(values, str)
    ):
        return ProjectionFailure("MALFORMED_RAW")
    cleaned = decode_values(values)
    if cleaned is None:
        return ProjectionFailure("MALFORMED_RAW")
    shape = shape_series(cleaned, buckets)
    if shape is None:
        return None
    low, high = float(cleaned[shape.minimum]), float(cleaned[shape.maximum])
    spread = (high - low) / max(abs(high), abs(low), _TINY)
    text_labels = {str(k): str(v) for k, v in labels.items()}
    return _Series(text_labels, float(start), float(step), cleaned, shape, spread)


class _Masks:
    """Masks the values of machine labels, numbering distinct values in order of appearance
    (``<POD>#1``, ``<POD>#2``) so that two pods stay two series without being named."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], str] = {}
        self._counts: dict[str, int] = {}

    def mask(self, name: str, value: str) -> str:
        known = self._seen.get((name, value))
        if known is None:
            placeholder = _MASKS.get(name, Placeholder.HOST.value)
            self._counts[placeholder] = self._counts.get(placeholder, 0) + 1
            known = f"{placeholder}#{self._counts[placeholder]}"
            self._seen[(name, value)] = known
        return known


def _labels(
    labels: Mapping[str, str], rules: ProjectionRules, redactor: Redactor, masks: _Masks
) -> JsonObject:
    shown: JsonObject = {}
    for name in sorted(labels):
        if name == "__name__":
            continue
        if name in rules.redact_labels:
            shown[name] = masks.mask(name, labels[name])
        else:
            shown[name] = redactor.redact_value(name, labels[name])
    return shown


def _point(series: _Series, index: int) -> list[JsonValue]:
    return [iso(series.start + index * series.step), _number(float(series.values[index]))]


def _shown(
    series: _Series,
    rules: ProjectionRules,
    units: Mapping[str, JsonValue],
    redactor: Redactor,
    masks: _Masks,
) -> JsonObject:
    shape, name = series.shape, series.labels.get("__name__")
    unit = rules.unit
    if name is not None:
        declared = units.get(name)
        named = unit_from_metadata(declared) if isinstance(declared, str) else None
        unit = named or unit_of_name(name) or unit
    change: JsonValue = None
    if shape.change is not None and shape.change.relative_shift >= 0.1:
        change = {
            "time": iso(series.start + shape.change.index * series.step),
            "before": _number(shape.change.before),
            "after": _number(shape.change.after),
        }
    return {
        "metric": name,
        "labels": _labels(series.labels, rules, redactor, masks),
        "unit": unit,
        "points": [_point(series, index) for index in shape.kept],
        "summary": {
            "first": _point(series, shape.first),
            "min": _point(series, shape.minimum),
            "max": _point(series, shape.maximum),
            "last": _point(series, shape.last),
            "change_point": change,
            "samples": shape.present,
        },
    }


def project_metrics(
    raw_json: str, scope: JsonObject, rules: ProjectionRules
) -> Result[ProjectedToolResult, ProjectionFailure]:
    """The bounded result of one raw answer (see the module docstring)."""
    parsed_raw = _parse(raw_json)
    if parsed_raw is None:
        return Failure(ProjectionFailure("MALFORMED_RAW"))
    items, units = parsed_raw
    found: list[_Series] = []
    for item in items:
        parsed = _series(item, rules.buckets)
        if isinstance(parsed, ProjectionFailure):
            return Failure(parsed)
        if parsed is not None:
            found.append(parsed)
    found.sort(key=lambda s: (-s.shape.score, -s.spread, sorted(s.labels.items())))
    shown = found[: rules.max_series]
    cut = len(found) > len(shown) or any(len(s.shape.kept) < s.shape.present for s in shown)
    redactor, masks = Redactor(), _Masks()
    result: JsonObject = {
        "scope": scope,
        "series_matched": len(items),
        "series": [_shown(s, rules, units, redactor, masks) for s in shown],
        "truncated": cut,
    }
    status: ProjectedEvidenceStatus = (
        EvidenceStatus.EVIDENCE_FOUND if shown else EvidenceStatus.NO_EVIDENCE
    )
    return Success(ProjectedToolResult(result, status, truncated=cut))


def evidence_status_of(agent_result: JsonObject) -> EvidenceStatus | None:
    """EVIDENCE_FOUND when a shown series has points, NO_EVIDENCE when none is shown."""
    series = agent_result.get("series")
    if not isinstance(series, list) or not isinstance(agent_result.get("scope"), dict):
        return None
    if not series:
        return EvidenceStatus.NO_EVIDENCE
    for item in series:
        if not isinstance(item, dict) or not isinstance(item.get("points"), list):
            return None
        if not item["points"]:
            return None
    return EvidenceStatus.EVIDENCE_FOUND
