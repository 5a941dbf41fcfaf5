"""Harnesses over the bundled demo incident on a memory store, and one with no tools at all."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factledger import Harness, Settings, build_harness
from factledger.adapters.config.sections import BudgetSettings, StoreSettings
from factledger.adapters.demo.incident import demo_settings

START = datetime(2026, 3, 14, 9, tzinfo=UTC)
END = datetime(2026, 3, 14, 10, tzinfo=UTC)
LOOKUP = '{"previous_observation": null, "input": {"query": "GW-504"}}'


def demo(tmp_path: Path, **budget: int) -> Harness:
    """The demo incident on a memory store, with the budget's keys overridden."""
    settings = demo_settings(tmp_path, StoreSettings(kind="memory"))
    if budget:
        settings = settings.model_copy(update={"budget": BudgetSettings(**budget)})
    return build_harness(settings)


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    with demo(tmp_path) as built:
        yield built


@pytest.fixture
def bare() -> Iterator[Harness]:
    """A harness with no evidence tool configured."""
    with build_harness(Settings(store=StoreSettings(kind="memory"))) as built:
        yield built


def start(harness: Harness) -> str:
    return harness.start_run(question="why?", service="card-gateway", start=START, end=END)
