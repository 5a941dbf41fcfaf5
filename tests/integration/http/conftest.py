"""A harness over the demo incident on a memory store, served by a real uvicorn on loopback."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest
from attrs import frozen

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http import ApiOptions, create_app
from factledger.application.harness import Harness
from tests.integration.http.serving import serving


@frozen
class Served:
    """A running API: its URL, its token and the harness behind it."""

    url: str
    token: str
    harness: Harness

    def client(self, *, token: str | None = None, timeout: float = 10.0) -> httpx.Client:
        """A client that sends ``token`` (default: the right one) as a bearer token."""
        bearer = self.token if token is None else token
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {bearer}"} if bearer else {},
            timeout=timeout,
        )


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    """The demo incident (runbooks, logs, payments datasource) on a memory store."""
    workdir = tmp_path_factory.mktemp("http-demo")
    built = build_harness(demo_settings(workdir, StoreSettings(kind="memory")))
    yield built
    built.close()


@pytest.fixture(scope="module")
def token() -> str:
    """The bearer token of the served API."""
    return f"test-{secrets.token_urlsafe(24)}"


@pytest.fixture(scope="module")
def served(harness: Harness, token: str) -> Iterator[Served]:
    """The API over ``harness``, with a token, short event polls and a 10 s stream limit."""
    options = ApiOptions(token=token, events_max_wait_seconds=10.0, events_poll_seconds=0.05)
    with serving(create_app(harness, options)) as url:
        yield Served(url, token, harness)


@pytest.fixture
def client(served: Served) -> Iterator[httpx.Client]:
    """An authenticated client of the served API."""
    with served.client() as authenticated:
        yield authenticated
