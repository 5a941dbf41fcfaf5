"""``query_sql``: one read-only SELECT through the sandbox and the boundary."""

from __future__ import annotations

from pydantic import BaseModel
from returns.result import Result

from factledger.application.contracts.envelope import SqlEnvelope, SqlInput
from factledger.application.tool_api.tool import EvidenceTool, normalize_text
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, list_or_empty, object_or_empty
from factledger.domain.sql.projector import (
    SqlProjectionLimits,
    project_sql_result,
    sql_evidence_status,
)
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.sql import SqlBackend

__all__ = ["SqlToolSpec"]


class SqlToolSpec(EvidenceTool[SqlInput]):
    """Read-only SQL over the configured datasources."""

    name = "query_sql"
    input_model = SqlInput
    self_bounded = True
    content_keys = ("columns", "rows")

    def __init__(self, backend: SqlBackend, limits: SqlProjectionLimits | None = None) -> None:
        self._backend = backend
        self._limits = limits or SqlProjectionLimits()
        names = ", ".join(backend.datasource_names)
        self.description = (
            f"Run one read-only SELECT against a configured datasource ({names}), in MySQL "
            "syntax (PostgreSQL syntax for a PostgreSQL datasource). Only the allowed tables "
            "and columns may be named; no '*', locking reads or side-effect functions; every "
            "JOIN needs an ON equality between columns of its two sides; a LIMIT is applied. "
            "NOW() and the like are fixed to the call's start instant; comments are ignored. "
            "Sensitive columns come back redacted. The observation's scope shows the SQL that "
            "ran. A refused query (or one the database expects to be too costly: "
            "COST_TOO_HIGH) returns error_code INVALID_REQUEST with a reason code."
        )

    def envelope_model(self) -> type[BaseModel]:
        return SqlEnvelope

    def scope(self, request: SqlInput) -> JsonObject:
        return {"datasource": request.datasource, "sql": request.sql}

    def normalized_scope(self, request: SqlInput) -> JsonObject:
        return {
            "datasource": request.datasource,
            "sql": normalize_text(request.sql).rstrip(";"),
        }

    def run(self, request: SqlInput, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        return self._backend.run(request.datasource, request.sql, timeout_seconds)

    def project(
        self, request: SqlInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        return project_sql_result(raw_json, self._limits)

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        return sql_evidence_status(agent_result).value_or(None)

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        scope = object_or_empty(agent_result.get("scope"))
        tables = scope.get("tables")
        where = ", ".join(str(t) for t in tables) if isinstance(tables, list) else "?"
        datasource = scope.get("datasource")
        rows = list_or_empty(agent_result.get("rows"))
        if evidence_status is not EvidenceStatus.EVIDENCE_FOUND or not rows:
            return f"The query on {datasource}.{where} returned no rows."
        names = list_or_empty(agent_result.get("columns"))
        first = rows[0] if isinstance(rows[0], list) else []
        pairs = ", ".join(f"{n}={v}" for n, v in zip(names, first, strict=False))
        more = " (truncated)" if agent_result.get("truncated") else ""
        return f"{len(rows)} rows from {datasource}.{where}{more}; first: {pairs}"

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        scope = agent_result.get("scope")
        if not isinstance(scope, dict) or not isinstance(scope.get("datasource"), str):
            return ()
        tables = scope.get("tables")
        return (
            Source(
                "query_sql",
                str(scope["datasource"]),
                {"tables": list_or_empty(tables)},
            ),
        )
