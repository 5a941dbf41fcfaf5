"""The demo's metrics file and a ``query_metrics`` tool over it, for the metrics tests."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from factledger.adapters.metrics.fixture_backend import FixtureMetricsBackend
from factledger.adapters.metrics.settings import MetricsSettings
from factledger.adapters.metrics.tool import MetricsTool
from factledger.ports.metrics import MetricsBackend

DEMO_METRICS = Path(str(files("factledger.adapters.demo").joinpath("metrics.json")))
"""The demo incident's series (scripts/make_demo_metrics.py)."""

PATTERNS = ["card_gateway_*", "checkout_*"]


def metrics_settings(**overrides: Any) -> MetricsSettings:
    """Settings of a fixture source over the demo's metrics, with ``overrides``."""
    given: dict[str, Any] = {
        "backend": "fixture",
        "fixture": str(DEMO_METRICS),
        "metrics": PATTERNS,
    }
    given.update(overrides)
    return MetricsSettings(**given)


def metrics_tool(source: MetricsBackend | None = None, **overrides: Any) -> MetricsTool:
    """``query_metrics`` over ``source`` (the demo fixture when None)."""
    return MetricsTool(source or FixtureMetricsBackend(DEMO_METRICS), metrics_settings(**overrides))


def request(
    query: str,
    start: str = "2026-03-14T09:00:00Z",
    end: str = "2026-03-14T10:00:00Z",
    step: int | None = 60,
) -> dict[str, Any]:
    """A ``query_metrics`` input."""
    return {"query": query, "start": start, "end": end, "step": step}
