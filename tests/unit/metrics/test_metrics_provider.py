"""``[tools.metrics]``: the tool exists only when the section names a source, and its
provider is installed as any team's would be (the ``factledger.tools`` entry point group)."""

from __future__ import annotations

import pytest

from factledger import Settings, SettingsError, build_harness
from factledger.adapters.metrics.provider import MetricsToolProvider
from factledger.adapters.tool_plugins import installed_tools
from tests.support.metrics import DEMO_METRICS

MEMORY = {"store": {"kind": "memory"}}


def _names(tools: dict[str, object] | None) -> tuple[str, ...]:
    settings = Settings.model_validate({**MEMORY, **({"tools": tools} if tools else {})})
    with build_harness(settings, tools=[MetricsToolProvider()]) as harness:
        return harness.tool_names


def test_no_section_or_no_source_registers_no_tool() -> None:
    assert "query_metrics" not in _names(None)
    assert "query_metrics" not in _names({"metrics": {"metrics": ["http_*"]}})


def test_a_fixture_or_a_prometheus_source_registers_query_metrics() -> None:
    fixture = {"backend": "fixture", "fixture": str(DEMO_METRICS), "metrics": ["card_*"]}
    assert _names({"metrics": fixture}) == ("query_metrics",)
    remote = {"url": "http://127.0.0.1:9", "metrics": ["card_*"]}
    assert _names({"metrics": remote}) == ("query_metrics",)


def test_a_bad_section_stops_start_up_naming_the_key() -> None:
    with pytest.raises(SettingsError, match=r"tools\.metrics\.colour"):
        _names({"metrics": {"url": "http://x", "metrics": ["a"], "colour": 1}})
    with pytest.raises(SettingsError, match=r"tools\.metrics\.metrics"):
        _names({"metrics": {"url": "http://x", "metrics": []}})


def test_the_provider_is_installed_under_the_tools_entry_point_group() -> None:
    assert any(isinstance(item, MetricsToolProvider) for item in installed_tools())
