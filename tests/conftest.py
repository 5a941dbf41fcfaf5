"""Shared fixtures: real services for the integration tests (never skipped, never mocked)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.support.redis_server import (
    INSTALL_HINT,
    RedisProcess,
    redis_binary,
    running_redis_url,
)

pytest_plugins = ["tests.support.mariadb_fixtures", "tests.support.postgres_fixtures"]


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis for the session: a throwaway server when the binary exists, else the running one."""
    binary = redis_binary()
    if binary is not None:
        server = RedisProcess(binary)
        server.start()
        try:
            yield server.url
        finally:
            server.cleanup()
        return
    url = running_redis_url()
    if url is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    yield url


@pytest.fixture
def redis_server() -> Iterator[RedisProcess]:
    """A Redis process this test owns alone, so it may stop, kill or restart it."""
    binary = redis_binary()
    if binary is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = RedisProcess(binary)
    server.start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(autouse=True)
def _own_working_directory(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test runs in a folder of its own: the embedded store's default file
    (``.factledger/store.db``) and any ``factledger.toml`` lookup never touch the checkout."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    monkeypatch.delenv("FACTLEDGER_CONFIG", raising=False)


@pytest.fixture
def key_prefix() -> str:
    """A key prefix no other test uses, so tests sharing one Redis never see each other."""
    return f"flt{uuid.uuid4().hex[:12]}"
