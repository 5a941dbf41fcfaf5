"""SQL text generated from an approved tree: a fixed point, and the form its engine runs.

The executor never runs the model's string. It runs text generated from the checked tree,
and only when that text survives a round trip unchanged: parsing it and generating it again
gives the same text and the same tree. Anything sqlglot would silently reinterpret on the way
(``SELECT … INTO @v`` comes back as ``CREATE TABLE``) fails that test. One difference is
allowed: sqlglot may spell out a conversion the engine needs (PostgreSQL's
``ROUND(AVG(x), 2)`` is written ``ROUND(CAST(AVG(x) AS DECIMAL), 2)``); the text is then still
a fixed point, and the tree it means must be the same kind of statement over the same tables
and columns and pass the allowlist again.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlglot
from returns.result import Failure, Result, Success
from sqlglot import ErrorLevel, exp
from sqlglot.errors import ParseError, SqlglotError, TokenError

from factledger.domain.sql.policy import SourceDialect, SqlDialect, source_dialect
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal
from factledger.domain.sql.sqlite_forms import SqliteUnsupported, to_sqlite_forms

__all__ = ["parse_mysql", "parse_statement", "regenerate", "render_sql"]


def parse_mysql(text: str) -> Result[exp.Expr, SqlRefusal]:
    """The one statement of ``text`` (MySQL syntax), or PARSE_ERROR / NESTING_TOO_DEEP."""
    return parse_statement(text, "mysql")


def parse_statement(text: str, dialect: SourceDialect) -> Result[exp.Expr, SqlRefusal]:
    """The one statement of ``text`` in ``dialect``, or PARSE_ERROR / NESTING_TOO_DEEP."""
    try:
        parsed = sqlglot.parse(text, read=dialect, error_level=ErrorLevel.RAISE)
    except RecursionError:
        return Failure(SqlRefusal(RefusalCode.NESTING_TOO_DEEP))
    except (ParseError, TokenError):
        return Failure(SqlRefusal(RefusalCode.PARSE_ERROR))
    trees = [tree for tree in parsed if tree is not None]
    if len(trees) != 1 or len(parsed) != 1:
        return Failure(SqlRefusal(RefusalCode.MULTI_STATEMENT))
    return Success(trees[0])


def regenerate(
    tree: exp.Expr,
    dialect: SourceDialect = "mysql",
    recheck: Callable[[exp.Expr], bool] | None = None,
) -> Result[str, SqlRefusal]:
    """The text of ``tree`` in ``dialect`` with every identifier quoted, when it is a fixed
    point; ``recheck`` is asked whether a tree that differs only by what the generator spelled
    out is still allowed."""
    for node in tree.walk():
        if isinstance(node, exp.Identifier):
            node.set("quoted", True)
        elif (
            dialect == "mysql"
            and isinstance(node, exp.GroupConcat)
            and node.args.get("separator") is None
        ):
            # sqlglot writes MySQL's default separator out; say it in the tree too.
            node.set("separator", exp.Literal.string(","))
    try:
        text = tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
    except (RecursionError, SqlglotError):
        return Failure(SqlRefusal(RefusalCode.NOT_FIXED_POINT))
    reparsed_result = parse_statement(text, dialect)
    if isinstance(reparsed_result, Failure):
        return Failure(SqlRefusal(RefusalCode.NOT_FIXED_POINT))
    reparsed = reparsed_result.unwrap()
    same_tree = reparsed == tree
    # The re-parsed tree is not needed again when it equals the checked one: generate it in
    # place (a copy costs a tenth of the whole validation).
    if reparsed.sql(dialect=dialect, copy=not same_tree) != text:
        return Failure(SqlRefusal(RefusalCode.NOT_FIXED_POINT))
    if not same_tree and not _same_reading(tree, reparsed, recheck):
        return Failure(SqlRefusal(RefusalCode.NOT_FIXED_POINT))
    if "\\" in text:
        return Failure(SqlRefusal(RefusalCode.BACKSLASH_ESCAPE))
    return Success(text)


def _same_reading(
    tree: exp.Expr, reparsed: exp.Expr, recheck: Callable[[exp.Expr], bool] | None
) -> bool:
    """True when the text means the same statement over the same names (only spelled-out
    conversions added) and that tree passes the allowlist again."""
    if recheck is None or type(reparsed) is not type(tree):
        return False
    if _names(reparsed) != _names(tree):
        return False
    return recheck(reparsed)


def _names(tree: exp.Expr) -> list[str]:
    return sorted(node.sql() for node in tree.find_all(exp.Column, exp.Table, exp.Subquery))


def render_sql(sql: str, dialect: SqlDialect) -> Result[str, SqlRefusal]:
    """Regenerated SQL (in the datasource's source dialect) as the ``dialect`` engine runs it:
    the same text for MySQL and PostgreSQL, transpiled for SQLite."""
    if dialect == source_dialect(dialect):
        return Success(sql)
    tree_result = parse_mysql(sql)
    if isinstance(tree_result, Failure):
        return Failure(tree_result.failure())
    try:
        tree = to_sqlite_forms(tree_result.unwrap())
        return Success(tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE))
    except (RecursionError, SqlglotError, SqliteUnsupported):
        return Failure(SqlRefusal(RefusalCode.UNSUPPORTED_ON_DATASOURCE))
