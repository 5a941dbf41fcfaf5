"""The one factual sentence a ``query_metrics`` result is summarised in."""

from __future__ import annotations

from factledger.domain.json_types import JsonObject, JsonValue, first_object, object_or_empty
from factledger.domain.status import EvidenceStatus

__all__ = ["summarize_metrics"]


def _value(point: JsonValue, unit: str) -> str:
    if not isinstance(point, list) or len(point) != 2:
        return "?"
    return f"{point[1]}{unit} at {point[0]}"


def _series_name(series: JsonObject) -> str:
    labels = series.get("labels")
    shown = ""
    if isinstance(labels, dict) and labels:
        shown = "{" + ",".join(f"{key}={value}" for key, value in labels.items()) + "}"
    return f"{series.get('metric') or 'the query'}{shown}"


def summarize_metrics(agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
    """Which query over which window, how many series, and the top series' change point, max,
    last and min with their unit and time."""
    scope = object_or_empty(agent_result.get("scope"))
    window = f"between {scope.get('start')} and {scope.get('end')}"
    query = scope.get("query")
    if evidence_status is not EvidenceStatus.EVIDENCE_FOUND:
        return f"No series matched {query} {window}."
    top = first_object(agent_result.get("series"))
    unit = top.get("unit")
    spelled = f" {unit}" if isinstance(unit, str) else ""
    summary = object_or_empty(top.get("summary"))
    change = summary.get("change_point")
    shift = ""
    if isinstance(change, dict):
        shift = (
            f": level went from {change.get('before')}{spelled} to {change.get('after')}{spelled} "
            f"at {change.get('time')}"
        )
    return (
        f"{agent_result.get('series_matched')} series matched {query} {window}; "
        f"{_series_name(top)}{shift}; max {_value(summary.get('max'), spelled)}, "
        f"last {_value(summary.get('last'), spelled)}, min {_value(summary.get('min'), spelled)}."
    )
