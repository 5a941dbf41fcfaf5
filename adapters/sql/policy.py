"""Settings → the domain's allowlist policy."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.domain.sql.policy import SqlLimits, SqlPolicy, TablePolicy

__all__ = ["policy_from_settings"]


def policy_from_settings(
    datasource: SqlDatasourceSettings, limits: SqlLimits | None = None
) -> SqlPolicy:
    """The policy the validator checks this datasource's queries against."""
    dialect = datasource.dialect
    schema = make_url(datasource.url).database if dialect == "mysql" else None
    return SqlPolicy(
        datasource=datasource.name,
        dialect=dialect,
        schema=schema,
        tables=tuple(
            TablePolicy(name, tuple(table.columns), frozenset(table.sensitive))
            for name, table in datasource.tables.items()
        ),
        limits=limits or SqlLimits(),
    )
