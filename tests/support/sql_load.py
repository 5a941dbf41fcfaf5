"""The cost-gate workload: two tables of 100,000 rows, ten queries that pass the validator (each
join relates rows) but would keep a server busy for minutes, and the server's own counters.

Used by ``tests/integration/sql/test_cost_gate.py`` and ``bench/sql_cost.py``. Each engine gets
a database of its own and a read-only account holding exactly the column grants of the
allowlist; ``drop`` removes both.

The counters are the server's, not a wall clock: MariaDB's ``USER_STATISTICS.BUSY_TIME`` (and
``ROWS_READ``) for the account (``userstat`` switched on), PostgreSQL's
``pg_stat_database.active_time`` for the database (and the rows ``pg_stat_user_tables``
counts as read from the two tables).
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal

from attrs import frozen

from factledger.adapters.config.sql import SqlDatasourceSettings, SqlTableSettings
from factledger.adapters.sql.grants import (
    grant_statements,
    postgres_grant_statements,
    postgres_role_statements,
)
from factledger.adapters.sql.policy import policy_from_settings
from tests.support.mariadb_server import MariaDbAddress
from tests.support.postgres_fixtures import HOST, PORT, admin_connection

ROWS = 100_000
COLUMNS = ("id", "bucket", "grp", "created_at")

HEAVY_QUERIES = (
    "SELECT COUNT(*) AS n FROM big a JOIN big b ON a.bucket = b.bucket",
    "SELECT COUNT(*) AS n FROM big a JOIN big b ON a.grp = b.grp",
    "SELECT a.id, (SELECT COUNT(*) FROM big b WHERE b.grp = a.grp) AS n FROM big a",
    "SELECT a.id, (SELECT AVG(b.grp) FROM other b WHERE b.bucket = a.bucket AND b.id < a.id) "
    "AS m FROM big a",
    "SELECT a.bucket, COUNT(*) AS n FROM big a JOIN big b ON a.bucket = b.bucket "
    "JOIN other c ON c.bucket = b.bucket GROUP BY a.bucket",
    "SELECT a.id FROM big a JOIN big b ON b.grp = a.grp WHERE a.bucket = 1",
    "SELECT a.id, c.id AS other_id FROM big a JOIN other c ON c.bucket = a.bucket",
    "SELECT COUNT(*) AS n FROM big a JOIN other o ON o.grp = a.grp",
    "SELECT a.id, (SELECT MAX(o.id) FROM other o WHERE o.bucket = a.bucket) AS m FROM big a",
    "WITH x AS (SELECT grp FROM big) SELECT COUNT(*) AS n FROM x JOIN other o ON o.grp = x.grp",
)
"""Ten queries the validator accepts and the cost gate must refuse."""

CHEAP_QUERY = "SELECT bucket, COUNT(*) AS n FROM big GROUP BY bucket ORDER BY bucket"
"""A full scan of one table: under the gate, it runs."""


def _settings(name: str, url: str) -> SqlDatasourceSettings:
    tables = {table: SqlTableSettings(columns=list(COLUMNS)) for table in ("big", "other")}
    return SqlDatasourceSettings(name=name, url=url, tables=tables)


@frozen
class LoadDatabase:
    """A database holding the two big tables, and its read-only account."""

    engine: str
    database: str
    account: str
    settings: SqlDatasourceSettings


# -- MariaDB --------------------------------------------------------------------------------


def create_mariadb(address: MariaDbAddress) -> LoadDatabase:
    """The big tables in a new MariaDB database, with an account granted the allowlist."""
    suffix = uuid.uuid4().hex[:12]
    database, user, password = f"fl_cost_{suffix}", f"fl_cost_{suffix}", secrets.token_hex(16)
    url = f"mysql+pymysql://{user}:{password}@{address.host}:{address.port}/{database}"
    created = LoadDatabase("mariadb", database, user, _settings("load_mariadb", url))
    root = address.engine()
    try:
        with root.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE `{database}`")
            connection.exec_driver_sql(f"USE `{database}`")
            for table, step in (("big", 1), ("other", 7)):
                connection.exec_driver_sql(
                    f"CREATE TABLE {table} (id INT PRIMARY KEY, bucket INT NOT NULL, "
                    "grp INT NOT NULL, created_at DATETIME NOT NULL)"
                )
                connection.exec_driver_sql(
                    f"INSERT INTO {table} SELECT seq, MOD(seq * {step}, 10), "
                    f"MOD(seq * {step}, 1000),"
                    f" '2024-05-01' + INTERVAL seq SECOND FROM seq_1_to_{ROWS}"
                )
                connection.exec_driver_sql(f"ANALYZE TABLE {table}")
            account = f"'{user}'@'127.0.0.1'"
            connection.exec_driver_sql(f"CREATE USER {account} IDENTIFIED BY %s", (password,))
            policy = policy_from_settings(created.settings)
            for grant in grant_statements(policy, database, account):
                connection.exec_driver_sql(grant)
            connection.exec_driver_sql("SET GLOBAL userstat = 1")
    finally:
        root.dispose()
    return created


def mariadb_counters(address: MariaDbAddress, load: LoadDatabase) -> tuple[float, int]:
    """(BUSY_TIME seconds, ROWS_READ) the server counted for the account so far."""
    root = address.engine()
    try:
        with root.connect() as connection:
            row = connection.exec_driver_sql(
                "SELECT BUSY_TIME, ROWS_READ FROM information_schema.USER_STATISTICS "
                "WHERE USER = %s",
                (load.account,),
            ).first()
    finally:
        root.dispose()
    return (0.0, 0) if row is None else (float(row[0]), int(row[1]))


def drop_mariadb(address: MariaDbAddress, load: LoadDatabase) -> None:
    root = address.engine()
    try:
        with root.connect() as connection:
            connection.exec_driver_sql(f"DROP USER IF EXISTS '{load.account}'@'127.0.0.1'")
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS `{load.database}`")
    finally:
        root.dispose()


# -- PostgreSQL -----------------------------------------------------------------------------


def create_postgres() -> LoadDatabase:
    """The big tables in a new PostgreSQL database, with a role granted the allowlist."""
    suffix = uuid.uuid4().hex[:12]
    database, role, password = f"fl_cost_{suffix}", f"fl_cost_{suffix}", secrets.token_hex(16)
    url = f"postgresql+psycopg://{role}:{password}@{HOST}:{PORT}/{database}"
    created = LoadDatabase("postgres", database, role, _settings("load_postgres", url))
    with admin_connection() as admin:
        admin.execute(f'CREATE DATABASE "{database}"'.encode())
        for statement in postgres_role_statements(role, f"'{password}'"):
            admin.execute(statement.encode())
    with admin_connection(database) as connection:
        for table, step in (("big", 1), ("other", 7)):
            connection.execute(
                f"CREATE TABLE {table} (id INT PRIMARY KEY, bucket INT NOT NULL, "
                "grp INT NOT NULL, created_at TIMESTAMP NOT NULL)".encode()
            )
            connection.execute(
                f"INSERT INTO {table} SELECT g, (g * {step}) % 10, (g * {step}) % 1000, "
                f"TIMESTAMP '2024-05-01' + g * INTERVAL '1 second' "
                f"FROM generate_series(1, {ROWS}) g".encode()
            )
        connection.execute(b"ANALYZE")
        policy = policy_from_settings(created.settings)
        for grant in postgres_grant_statements(policy, database, role):
            connection.execute(grant.encode())
    return created


def postgres_counters(load: LoadDatabase) -> tuple[float, int]:
    """(active_time seconds of the database, rows read from the two big tables) as
    PostgreSQL counted them so far, once the statistics of finished sessions have settled."""
    previous: tuple[float, int] | None = None
    with admin_connection(load.database) as admin:
        for _ in range(20):
            admin.execute(b"SELECT pg_stat_clear_snapshot()")
            active = admin.execute(
                b"SELECT active_time FROM pg_stat_database WHERE datname = %s", (load.database,)
            ).fetchone()
            read = admin.execute(
                b"SELECT COALESCE(SUM(seq_tup_read + COALESCE(idx_tup_fetch, 0)), 0) "
                b"FROM pg_stat_user_tables WHERE relname IN ('big', 'other')"
            ).fetchone()
            current = (_number(active) / 1000, int(_number(read)))
            if current == previous:
                return current
            previous = current
            time.sleep(0.6)
    return previous or (0.0, 0)


def _number(row: tuple[object, ...] | None) -> float:
    value = row[0] if row else None
    return float(value) if isinstance(value, int | float | Decimal) else 0.0


def drop_postgres(load: LoadDatabase) -> None:
    with admin_connection() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{load.database}" WITH (FORCE)'.encode())
        admin.execute(f'DROP ROLE IF EXISTS "{load.account}"'.encode())


@contextmanager
def postgres_load() -> Iterator[LoadDatabase]:
    """A PostgreSQL load database for the duration of the block."""
    load = create_postgres()
    try:
        yield load
    finally:
        drop_postgres(load)
