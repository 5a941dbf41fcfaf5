"""``query_metrics``: one PromQL query over a window, as bounded evidence.

Written as a team writes its own tool, with the public tool API only: ``EvidenceTool`` with a
typed input, the backend behind ``MetricsBackend``, the projector in ``projector.py``. A
request is refused before anything runs when its query breaks a rule of the source
(``promql_rules.py``), when its window is empty, longer than the source allows, finer than
its smallest step or has too many points, and when it leaves the run's window.
"""

from __future__ import annotations

import math
from typing import Final

from pydantic import Field
from returns.result import Result

from factledger.adapters.metrics.projector import (
    ProjectionRules,
    evidence_status_of,
    project_metrics,
)
from factledger.adapters.metrics.promql_rules import CheckedQuery, MetricsRefusal, check_query
from factledger.adapters.metrics.settings import MetricsSettings
from factledger.adapters.metrics.summary import summarize_metrics
from factledger.application.contracts.envelope import StrictModel
from factledger.application.contracts.instant import Instant
from factledger.application.tool_api.spec import RunWindow
from factledger.application.tool_api.tool import EvidenceTool
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.redaction import Redactor
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.metrics import MetricsBackend, MetricsQuery

__all__ = ["MetricsInput", "MetricsTool"]

TOOL_NAME: Final = "query_metrics"
_DEFAULT_POINTS: Final = 1_000
_CHECKS_KEPT: Final = 256
DESCRIPTION = (
    "Run one PromQL query over a time window of the run (range query; start equal to end for "
    "an instant query). Returns the series that changed most, each with its metric name, "
    "redacted labels, unit, points as [ISO time, value] that keep spikes and the change point, "
    "and a summary (first, min, max, last, change point). Only allowlisted metrics, labels and "
    "functions; no regex that matches everything, no grouping by __name__. No series is a "
    "valid, scoped negative result."
)


class MetricsInput(StrictModel):
    """One PromQL query over a window."""

    query: str = Field(min_length=1, max_length=10_000, description="The PromQL expression.")
    start: Instant = Field(description="First evaluation time, ISO-8601 with a time zone.")
    end: Instant = Field(description="Last evaluation time, ISO-8601 with a time zone.")
    step: int | None = Field(
        default=None, ge=1, le=86_400, description="Seconds between points; null for a default."
    )


class MetricsTool(EvidenceTool[MetricsInput]):
    """PromQL over any ``MetricsBackend``, held to one source's rules."""

    name = TOOL_NAME
    description = DESCRIPTION
    input_model = MetricsInput
    content_keys = ("series_matched", "series")
    analysis_kinds = frozenset(
        {AnalysisKind.SUPPORTING_EVIDENCE, AnalysisKind.NEGATIVE_OBSERVATION}
    )

    def __init__(self, backend: MetricsBackend, settings: MetricsSettings) -> None:
        self._backend = backend
        self._settings = settings
        self._checks: dict[str, CheckedQuery | MetricsRefusal] = {}
        """Checked queries by text (a call is checked, scoped and projected: parsed once)."""

    # -- checking ---------------------------------------------------------------------

    def _step(self, request: MetricsInput) -> int:
        span = (request.end - request.start).total_seconds()
        if span == 0:
            return 0
        if request.step is not None:
            return request.step
        return max(self._settings.min_step_seconds, math.ceil(span / _DEFAULT_POINTS))

    def _window_refusal(self, request: MetricsInput) -> MetricsRefusal | None:
        span = (request.end - request.start).total_seconds()
        if span < 0:
            return MetricsRefusal.EMPTY_WINDOW
        if span > self._settings.max_range_seconds:
            return MetricsRefusal.RANGE_TOO_LONG
        step = self._step(request)
        if step == 0:
            return None
        if step < self._settings.min_step_seconds:
            return MetricsRefusal.STEP_TOO_SMALL
        if span / step + 1 > self._settings.max_points:
            return MetricsRefusal.TOO_MANY_POINTS
        return None

    def _checked(self, request: MetricsInput) -> CheckedQuery | MetricsRefusal:
        known = self._checks.get(request.query)
        if known is None:
            if len(self._checks) >= _CHECKS_KEPT:
                self._checks.clear()
            known = self._checks[request.query] = check_query(request.query, self._settings)
        return known

    def refuse(self, request: MetricsInput) -> str | None:
        window = self._window_refusal(request)
        if window is not None:
            return window.value
        checked = self._checked(request)
        return checked.value if isinstance(checked, MetricsRefusal) else None

    def refuse_in_window(self, request: MetricsInput, window: RunWindow) -> str | None:
        if request.start < window.start or request.end > window.end:
            return MetricsRefusal.OUTSIDE_RUN_WINDOW.value
        return None

    def _query(self, request: MetricsInput) -> CheckedQuery:
        checked = self._checked(request)
        if isinstance(checked, MetricsRefusal):  # pragma: no cover - refused in ``prepare``
            raise TypeError("a refused request was run")
        return checked

    # -- scope ------------------------------------------------------------------------

    def scope(self, request: MetricsInput) -> JsonObject:
        checked = self._checked(request)
        redactor = Redactor()
        names: list[JsonValue] = []
        matchers: list[JsonValue] = []
        if isinstance(checked, CheckedQuery):
            names = list(checked.metric_names)
            matchers = [redactor.redact(matcher) for matcher in checked.matchers]
        return {
            "query": redactor.redact(request.query),
            "metrics": names,
            "matchers": matchers,
            "start": request.start.isoformat(),
            "end": request.end.isoformat(),
            "step": self._step(request),
        }

    def normalized_scope(self, request: MetricsInput) -> JsonObject:
        checked = self._checked(request)
        query = checked.canonical if isinstance(checked, CheckedQuery) else request.query
        return {
            "query": query,
            "start": request.start.timestamp(),
            "end": request.end.timestamp(),
            "step": self._step(request),
        }

    # -- running and projecting -------------------------------------------------------

    def run(self, request: MetricsInput, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        checked = self._query(request)
        query = MetricsQuery(
            promql=request.query,
            start=request.start,
            end=request.end,
            step_seconds=self._step(request),
            metric_names=checked.metric_names,
        )
        return self._backend.fetch(query, timeout_seconds)

    def project(
        self, request: MetricsInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        rules = ProjectionRules(
            max_series=self._settings.max_series,
            buckets=self._settings.buckets,
            redact_labels=frozenset(self._settings.redact_labels),
            unit=self._query(request).unit,
        )
        return project_metrics(raw_json, self.scope(request), rules)

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        return evidence_status_of(agent_result)

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        return summarize_metrics(agent_result, evidence_status)

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        scope = agent_result.get("scope")
        metrics = scope.get("metrics") if isinstance(scope, dict) else None
        if not isinstance(scope, dict) or not isinstance(metrics, list):
            return ()
        window: JsonObject = {
            "query": scope.get("query"),
            "start": scope.get("start"),
            "end": scope.get("end"),
            "step": scope.get("step"),
        }
        return tuple(Source(TOOL_NAME, str(name), window) for name in metrics if name is not None)

    def close(self) -> None:
        self._backend.close()
