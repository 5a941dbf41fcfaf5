"""``[tools.metrics]``: where the metrics come from and what a query may ask of them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from factledger.adapters.metrics.functions import DEFAULT_FUNCTIONS
from factledger.application.tool_api.provider import ToolSettings

__all__ = ["DEFAULT_FUNCTIONS", "DEFAULT_LABELS", "DEFAULT_REDACTED_LABELS", "MetricsSettings"]


DEFAULT_LABELS = (
    "service",
    "job",
    "status",
    "code",
    "method",
    "route",
    "pool",
    "le",
    "quantile",
    "pod",
    "host",
    "instance",
)
"""Labels a query may match on or group by unless the section lists its own."""

DEFAULT_REDACTED_LABELS = ("pod", "host", "instance", "node", "ip")
"""Labels whose values are masked wholly in a result (like hosts and pods in logs)."""


class MetricsSettings(ToolSettings):
    """One metrics source and the rules every query against it obeys."""

    backend: Literal["prometheus", "fixture"] = "prometheus"
    """``prometheus``: the HTTP API at ``url``; ``fixture``: a fixed series set from ``fixture``."""
    url: str | None = Field(default=None, max_length=2048)
    """The Prometheus base URL (``http://127.0.0.1:9090``); without it no tool is registered."""
    fixture: str | None = Field(default=None, max_length=4096)
    """The fixture file (JSON) for ``backend = "fixture"``."""
    timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    """The HTTP timeout of one call (also sent to Prometheus as the query timeout)."""
    metrics: list[str] = Field(min_length=1, max_length=200)
    """Metric-name patterns a query may select (``fnmatch`` globs: ``http_requests_*``)."""
    functions: list[str] = Field(default_factory=lambda: list(DEFAULT_FUNCTIONS))
    """Functions a query may call (aggregations such as ``sum by (...)`` are always allowed)."""
    labels: list[str] = Field(default_factory=lambda: list(DEFAULT_LABELS))
    """Labels a query may match on, group by or join on."""
    redact_labels: list[str] = Field(default_factory=lambda: list(DEFAULT_REDACTED_LABELS))
    """Labels whose values are masked wholly in a result."""
    max_range_seconds: int = Field(default=86_400, ge=60, le=31 * 86_400)
    """The longest ``end - start`` of one query."""
    min_step_seconds: int = Field(default=15, ge=1, le=86_400)
    """The smallest step."""
    max_points: int = Field(default=11_000, ge=10, le=100_000)
    """The most evaluations per series (``(end - start) / step + 1``)."""
    max_lookback_seconds: int = Field(default=3_600, ge=60, le=7 * 86_400)
    """The longest range selector (``[5m]``), subquery range or offset."""
    max_subqueries: int = Field(default=1, ge=0, le=4)
    """The most subqueries in one query (never nested)."""
    max_regex_matchers: int = Field(default=2, ge=0, le=16)
    """The most regular-expression matchers in one query."""
    max_selectors: int = Field(default=8, ge=1, le=64)
    """The most series selectors in one query."""
    max_query_chars: int = Field(default=1_000, ge=16, le=10_000)
    """The longest query text."""
    max_series: int = Field(default=8, ge=1, le=100)
    """The most series a result shows (those that changed most in the window)."""
    buckets: int = Field(default=30, ge=4, le=500)
    """Buckets per series when downsampling (min, max and last of each are kept)."""

    @model_validator(mode="after")
    def _source_named(self) -> MetricsSettings:
        if self.backend == "fixture" and self.url is not None:
            raise ValueError("backend 'fixture' reads 'fixture', not 'url'")
        if self.backend == "prometheus" and self.fixture is not None:
            raise ValueError("backend 'prometheus' reads 'url', not 'fixture'")
        return self

    @property
    def configured(self) -> bool:
        """True when the section names its source (a URL or a fixture file)."""
        return (self.url if self.backend == "prometheus" else self.fixture) is not None
