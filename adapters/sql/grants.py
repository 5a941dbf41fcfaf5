"""The exact privileges of a datasource's read-only account, as SQL an administrator runs.

Column-level SELECT on the allowlist, and nothing else: no table-level SELECT (so an
unlisted column stays unreadable even if the validator were wrong), no FILE, PROCESS, SUPER,
LOCK TABLES, SHOW VIEW, EXECUTE, nor any privilege on another database. See
``docs/sql-readonly-account.md``.
"""

from __future__ import annotations

from factledger.domain.sql.policy import SqlPolicy

__all__ = ["grant_statements"]


def grant_statements(policy: SqlPolicy, database: str, account: str) -> tuple[str, ...]:
    """One ``GRANT SELECT (columns) ON db.table TO account`` per allowlisted table.

    ``account`` is already quoted, e.g. ``'factledger_ro'@'10.0.0.%'``.
    """
    statements: list[str] = []
    for table in policy.tables:
        columns = ", ".join(_quote(column) for column in table.columns)
        statements.append(
            f"GRANT SELECT ({columns}) ON {_quote(database)}.{_quote(table.name)} TO {account}"
        )
    return tuple(statements)


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"
