"""One Redis Cluster for the cluster tests (started here, stopped by pid at the end)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.redis_cluster import INSTALL_HINT, RedisClusterProcesses, cluster_binaries


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisClusterProcesses]:
    binaries = cluster_binaries()
    if binaries is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    cluster = RedisClusterProcesses(*binaries)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.cleanup()
