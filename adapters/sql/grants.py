"""The exact privileges of a datasource's read-only account, as SQL an administrator runs.

Column-level SELECT on the allowlist, and nothing else: no table-level SELECT (so an
unlisted column stays unreadable even if the validator were wrong), no FILE, PROCESS, SUPER,
LOCK TABLES, SHOW VIEW, EXECUTE, nor any privilege on another database. See
``docs/sql-readonly-account.md`` (MySQL/MariaDB) and ``docs/sql-postgresql-account.md``
(PostgreSQL).
"""

from __future__ import annotations

from factledger.domain.sql.policy import SqlPolicy

__all__ = ["grant_statements", "postgres_grant_statements", "postgres_role_statements"]


def grant_statements(policy: SqlPolicy, database: str, account: str) -> tuple[str, ...]:
    """One ``GRANT SELECT (columns) ON db.table TO account`` per allowlisted table (MySQL).

    ``account`` is already quoted, e.g. ``'factledger_ro'@'10.0.0.%'``.
    """
    statements: list[str] = []
    for table in policy.tables:
        columns = ", ".join(_quote(column) for column in table.columns)
        statements.append(
            f"GRANT SELECT ({columns}) ON {_quote(database)}.{_quote(table.name)} TO {account}"
        )
    return tuple(statements)


def postgres_role_statements(role: str, password_literal: str) -> tuple[str, ...]:
    """The PostgreSQL role itself: it may log in and nothing more, and every session it opens
    is read-only with a statement timeout. ``password_literal`` is a quoted SQL literal."""
    name = _pg_quote(role)
    return (
        f"CREATE ROLE {name} LOGIN PASSWORD {password_literal} NOSUPERUSER NOCREATEDB "
        "NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT 10",
        f"ALTER ROLE {name} SET default_transaction_read_only = on",
        f"ALTER ROLE {name} SET statement_timeout = '30s'",
        f"ALTER ROLE {name} SET idle_in_transaction_session_timeout = '60s'",
    )


def postgres_grant_statements(policy: SqlPolicy, database: str, role: str) -> tuple[str, ...]:
    """``CONNECT`` on the database, ``USAGE`` on the datasource's schema, and one
    ``GRANT SELECT (columns) ON schema.table`` per allowlisted table (PostgreSQL)."""
    schema = _pg_quote(policy.schema or "public")
    name = _pg_quote(role)
    statements = [
        f"GRANT CONNECT ON DATABASE {_pg_quote(database)} TO {name}",
        f"GRANT USAGE ON SCHEMA {schema} TO {name}",
    ]
    for table in policy.tables:
        columns = ", ".join(_pg_quote(column) for column in table.columns)
        statements.append(f"GRANT SELECT ({columns}) ON {schema}.{_pg_quote(table.name)} TO {name}")
    return tuple(statements)


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _pg_quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
