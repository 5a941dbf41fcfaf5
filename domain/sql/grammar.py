"""The conservative SELECT subset, as an allowlist of sqlglot node types.

Every node of a parsed query must be of a type listed here, and may only carry the arguments
listed for it: anything sqlglot can represent but this table does not name (``INTO``,
locking clauses, index hints, ``WITH ROLLUP``, named windows, charset introducers, hex
literals, placeholders…) is refused. Functions are allowed by sqlglot type, plus a short
list of names sqlglot leaves untyped.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from sqlglot import exp
from sqlglot.expressions.datatypes import DType

from factledger.domain.sql.policy import SqlDialect
from factledger.domain.sql.refusal import RefusalCode

__all__ = [
    "AGGREGATE_TYPES",
    "ALLOWED_DATA_TYPES",
    "ALLOWED_NODE_ARGS",
    "FUNCTION_RULES",
    "INTERVAL_UNITS",
    "POSTGRES_ONLY_NODES",
    "SQLITE_UNSUPPORTED_NODES",
    "UNIT_PARENTS",
    "UNTYPED_FUNCTIONS",
    "forbidden_function_code",
    "function_allowed",
]

_BINARY = frozenset({"this", "expression"})
_SET_OPERATION = frozenset({"this", "expression", "distinct", "order", "limit", "offset"})

ALLOWED_NODE_ARGS: Mapping[type[exp.Expr], frozenset[str]] = MappingProxyType(
    {
        exp.Select: frozenset(
            {"expressions", "from_", "joins", "where", "group", "having", "order", "limit",
             "offset", "with_", "distinct"}
        ),
        exp.Union: _SET_OPERATION,
        exp.Subquery: frozenset({"this", "alias"}),
        exp.From: frozenset({"this"}),
        exp.Join: frozenset({"this", "on", "side", "kind"}),
        exp.Where: frozenset({"this"}),
        exp.Having: frozenset({"this"}),
        exp.Group: frozenset({"expressions"}),
        exp.Order: frozenset({"this", "expressions"}),
        exp.Ordered: frozenset({"this", "desc", "nulls_first"}),
        exp.Limit: frozenset({"expression"}),
        exp.Offset: frozenset({"expression"}),
        exp.With: frozenset({"expressions"}),
        exp.CTE: frozenset({"this", "alias"}),
        exp.TableAlias: frozenset({"this"}),
        exp.Table: frozenset({"this", "alias", "db"}),
        exp.Column: frozenset({"this", "table"}),
        exp.Identifier: frozenset({"this", "quoted"}),
        exp.Alias: frozenset({"this", "alias"}),
        exp.Literal: frozenset({"this", "is_string"}),
        exp.Null: frozenset(),
        exp.Boolean: frozenset({"this"}),
        exp.Star: frozenset(),
        exp.Paren: frozenset({"this"}),
        exp.Tuple: frozenset({"expressions"}),
        exp.In: frozenset({"this", "expressions", "query"}),
        exp.Between: frozenset({"this", "low", "high"}),
        exp.Like: frozenset({"this", "expression", "negate"}),
        exp.Is: frozenset({"this", "expression", "negate"}),
        exp.Not: frozenset({"this"}),
        exp.Neg: frozenset({"this"}),
        exp.And: _BINARY,
        exp.Or: _BINARY,
        exp.EQ: _BINARY,
        exp.NEQ: _BINARY,
        exp.GT: _BINARY,
        exp.GTE: _BINARY,
        exp.LT: _BINARY,
        exp.LTE: _BINARY,
        exp.NullSafeEQ: _BINARY,
        exp.Add: _BINARY,
        exp.Sub: _BINARY,
        exp.Mul: _BINARY,
        exp.Div: frozenset({"this", "expression", "typed", "safe"}),
        exp.IntDiv: _BINARY,
        exp.Mod: frozenset({"this", "expression", "safe"}),
        exp.Case: frozenset({"ifs", "default", "this"}),
        exp.Cast: frozenset({"this", "to"}),
        exp.DataType: frozenset({"this", "expressions", "nested"}),
        exp.DataTypeParam: frozenset({"this"}),
        exp.Interval: frozenset({"this", "unit"}),
        exp.Var: frozenset({"this"}),
        exp.Exists: frozenset({"this"}),
        exp.Distinct: frozenset({"expressions", "on"}),
        exp.Window: frozenset({"this", "partition_by", "order", "spec", "over"}),
        exp.WindowSpec: frozenset({"kind", "start", "start_side", "end", "end_side"}),
        exp.ILike: frozenset({"this", "expression", "negate"}),
        exp.DPipe: frozenset({"this", "expression", "safe"}),
        exp.Filter: _BINARY,
        exp.WithinGroup: _BINARY,
        exp.NullSafeNEQ: _BINARY,
        exp.AtTimeZone: frozenset({"this", "zone"}),
    }
)  # fmt: skip
"""Node types that may appear, each with the arguments it may carry."""

POSTGRES_ONLY_NODES: tuple[type[exp.Expr], ...] = (
    exp.ILike,
    exp.DPipe,
    exp.Filter,
    exp.WithinGroup,
    exp.NullSafeNEQ,
    exp.AtTimeZone,
)
"""Operators only PostgreSQL syntax produces (in MySQL ``||`` is OR, and the rest do not
parse), refused elsewhere so that no transpilation has to guess."""

_T = exp.DataType.Type
_COMMON_TYPES = frozenset(
    {_T.BIGINT, _T.INT, _T.DECIMAL, _T.DOUBLE, _T.CHAR, _T.VARCHAR, _T.DATE, _T.TIME}
)
ALLOWED_DATA_TYPES: Mapping[SqlDialect, frozenset[DType]] = MappingProxyType(
    {
        "mysql": _COMMON_TYPES | {_T.UBIGINT, _T.DATETIME},
        "sqlite": _COMMON_TYPES | {_T.UBIGINT, _T.DATETIME},
        "postgres": _COMMON_TYPES
        | {
            _T.SMALLINT, _T.FLOAT, _T.TEXT, _T.BOOLEAN, _T.TIMESTAMP, _T.TIMESTAMPTZ,
            _T.TIMETZ, _T.INTERVAL,
        },
    }
)  # fmt: skip
"""Types a CAST may convert to, per dialect."""

_SINGULAR_UNITS = frozenset(
    {"MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH",
     "QUARTER", "YEAR", "DECADE", "CENTURY"}
)  # fmt: skip
INTERVAL_UNITS = (
    _SINGULAR_UNITS
    | {unit + "S" for unit in _SINGULAR_UNITS if unit != "CENTURY"}
    | {"CENTURIES", "EPOCH", "DOW", "DOY", "ISODOW", "ISOYEAR"}
)
"""The only bare words (sqlglot ``Var``) a query may contain: interval and date-part units."""

UNIT_PARENTS: tuple[type[exp.Expr], ...] = (
    exp.Interval,
    exp.DateAdd,
    exp.DateSub,
    exp.TimestampDiff,
    exp.TimestampAdd,
    exp.Extract,
    exp.TimestampTrunc,
    exp.DateTrunc,
)
"""Where a unit word may stand."""

_ALL: frozenset[SqlDialect] = frozenset({"mysql", "sqlite", "postgres"})
_BOTH = _ALL
_MYSQL: frozenset[SqlDialect] = frozenset({"mysql"})
_NOT_SQLITE: frozenset[SqlDialect] = frozenset({"mysql", "postgres"})
_POSTGRES: frozenset[SqlDialect] = frozenset({"postgres"})
_MYSQL_SQLITE: frozenset[SqlDialect] = frozenset({"mysql", "sqlite"})

FUNCTION_RULES: Mapping[type[exp.Func], frozenset[SqlDialect]] = MappingProxyType(
    {
        # aggregates
        exp.Count: _BOTH,
        exp.Sum: _BOTH,
        exp.Avg: _BOTH,
        exp.Min: _BOTH,
        exp.Max: _BOTH,
        exp.GroupConcat: _BOTH,
        exp.StddevPop: _NOT_SQLITE,
        exp.StddevSamp: _NOT_SQLITE,
        exp.Variance: _NOT_SQLITE,
        exp.VariancePop: _NOT_SQLITE,
        # conditionals
        exp.Coalesce: _BOTH,
        exp.If: _BOTH,
        exp.Nullif: _BOTH,
        exp.Greatest: _BOTH,
        exp.Least: _BOTH,
        # strings
        exp.Concat: _BOTH,
        exp.ConcatWs: _NOT_SQLITE,
        exp.Length: _BOTH,
        exp.Upper: _BOTH,
        exp.Lower: _BOTH,
        exp.Substring: _BOTH,
        exp.Left: _NOT_SQLITE,
        exp.Right: _NOT_SQLITE,
        exp.Trim: _BOTH,
        exp.Replace: _BOTH,
        exp.StrPosition: _BOTH,
        # numbers
        exp.Round: _BOTH,
        exp.Abs: _BOTH,
        exp.Floor: _ALL,
        exp.Ceil: _ALL,
        exp.Sign: _BOTH,
        exp.Sqrt: _NOT_SQLITE,
        exp.Ln: _NOT_SQLITE,
        exp.Log: _NOT_SQLITE,
        exp.Exp: _NOT_SQLITE,
        exp.Pow: _NOT_SQLITE,
        # dates and times (never the current time: results must be reproducible)
        exp.TsOrDsToDate: _BOTH,
        exp.TsOrDsToTimestamp: _BOTH,
        exp.TimeToStr: _BOTH,
        exp.StrToDate: _MYSQL,
        exp.StrToTime: _MYSQL,
        exp.ConvertTimezone: _MYSQL,
        exp.Time: _MYSQL,
        exp.Dayname: _MYSQL,
        exp.SubstringIndex: _MYSQL,
        exp.DateDiff: _BOTH,
        exp.DateAdd: _ALL,
        exp.DateSub: _ALL,
        exp.TimestampDiff: _MYSQL_SQLITE,
        exp.TimestampAdd: _MYSQL,
        exp.UnixToTime: _NOT_SQLITE,
        exp.LastDay: _MYSQL,
        exp.Extract: _ALL,
        exp.Year: _ALL,
        exp.Quarter: _NOT_SQLITE,
        exp.Month: _ALL,
        exp.Week: _NOT_SQLITE,
        exp.WeekOfYear: _MYSQL,
        exp.Day: _ALL,
        exp.DayOfMonth: _ALL,
        exp.DayOfWeek: _ALL,
        exp.DayOfYear: _ALL,
        exp.Hour: _ALL,
        exp.Minute: _ALL,
        exp.Second: _ALL,
        # window functions
        exp.RowNumber: _BOTH,
        exp.Rank: _BOTH,
        exp.DenseRank: _BOTH,
        exp.PercentRank: _BOTH,
        exp.CumeDist: _BOTH,
        exp.Ntile: _BOTH,
        exp.Lag: _BOTH,
        exp.Lead: _BOTH,
        exp.FirstValue: _BOTH,
        exp.LastValue: _BOTH,
        exp.NthValue: _BOTH,
        # PostgreSQL's own
        exp.TimestampTrunc: _POSTGRES,
        exp.DateTrunc: _POSTGRES,
        exp.SplitPart: _POSTGRES,
        exp.PercentileCont: _POSTGRES,
        exp.PercentileDisc: _POSTGRES,
        exp.LogicalOr: _POSTGRES,
        exp.LogicalAnd: _POSTGRES,
        exp.Trunc: _POSTGRES,
        exp.Initcap: _POSTGRES,
        exp.Stddev: _POSTGRES,
    }
)
"""Typed functions allowed, each with the dialects it is known to run on unchanged."""

UNTYPED_FUNCTIONS: Mapping[str, frozenset[SqlDialect]] = MappingProxyType(
    {
        "WEEKDAY": _MYSQL,
        "TIMEDIFF": _MYSQL,
        "TIME_TO_SEC": _MYSQL,
        "SEC_TO_TIME": _MYSQL,
        "UNIX_TIMESTAMP": _MYSQL_SQLITE,
        "TIME_FORMAT": _MYSQL,
        "SUBSTRING_INDEX": _MYSQL,
        "LOCATE": _MYSQL,
        "AGE": _POSTGRES,
        "TIMEZONE": _POSTGRES,
        "FIELD": _MYSQL,
        "TO_DATE": _POSTGRES,
        "BTRIM": _POSTGRES,
        "JUSTIFY_INTERVAL": _POSTGRES,
    }
)
"""Functions sqlglot leaves untyped (``Anonymous``) that are deterministic and side-effect free."""

SQLITE_UNSUPPORTED_NODES: tuple[type[exp.Expr], ...] = ()
"""Operators SQLite never runs (interval arithmetic is rewritten by ``sqlite_forms`` where it
can be, and refused at rendering where it cannot)."""

AGGREGATE_TYPES: tuple[type[exp.Expr], ...] = (exp.AggFunc, exp.Window)
"""Nodes that make a SELECT aggregate (or windowed) over its rows."""

_NONDETERMINISTIC_TYPES: tuple[type[exp.Expr], ...] = (
    exp.CurrentDate,
    exp.CurrentTime,
    exp.CurrentTimestamp,
    exp.UtcDate,
    exp.UtcTimestamp,
    exp.Localtime,
    exp.Localtimestamp,
    exp.Rand,
    exp.Uuid,
)
_NONDETERMINISTIC_NAMES = frozenset(
    {"NOW", "SYSDATE", "CURTIME", "UNIX_TIMESTAMP", "UUID_SHORT", "RAND", "UTC_TIME",
     "RANDOM", "GEN_RANDOM_UUID", "TIMEOFDAY", "CLOCK_TIMESTAMP", "TRANSACTION_TIMESTAMP",
     "STATEMENT_TIMESTAMP", "SETSEED"}
)  # fmt: skip
_METADATA_TYPES: tuple[type[exp.Expr], ...] = (
    exp.CurrentVersion,
    exp.CurrentSchema,
    exp.CurrentDatabase,
    exp.CurrentUser,
    exp.SessionUser,
    exp.CurrentRole,
    exp.Collation,
)
_METADATA_NAMES = frozenset(
    {
        "USER", "SYSTEM_USER", "SESSION_USER", "CURRENT_ROLE", "CONNECTION_ID",
        "LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS", "VERSION", "DATABASE", "SCHEMA",
        "CHARSET", "COERCIBILITY", "CURRENT_SETTING", "CURRENT_DATABASE", "CURRENT_CATALOG",
        "CURRENT_SCHEMAS", "INET_SERVER_ADDR", "INET_SERVER_PORT", "INET_CLIENT_ADDR",
        "INET_CLIENT_PORT", "PG_BACKEND_PID", "PG_POSTMASTER_START_TIME", "PG_CONF_LOAD_TIME",
        "HAS_TABLE_PRIVILEGE", "HAS_COLUMN_PRIVILEGE", "HAS_DATABASE_PRIVILEGE",
        "PG_HAS_ROLE", "TXID_CURRENT", "PG_CURRENT_XACT_ID", "TXID_CURRENT_SNAPSHOT",
        "PG_TABLE_SIZE", "PG_RELATION_SIZE", "PG_TOTAL_RELATION_SIZE", "PG_DATABASE_SIZE",
        "OBJ_DESCRIPTION", "COL_DESCRIPTION", "PG_GET_USERBYID", "TO_REGCLASS",
    }
)  # fmt: skip


def function_allowed(node: exp.Func, dialect: SqlDialect) -> RefusalCode | None:
    """None when the function may run on ``dialect``, else the refusal code."""
    if isinstance(node, exp.Anonymous):
        name = node.name.upper()
        dialects = UNTYPED_FUNCTIONS.get(name)
        if dialects is None:
            return forbidden_function_code(node)
        return None if dialect in dialects else RefusalCode.UNSUPPORTED_ON_DATASOURCE
    typed = FUNCTION_RULES.get(type(node))
    if typed is None:
        return forbidden_function_code(node)
    return None if dialect in typed else RefusalCode.UNSUPPORTED_ON_DATASOURCE


def forbidden_function_code(node: exp.Expr) -> RefusalCode:
    """The most telling code for a function that is not allowed."""
    if isinstance(node, _NONDETERMINISTIC_TYPES):
        return RefusalCode.NONDETERMINISTIC_FUNCTION
    if isinstance(node, _METADATA_TYPES):
        return RefusalCode.METADATA_ACCESS
    if isinstance(node, exp.Anonymous):
        name = node.name.upper()
        if name in _NONDETERMINISTIC_NAMES:
            return RefusalCode.NONDETERMINISTIC_FUNCTION
        if name in _METADATA_NAMES:
            return RefusalCode.METADATA_ACCESS
    return RefusalCode.FORBIDDEN_FUNCTION
