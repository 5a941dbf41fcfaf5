"""The SQL projector: raw result document → bounded, redacted ``agent_result``.

It caps rows, cell length and total bytes; keeps numbers, booleans and nulls as they are;
redacts every value of a sensitive column by origin (the plan marked them), null included —
a null would say whether a secret exists — and, as a backstop, any string cell whose column
name or value looks secret; and says ``truncated`` when anything was cut. Pure: no I/O, no
clock.

``agent_result``; its scope carries the SQL the engine ran (and the instant ``NOW()`` was
bound to, when the query named it), so the observation shows what was executed::

    {"scope": {"datasource": "payments", "tables": ["orders"], "columns": ["orders.id"],
               "sql": "SELECT `id` FROM `orders` LIMIT 201", "dialect": "mysql"},
     "columns": ["id"], "rows": [[1]], "truncated": false, "returned_count": 1}

``returned_count`` (rows the query returned within its limit) is for the control view only.
"""

from __future__ import annotations

import json

from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.json_types import JsonObject, JsonScalar, JsonValue
from factledger.domain.sql.raw_result import RawSqlResult, decode_raw_result
from factledger.domain.sql.redaction import REDACTED, looks_secret, sensitive_name
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    ProjectedEvidenceStatus,
    ProjectedToolResult,
    ProjectionFailure,
)

__all__ = [
    "SQL_CONTROL_ONLY_KEYS",
    "SQL_MODEL_VISIBLE_KEYS",
    "SqlProjectionLimits",
    "project_sql_result",
    "sql_evidence_status",
]

SQL_MODEL_VISIBLE_KEYS: tuple[str, ...] = ("scope", "columns", "rows", "truncated")
"""Keys of a SQL ``agent_result`` that the model observation carries."""
SQL_CONTROL_ONLY_KEYS: tuple[str, ...] = ("returned_count",)
"""Keys of a SQL ``agent_result`` that only the control view shows."""

_ELLIPSIS = "…"


@frozen
class SqlProjectionLimits:
    """How much of a result the model may see."""

    max_rows: int = 50
    """Rows shown."""
    max_cell_chars: int = 200
    """Characters of one string cell; a longer one is cut and ends with an ellipsis."""
    max_bytes: int = 16384
    """UTF-8 bytes of the whole serialized ``agent_result``."""


def project_sql_result(
    raw_json: str, limits: SqlProjectionLimits | None = None
) -> Result[ProjectedToolResult, ProjectionFailure]:
    """The bounded result of a raw SQL result document, or why it cannot be projected."""
    limits = limits or SqlProjectionLimits()
    raw_result = decode_raw_result(raw_json)
    if isinstance(raw_result, Failure):
        reason = raw_result.failure()
        return Failure(ProjectionFailure(reason))
    raw = raw_result.unwrap()
    return _project(raw, limits)


def sql_evidence_status(
    agent_result: JsonObject,
) -> Result[ProjectedEvidenceStatus, ProjectionFailure]:
    """The evidence status an ``agent_result`` implies: rows ⇒ EVIDENCE_FOUND, else NO_EVIDENCE.

    The control view recomputes it to check the projector's declaration (dual-source check).
    """
    rows = agent_result.get("rows")
    if not isinstance(rows, list):
        return Failure(ProjectionFailure("MALFORMED_AGENT_RESULT"))
    if rows:
        return Success(EvidenceStatus.EVIDENCE_FOUND)
    return Success(EvidenceStatus.NO_EVIDENCE)


def _project(
    raw: RawSqlResult, limits: SqlProjectionLimits
) -> Result[ProjectedToolResult, ProjectionFailure]:
    available = raw.rows[: raw.row_limit]
    truncated = len(raw.rows) > raw.row_limit
    redact_by_name = tuple(
        column.sensitive or sensitive_name(column.name) for column in raw.output_columns
    )
    scope: JsonObject = {
        "datasource": raw.datasource,
        "tables": list[JsonValue](raw.tables),
        "columns": list[JsonValue](raw.columns),
        "sql": raw.sql,
        "dialect": raw.dialect,
    }
    if raw.now is not None:
        scope["now"] = raw.now
    rows: list[JsonValue] = []
    agent_result: JsonObject = {
        "scope": scope,
        "columns": [column.name for column in raw.output_columns],
        "rows": rows,
        "truncated": False,
        "returned_count": len(available),
    }
    used = _size(agent_result)
    for index, row in enumerate(available):
        if index >= limits.max_rows:
            truncated = True
            break
        cells, cut = _cells(row, raw, redact_by_name, limits.max_cell_chars)
        cost = _size(cells) + (1 if rows else 0)
        if used + cost > limits.max_bytes and not rows:
            cells, cut, cost = _shrink_to_fit(row, raw, redact_by_name, limits, used)
        if used + cost > limits.max_bytes:
            if not rows:
                return Failure(ProjectionFailure("PROJECTION_BUDGET_TOO_SMALL"))
            truncated = True
            break
        rows.append(cells)
        used += cost
        truncated = truncated or cut
    agent_result["truncated"] = truncated
    return sql_evidence_status(agent_result).map(
        lambda status: ProjectedToolResult(agent_result, status, truncated)
    )


def _cells(
    row: tuple[JsonScalar, ...],
    raw: RawSqlResult,
    redact_by_name: tuple[bool, ...],
    max_chars: int,
) -> tuple[list[JsonValue], bool]:
    cells: list[JsonValue] = []
    cut = False
    for value, column, by_name in zip(row, raw.output_columns, redact_by_name, strict=True):
        if column.sensitive:
            cells.append(REDACTED)
        elif value is None:
            cells.append(None)
        elif isinstance(value, str):
            if by_name or looks_secret(value):
                cells.append(REDACTED)
            elif len(value) > max_chars:
                cells.append(value[: max(max_chars - 1, 0)] + _ELLIPSIS)
                cut = True
            else:
                cells.append(value)
        else:
            cells.append(value)
    return cells, cut


def _shrink_to_fit(
    row: tuple[JsonScalar, ...],
    raw: RawSqlResult,
    redact_by_name: tuple[bool, ...],
    limits: SqlProjectionLimits,
    used: int,
) -> tuple[list[JsonValue], bool, int]:
    """The first row with string cells cut shorter until it fits, so a result never shows
    no row at all while the database returned some."""
    max_chars = limits.max_cell_chars
    while True:
        max_chars //= 2
        cells, cut = _cells(row, raw, redact_by_name, max(max_chars, 1))
        cost = _size(cells)
        if used + cost <= limits.max_bytes or max_chars <= 1:
            return cells, cut, cost


def _size(value: JsonValue) -> int:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return len(text.encode("utf-8"))
