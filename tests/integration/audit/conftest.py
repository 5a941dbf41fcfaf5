"""Fixtures of the audit integration tests: a throwaway MariaDB audit database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.support.mariadb_server import MariaDbAddress


@pytest.fixture
def mariadb_audit_url(mariadb: MariaDbAddress) -> Iterator[str]:
    """The URL of an empty MariaDB database of its own (root), dropped afterwards."""
    name = f"fl_audit_{uuid.uuid4().hex[:12]}"
    root = mariadb.engine()
    with root.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
    try:
        password = f":{mariadb.password}" if mariadb.password else ""
        yield f"mysql+pymysql://{mariadb.user}{password}@{mariadb.host}:{mariadb.port}/{name}"
    finally:
        with root.connect() as connection:
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS `{name}`")
        root.dispose()
