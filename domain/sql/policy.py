"""The allowlist a datasource's queries are checked against: a domain value.

The adapter builds one ``SqlPolicy`` per configured datasource; the validator reads nothing
else. Names are compared without regard to ASCII case and rewritten to the spelling given
here.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, timezone
from typing import Literal, TypeAlias

from attrs import field, frozen

__all__ = [
    "SourceDialect",
    "SqlDialect",
    "SqlLimits",
    "SqlPolicy",
    "TablePolicy",
    "source_dialect",
]

SqlDialect: TypeAlias = Literal["mysql", "sqlite", "postgres"]
"""Which engine runs a datasource's queries.

The model writes MySQL syntax for ``mysql`` and ``sqlite`` datasources (a SQLite datasource
runs the plan transpiled) and PostgreSQL syntax for ``postgres`` datasources.
"""

SourceDialect: TypeAlias = Literal["mysql", "postgres"]
"""The syntax a query is written, parsed and regenerated in."""


def source_dialect(dialect: SqlDialect) -> SourceDialect:
    """The syntax the model writes for a datasource of ``dialect``."""
    return "postgres" if dialect == "postgres" else "mysql"


def _as_tuple(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        raise TypeError(f"expected a collection of names, got {values!r}")
    return tuple(values)


def _as_frozenset(values: Iterable[str]) -> frozenset[str]:
    if isinstance(values, str):
        raise TypeError(f"expected a collection of names, got {values!r}")
    return frozenset(values)


@frozen
class TablePolicy:
    """One allowlisted table."""

    name: str
    """The table's name as the database spells it."""
    columns: tuple[str, ...] = field(converter=_as_tuple)
    """Every column a query may name, as the database spells them."""
    sensitive: frozenset[str] = field(converter=_as_frozenset, factory=frozenset)
    """Columns (a subset of ``columns``) whose values always come back redacted."""

    def __attrs_post_init__(self) -> None:
        lowered = {column.lower() for column in self.columns}
        if len(lowered) != len(self.columns):
            raise ValueError(f"table {self.name!r} lists a column twice")
        unknown = {column.lower() for column in self.sensitive} - lowered
        if unknown:
            raise ValueError(f"table {self.name!r}: sensitive columns not listed: {unknown!r}")

    def column(self, name: str) -> str | None:
        """The allowlisted spelling of ``name``, or None when it is not listed."""
        wanted = name.lower()
        for column in self.columns:
            if column.lower() == wanted:
                return column
        return None

    def is_sensitive(self, column: str) -> bool:
        """True when the (allowlisted) column's values must be redacted."""
        wanted = column.lower()
        return any(name.lower() == wanted for name in self.sensitive)


@frozen
class SqlLimits:
    """Complexity and size limits; every one is checked before anything runs."""

    max_length: int = 4000
    """Characters of query text."""
    max_nesting: int = 16
    """Nesting of parentheses, CASE and prefix operators, measured before parsing."""
    max_nodes: int = 600
    """Nodes of the syntax tree."""
    max_depth: int = 64
    """Depth of the syntax tree."""
    max_tables: int = 8
    """Table references (a table named twice counts twice)."""
    max_joins: int = 6
    """JOIN clauses."""
    max_subqueries: int = 6
    """Subqueries, derived tables and common table expressions."""
    max_subquery_depth: int = 3
    """Subqueries nested inside one another (``IN (SELECT … IN (SELECT …))``)."""
    max_table_repeats: int = 3
    """References to one table in one query: bounds chains of self-joins."""
    max_projections: int = 32
    """Expressions in one SELECT list."""
    max_in_list: int = 100
    """Values in one IN (...) list."""
    max_literal_length: int = 256
    """Characters of one literal."""
    max_rows: int = 200
    """Rows a query may return; a missing or larger LIMIT is clamped to this."""
    max_offset: int = 10000
    """Largest OFFSET."""


@frozen
class SqlPolicy:
    """What one datasource allows."""

    datasource: str
    """The datasource's configured name."""
    dialect: SqlDialect
    """The engine that runs the plans."""
    tables: tuple[TablePolicy, ...]
    """The allowlisted tables."""
    schema: str | None = None
    """The database (MySQL) or schema (PostgreSQL) the connection uses: the only qualifier a
    table name may carry."""
    limits: SqlLimits = field(factory=SqlLimits)
    """Complexity and size limits."""
    time_zone: timezone = UTC
    """The time zone the datasource's sessions run in: ``NOW()`` is bound as a wall-clock
    literal in it (``UTC_TIMESTAMP()`` always in UTC)."""

    @property
    def source_dialect(self) -> SourceDialect:
        """The syntax queries for this datasource are written in."""
        return source_dialect(self.dialect)

    def __attrs_post_init__(self) -> None:
        names = [table.name.lower() for table in self.tables]
        if len(set(names)) != len(names):
            raise ValueError(f"datasource {self.datasource!r} lists a table twice")

    def table(self, name: str) -> TablePolicy | None:
        """The allowlisted table called ``name`` (ASCII case ignored), if any."""
        wanted = name.lower()
        for table in self.tables:
            if table.name.lower() == wanted:
                return table
        return None
