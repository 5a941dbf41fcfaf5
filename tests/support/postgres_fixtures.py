"""PostgreSQL fixtures for the integration tests: the server on 127.0.0.1:5432.

``pg_test_database`` creates a database no other test uses, the test schema and data
(``tests/data/sql/dataset.sql``, DATETIME written TIMESTAMP) and a read-only role holding
exactly what ``factledger.adapters.sql.grants`` writes for the test allowlist; it drops both
afterwards. Without a server the tests fail and say what to install: they never skip
(``scripts/test.sh`` starts the installed cluster when it is not running).
"""

from __future__ import annotations

import os
import secrets
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from attrs import frozen

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.adapters.sql.grants import postgres_grant_statements, postgres_role_statements
from factledger.adapters.sql.policy import policy_from_settings
from factledger.domain.sql.policy import SqlPolicy
from tests.support.mariadb_fixtures import allowlist_settings, dataset_statements, ledger_rows

INSTALL_HINT = (
    "PostgreSQL 15 is needed by the SQL integration tests: install it "
    "(Debian/Ubuntu: apt-get install postgresql) and start it (pg_ctlcluster 15 main start), "
    "answering on 127.0.0.1:5432 with trust authentication for the postgres user."
)
HOST = "127.0.0.1"
PORT = int(os.environ.get("FACTLEDGER_TEST_POSTGRES_PORT", "5432"))
ADMIN = "postgres"


@frozen
class PgTestDatabase:
    """The test database on PostgreSQL, its read-only role and its allowlist."""

    database: str
    role: str
    password: str
    settings: SqlDatasourceSettings
    """The ``[[sql.datasources]]`` entry, its URL naming the read-only role."""

    @property
    def policy(self) -> SqlPolicy:
        return policy_from_settings(self.settings)

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        """The postgres superuser, on the test database (autocommit)."""
        return admin_connection(self.database)

    def as_role(self) -> psycopg.Connection[tuple[object, ...]]:
        """The read-only role, on the test database, with no factledger code in between."""
        return psycopg.connect(
            host=HOST, port=PORT, user=self.role, password=self.password,
            dbname=self.database, autocommit=True, connect_timeout=5,
        )  # fmt: skip


def admin_connection(database: str = "test") -> psycopg.Connection[tuple[object, ...]]:
    """The postgres superuser (trust authentication), autocommitting."""
    return psycopg.connect(
        host=HOST, port=PORT, user=ADMIN, dbname=database, autocommit=True, connect_timeout=5
    )


def postgres_statements() -> list[str]:
    """The test dataset in PostgreSQL's words."""
    return [statement.replace("DATETIME", "TIMESTAMP") for statement in dataset_statements()]


@pytest.fixture(scope="session")
def pg_test_database() -> Iterator[PgTestDatabase]:
    """A unique PostgreSQL database with data and a read-only role; dropped afterwards."""
    try:
        admin = admin_connection()
    except psycopg.OperationalError:
        pytest.fail(INSTALL_HINT, pytrace=False)
    suffix = uuid.uuid4().hex[:12]
    database, role, password = f"fl_sql_{suffix}", f"fl_ro_{suffix}", secrets.token_hex(16)
    template = allowlist_settings()
    settings = template.model_copy(
        update={
            "name": "payments_pg",
            "url": f"postgresql+psycopg://{role}:{password}@{HOST}:{PORT}/{database}",
        }
    )
    created = PgTestDatabase(database, role, password, settings)
    try:
        admin.execute(f'CREATE DATABASE "{database}"'.encode())
        for statement in postgres_role_statements(role, f"'{password}'"):
            admin.execute(statement.encode())
        with created.admin() as connection:
            for statement in postgres_statements():
                connection.execute(statement.encode())
            with connection.cursor() as cursor:
                cursor.executemany("INSERT INTO ledger (id, bucket) VALUES (%s, %s)", ledger_rows())
            connection.execute(b"ANALYZE")
            for grant in postgres_grant_statements(created.policy, database, role):
                connection.execute(grant.encode())
        yield created
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'.encode())
        admin.execute(f'DROP ROLE IF EXISTS "{role}"'.encode())
        admin.close()
