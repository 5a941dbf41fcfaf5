"""Fixtures of the release tests: each runs on the in-process store and on Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from factledger.adapters.config.settings import Settings
from tests.support.interceptor import settings_for
from tests.support.release import Scenario, scenario


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.integration)])
def store_settings(request: pytest.FixtureRequest) -> Settings:
    """The settings of one store kind (Redis on the session's server, under its own prefix)."""
    if request.param == "redis":
        return settings_for(
            "redis", request.getfixturevalue("redis_url"), request.getfixturevalue("key_prefix")
        )
    return settings_for("memory")


@pytest.fixture
def run(store_settings: Settings) -> Iterator[Scenario]:
    """One started run with its context (a test module may give its own)."""
    with scenario(store_settings) as opened:
        yield opened
