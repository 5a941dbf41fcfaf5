"""Fixtures of the release tests: each runs on the in-process store and on Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from factledger.adapters.config.settings import Settings
from tests.support.release import Scenario, scenario


@pytest.fixture
def run(store_settings: Settings) -> Iterator[Scenario]:
    """One started run with its context (a test module may give its own)."""
    with scenario(store_settings) as opened:
        yield opened
