"""The facade's telemetry as Prometheus metrics, in a registry of the app's own.

Every series is fed by the facade (``Harness.add_telemetry``), so a call made through any
transport sharing the harness counts, not only the HTTP ones. Labels are closed sets (tool
names, statuses, outcomes, fallback types, issue codes, budgets): no run id, no argument.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from factledger.domain.release.issues import IssueCode
from factledger.domain.status import FallbackType, ReleaseOutcome
from factledger.ports.telemetry import CallStatus, RefusedBudget

__all__ = ["CONTENT_TYPE", "PrometheusTelemetry"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of the text exposition format."""

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class PrometheusTelemetry:
    """A ``Telemetry`` sink writing to its own ``CollectorRegistry``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        """The registry ``/metrics`` exposes (never the process-wide default)."""
        self._calls = self._counter(
            "factledger_tool_calls",
            "Tool calls answered, by tool and observation status.",
            ("tool", "status"),
        )
        self._call_seconds = self._histogram(
            "factledger_tool_call_seconds", "Time to answer a tool call, by tool.", ("tool",)
        )
        self._releases = self._counter(
            "factledger_releases",
            "Release decisions, by outcome and fallback type (none unless FALLBACK).",
            ("outcome", "fallback_type"),
        )
        self._release_seconds = self._histogram(
            "factledger_release_seconds", "Time to decide a release.", ()
        )
        self._violations = self._counter(
            "factledger_guard_violations",
            "Issues the guards found in released or checked drafts, by code.",
            ("code",),
        )
        self._budget = self._counter(
            "factledger_budget_refusals",
            "Requests a run's budget refused, by what was refused.",
            ("budget",),
        )

    def _counter(self, name: str, documentation: str, labels: tuple[str, ...]) -> Counter:
        """A counter in this sink's registry."""
        return Counter(name, documentation, labels, registry=self.registry)

    def _histogram(self, name: str, documentation: str, labels: tuple[str, ...]) -> Histogram:
        """A histogram of durations in seconds in this sink's registry, on the shared buckets."""
        return Histogram(name, documentation, labels, buckets=_BUCKETS, registry=self.registry)

    def tool_call(self, tool: str, status: CallStatus, seconds: float) -> None:
        self._calls.labels(tool=tool, status=status).inc()
        self._call_seconds.labels(tool=tool).observe(seconds)

    def release(
        self, outcome: ReleaseOutcome, fallback_type: FallbackType | None, seconds: float
    ) -> None:
        fallback = "none" if fallback_type is None else fallback_type.value
        self._releases.labels(outcome=outcome.value, fallback_type=fallback).inc()
        self._release_seconds.observe(seconds)

    def guard_violation(self, code: IssueCode) -> None:
        self._violations.labels(code=code.value).inc()

    def budget_refusal(self, budget: RefusedBudget) -> None:
        self._budget.labels(budget=budget).inc()

    def exposition(self) -> bytes:
        """Every series in the text exposition format."""
        return generate_latest(self.registry)
