"""What name resolution works with: sources, columns and the scope of one SELECT.

The values the resolver (``resolution``) builds while it walks a query, and the small
helpers that read sqlglot nodes for it. Pure.
"""

from __future__ import annotations

from attrs import frozen
from sqlglot import exp

from factledger.domain.sql.refusal import RefusalCode

__all__ = [
    "METADATA_PREFIXES",
    "METADATA_SCHEMAS",
    "ColumnRef",
    "Output",
    "QueryScope",
    "Refused",
    "Source",
    "alias_name",
    "child",
    "output_name",
    "require_named",
]

METADATA_SCHEMAS = frozenset(
    {"information_schema", "mysql", "performance_schema", "sys", "pg_catalog", "pg_toast"}
)
"""Schemas that describe the server: never readable, whatever the allowlist says."""
METADATA_PREFIXES = ("pg_", "sqlite_")
"""Names of the catalog tables and views of PostgreSQL and SQLite."""


@frozen
class ColumnRef:
    """A column a source offers."""

    name: str
    table: str | None
    sensitive: bool


@frozen
class Source:
    """A table, common table expression or derived table, as one alias names it."""

    identity: str
    """``table:<name>``, ``cte:<name>`` or ``derived:<n>``: what an alias stands for."""
    spelling: str
    """How a qualifier names this source in the regenerated SQL."""
    columns: dict[str, ColumnRef]


@frozen
class Output:
    """One column a query returns."""

    name: str
    sensitive: bool


class QueryScope:
    """The sources, aliases and resolutions of one SELECT."""

    def __init__(self, parent: QueryScope | None) -> None:
        self.parent = parent
        self.sources: dict[str, Source] = {}
        self.aliases: dict[str, bool] = {}
        """Select-list aliases (lower case) and whether each stands for a sensitive column."""
        self.positions: list[bool] = []
        """Whether each select-list item is a sensitive column, by position."""
        self.shadowing: dict[str, int] = {}
        """Aliases (lower case) that take a source column's name, and their 1-based position
        in the select list (0 when another item has the same name)."""
        self.output_names: dict[str, int] = {}
        """How many select-list items have each output name (lower case)."""
        self.resolved: dict[int, str] = {}
        """The source (its key in ``sources``) of each resolved Column node, by node id."""


class Refused(Exception):
    """Raised inside the resolver; turned into a refusal at its edge."""

    def __init__(self, code: RefusalCode) -> None:
        super().__init__(code.value)
        self.code = code


_MAX_OUTPUT_NAME = 64


def output_name(item: exp.Expr) -> str:
    """The result column's name: the alias, the column, or the expression's text (cut)."""
    if isinstance(item, exp.Alias):
        return item.alias
    if isinstance(item, exp.Column):
        return item.name
    text = item.sql(dialect="mysql")
    if len(text) > _MAX_OUTPUT_NAME:
        return text[: _MAX_OUTPUT_NAME - 1] + "…"
    return text


def child(node: exp.Expr, key: str) -> exp.Expr:
    value = node.args.get(key)
    if not isinstance(value, exp.Expr):
        raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
    return value


def alias_name(node: exp.Expr) -> str | None:
    alias = node.args.get("alias")
    if isinstance(alias, exp.TableAlias):
        identifier = alias.args.get("this")
        if isinstance(identifier, exp.Identifier):
            name = identifier.args.get("this")
            return name if isinstance(name, str) else None
    return None


def require_named(query: exp.Expr) -> None:
    """A CTE's or derived table's columns must have names a reader can rely on."""
    select = query
    while isinstance(select, exp.SetOperation | exp.Subquery):
        select = child(select, "this")
    if not isinstance(select, exp.Select):
        raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
    for item in select.expressions:
        if not isinstance(item, exp.Alias | exp.Column):
            raise Refused(RefusalCode.UNNAMED_DERIVED_COLUMN)
