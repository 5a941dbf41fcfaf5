"""Fixtures shared by the unit tests: the store kinds a run's tests repeat on."""

from __future__ import annotations

import pytest

from factledger.adapters.config.settings import Settings
from tests.support.interceptor import settings_for


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.integration)])
def store_settings(request: pytest.FixtureRequest) -> Settings:
    """The settings of one store kind (Redis on the session's server, under its own prefix)."""
    if request.param == "redis":
        return settings_for(
            "redis", request.getfixturevalue("redis_url"), request.getfixturevalue("key_prefix")
        )
    return settings_for("memory")
