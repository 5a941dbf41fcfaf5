"""The facade's measurements, handed to every sink a transport registered.

``TelemetryHub`` reads the facade's typed results (an observation, a release result, a check
result, a model-usage report) and reports what metrics need of them: the tool and the status,
the outcome and the fallback type, each guard issue's code, each budget refusal. A sink that
fails is dropped from that report only: measuring never breaks a call.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import assert_never

from factledger.application.check_result import CheckResult
from factledger.application.observation import Observation, ObservationStatus
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.release.issues import ValidationIssue
from factledger.ports.telemetry import CallStatus, Telemetry

__all__ = ["TelemetryHub", "call_status"]

_log = logging.getLogger(__name__)

_BUDGET_CODES = frozenset({ToolBoundaryErrorCode.BUDGET_EXHAUSTED.value})


def call_status(status: ObservationStatus) -> CallStatus:
    """An observation's status as the telemetry port names it."""
    match status:
        case ObservationStatus.READY:
            return "READY"
        case ObservationStatus.ERROR:
            return "ERROR"
        case ObservationStatus.REFUSED:
            return "REFUSED"
        case _:  # pragma: no cover - every member is named above
            assert_never(status)


class TelemetryHub:
    """The registered sinks; thread-safe."""

    def __init__(self) -> None:
        self._sinks: list[Telemetry] = []
        self._lock = threading.Lock()

    def add(self, sink: Telemetry) -> Callable[[], None]:
        """Report to ``sink`` from now on; returns what stops it."""
        with self._lock:
            self._sinks.append(sink)

        def remove() -> None:
            with self._lock:
                if sink in self._sinks:
                    self._sinks.remove(sink)

        return remove

    def tool_call(self, tool: str, observation: Observation, seconds: float) -> None:
        """One answered tool call (its budget refusal counted too)."""
        status = call_status(observation.status)
        budget = observation.error_code in _BUDGET_CODES

        def report(sink: Telemetry) -> None:
            sink.tool_call(tool, status, seconds)
            if budget:
                sink.budget_refusal("tool_call")

        self._report(report)

    def release(self, result: ReleaseResult, seconds: float) -> None:
        """One release decision (its guard issues counted by code)."""
        fallback = result.fallback
        issues = () if fallback is None else fallback.validation_issues
        fallback_type = None if fallback is None else fallback.type

        def report(sink: Telemetry) -> None:
            sink.release(result.outcome, fallback_type, seconds)
            _violations(sink, issues)

        self._report(report)

    def check(self, result: CheckResult) -> None:
        """One draft check (its guard issues counted by code)."""
        self._report(lambda sink: _violations(sink, result.validation_issues))

    def model_refused(self) -> None:
        """A model call the run's budget or deadline refused."""
        self._report(lambda sink: sink.budget_refusal("model_call"))

    def _report(self, report: Callable[[Telemetry], None]) -> None:
        with self._lock:
            sinks = tuple(self._sinks)
        for sink in sinks:
            try:
                report(sink)
            except Exception as failed:  # a sink of the host's own must not break a call
                _log.warning("a telemetry sink failed with %s", type(failed).__name__)


def _violations(sink: Telemetry, issues: tuple[ValidationIssue, ...]) -> None:
    for issue in issues:
        sink.guard_violation(issue.code)
