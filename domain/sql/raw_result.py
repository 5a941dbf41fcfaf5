"""The raw result document of one SQL call: what the executor returns, what the projector reads.

The executor writes it from the plan it ran and the rows the database returned (at most
``row_limit + 1``; the extra row only says that more exist). It stays with the harness; the
model never sees it. Shape (UTF-8 JSON, one object)::

    {"datasource": "payments", "dialect": "mysql", "sql": "SELECT …", "now": null,
     "tables": ["orders"], "columns": ["orders.id"],
     "output_columns": [{"name": "id", "sensitive": false}], "row_limit": 200,
     "rows": [[1], [2]]}

``sql`` is the text the engine ran; ``now`` the instant (ISO 8601) ``NOW()`` was bound to,
or null when the query did not name the current time.

Cells are JSON strings, numbers, booleans or null; the executor converts dates, times,
decimals and bytes before writing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import get_args

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_reading import ShapeMismatch, as_list, as_text, read_strict
from factledger.domain.json_types import JsonObject, JsonScalar, JsonValue
from factledger.domain.sql.plan import OutputColumn, QueryPlan
from factledger.domain.sql.policy import SqlDialect

__all__ = ["RawSqlResult", "decode_raw_result", "encode_raw_result"]


@frozen
class RawSqlResult:
    """The raw document, decoded."""

    datasource: str
    dialect: SqlDialect
    sql: str
    now: str | None
    tables: tuple[str, ...]
    columns: tuple[str, ...]
    output_columns: tuple[OutputColumn, ...]
    row_limit: int
    rows: tuple[tuple[JsonScalar, ...], ...]


def encode_raw_result(plan: QueryPlan, rows: Sequence[Sequence[JsonScalar]]) -> str:
    """The raw JSON text for ``rows`` returned by running ``plan``."""
    document: JsonObject = {
        "datasource": plan.datasource,
        "dialect": plan.dialect,
        "sql": plan.sql,
        "now": None if plan.now is None else plan.now.isoformat(),
        "tables": list[JsonValue](plan.tables),
        "columns": list[JsonValue](plan.columns),
        "output_columns": [
            {"name": column.name, "sensitive": column.sensitive} for column in plan.output_columns
        ],
        "row_limit": plan.row_limit,
        "rows": [list[JsonValue](row) for row in rows],
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def decode_raw_result(raw_json: str) -> Result[RawSqlResult, str]:
    """The decoded document, or ``MALFORMED_RAW``."""
    document = read_strict(raw_json, _document)
    return Failure("MALFORMED_RAW") if document is None else Success(document)


def _document(document: object) -> RawSqlResult:
    if not isinstance(document, dict):
        raise ShapeMismatch
    if set(document) != _KEYS:
        raise ShapeMismatch
    outputs = tuple(_output(item) for item in as_list(document["output_columns"]))
    row_limit = document["row_limit"]
    if not isinstance(row_limit, int) or isinstance(row_limit, bool) or row_limit < 0:
        raise ShapeMismatch
    rows = tuple(_row(row, len(outputs)) for row in as_list(document["rows"]))
    dialect = document["dialect"]
    if dialect not in get_args(SqlDialect):
        raise ShapeMismatch
    now = document["now"]
    if now is not None:
        _instant(now)
    return RawSqlResult(
        datasource=as_text(document["datasource"]),
        dialect=dialect,
        sql=as_text(document["sql"]),
        now=now,
        tables=tuple(as_text(item) for item in as_list(document["tables"])),
        columns=tuple(as_text(item) for item in as_list(document["columns"])),
        output_columns=outputs,
        row_limit=row_limit,
        rows=rows,
    )


_KEYS = frozenset(
    {"datasource", "dialect", "sql", "now", "tables", "columns", "output_columns", "row_limit",
     "rows"}
)  # fmt: skip


def _instant(value: object) -> None:
    if not isinstance(value, str):
        raise ShapeMismatch
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ShapeMismatch from None
    if parsed.tzinfo is None:
        raise ShapeMismatch


def _output(value: object) -> OutputColumn:
    if not isinstance(value, dict) or set(value) != {"name", "sensitive"}:
        raise ShapeMismatch
    sensitive = value["sensitive"]
    if not isinstance(sensitive, bool):
        raise ShapeMismatch
    return OutputColumn(name=as_text(value["name"]), sensitive=sensitive)


def _row(value: object, width: int) -> tuple[JsonScalar, ...]:
    cells = as_list(value)
    if len(cells) != width:
        raise ShapeMismatch
    return tuple(_cell(cell) for cell in cells)


def _cell(value: object) -> JsonScalar:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise ShapeMismatch
