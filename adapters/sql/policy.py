"""Settings → the domain's allowlist policy."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from factledger.adapters.config.sql import SqlDatasourceSettings
from factledger.domain.sql.instant import parse_offset
from factledger.domain.sql.policy import SqlLimits, SqlPolicy, TablePolicy

__all__ = ["policy_from_settings"]


def policy_from_settings(
    datasource: SqlDatasourceSettings, limits: SqlLimits | None = None
) -> SqlPolicy:
    """The policy the validator checks this datasource's queries against."""
    dialect = datasource.dialect
    schema: str | None = None
    if dialect == "mysql":
        schema = make_url(datasource.url).database
    elif dialect == "postgres":
        schema = datasource.postgres_schema
    zone = parse_offset(datasource.time_zone)
    if zone is None:  # the settings checked the offset already
        raise ValueError("time_zone: not a UTC offset")
    return SqlPolicy(
        datasource=datasource.name,
        dialect=dialect,
        schema=schema,
        tables=tuple(
            TablePolicy(name, tuple(table.columns), frozenset(table.sensitive))
            for name, table in datasource.tables.items()
        ),
        limits=limits or SqlLimits(),
        time_zone=zone,
    )
