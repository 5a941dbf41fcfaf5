"""An approved query: the only thing an executor accepts."""

from __future__ import annotations

from datetime import datetime

from attrs import frozen

from factledger.domain.sql.policy import SqlDialect

__all__ = ["OutputColumn", "QueryPlan"]


@frozen
class OutputColumn:
    """One column of the result, in order."""

    name: str
    """The column's name as the result shows it."""
    sensitive: bool
    """True when the column is a sensitive column by origin: its values are redacted."""


@frozen
class QueryPlan:
    """A query the validator approved, regenerated from its syntax tree.

    ``sql`` is the text the engine runs, exactly: for MySQL and PostgreSQL the regenerated
    text, a fixed point (parsing it and generating it again gives the same text); for SQLite
    that text transpiled. The observation shows it.
    """

    datasource: str
    """The datasource the plan was approved for."""
    sql: str
    """The SQL the engine runs; its outermost LIMIT is ``row_limit + 1``."""
    tables: tuple[str, ...]
    """The allowlisted tables the query reads, sorted."""
    columns: tuple[str, ...]
    """The allowlisted columns the query reads, as ``table.column``, sorted."""
    output_columns: tuple[OutputColumn, ...]
    """The result's columns, in order."""
    row_limit: int
    """Rows the caller may receive; one more row is fetched to tell whether more exist."""
    dialect: SqlDialect = "mysql"
    """The engine ``sql`` is written for."""
    now: datetime | None = None
    """The instant ``NOW()`` and its kin were bound to, when the query named the current
    time."""
