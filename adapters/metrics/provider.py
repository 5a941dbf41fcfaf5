"""The ``[tools.metrics]`` provider: builds ``query_metrics`` when the section names a source.

It is installed under the ``factledger.tools`` entry point group, as a team's own provider
would be, so ``factledger serve``, ``factledger mcp`` and the demo serve the tool when the
section is there; without the section, or without a source in it, no tool is registered.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel

from factledger.adapters.metrics.fixture_backend import FixtureMetricsBackend
from factledger.adapters.metrics.prometheus_backend import PrometheusBackend
from factledger.adapters.metrics.settings import MetricsSettings
from factledger.adapters.metrics.tool import MetricsTool
from factledger.application.tool_api.provider import ToolProvider
from factledger.application.tool_api.spec import ToolSpec
from factledger.ports.metrics import MetricsBackend

__all__ = ["MetricsToolProvider"]


class MetricsToolProvider(ToolProvider[MetricsSettings]):
    """Builds ``query_metrics`` from ``[tools.metrics]``."""

    section: ClassVar[str] = "metrics"
    settings_model: ClassVar[type[BaseModel]] = MetricsSettings

    def build(self, settings: MetricsSettings) -> ToolSpec | None:
        """The tool over the configured source, or None when the section names none."""
        if not settings.configured:
            return None
        backend: MetricsBackend
        if settings.backend == "fixture":
            assert settings.fixture is not None
            backend = FixtureMetricsBackend(Path(settings.fixture))
        else:
            assert settings.url is not None
            backend = PrometheusBackend(settings.url, settings.timeout_seconds)
        return MetricsTool(backend, settings)
