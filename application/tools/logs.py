"""``query_logs``: a bounded, redacted picture of a service's logs in a window.

The evidence status comes from the content alone (``recompute_evidence_status``), for the
projector and for the control view's recomputation alike: a result whose scope names parts
that were not read is marked incomplete there, and its summary says so before anything else.
"""

from __future__ import annotations

import time

from pydantic import BaseModel
from returns.result import Failure, Result

from factledger.application.contracts.envelope import LogsEnvelope, LogsInput
from factledger.application.contracts.parse import EnvelopeError
from factledger.application.tool_api.tool import EvidenceTool, normalize_text
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, first_object, object_or_empty
from factledger.domain.logs.agent_result import MODEL_VISIBLE_KEYS, recompute_evidence_status
from factledger.domain.logs.projector import DEFAULT_SETTINGS, LogProjectionSettings, project_logs
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.skipped import describe_skipped, read_skipped
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure
from factledger.ports.logs import LogBackend

__all__ = ["LogsToolSpec"]

DESCRIPTION = (
    "Search one service's logs in a time window. Returns the matched count, log templates "
    "(count, first/last seen, levels, redacted examples) and redacted events sampled across the "
    "window; secrets, hosts, IPs and identifiers are masked. Zero matches is a valid, scoped "
    "negative result, unless scope.skipped names files or records that were not read: then the "
    "result is incomplete (truncated, SCOPE_NOT_FULLY_READ)."
)
_ALWAYS = frozenset({"scope", "truncated"})


class LogsToolSpec(EvidenceTool[LogsInput]):
    """Log search over any ``LogBackend``."""

    name = "query_logs"
    input_model = LogsInput
    description = DESCRIPTION
    self_bounded = True
    content_keys = tuple(key for key in MODEL_VISIBLE_KEYS if key not in _ALWAYS)

    def __init__(
        self, backend: LogBackend, settings: LogProjectionSettings = DEFAULT_SETTINGS
    ) -> None:
        self._backend = backend
        self._settings = settings

    def envelope_model(self) -> type[BaseModel]:
        return LogsEnvelope

    def _query(self, request: LogsInput) -> LogQuery | EnvelopeError:
        built = LogQuery.from_request(
            request.service,
            request.query,
            request.start.isoformat(),
            request.end.isoformat(),
            request.limit,
        )
        if isinstance(built, Failure):
            return EnvelopeError(built.failure().reason)
        query: LogQuery = built.unwrap()
        return query

    def refuse(self, request: LogsInput) -> str | None:
        query = self._query(request)
        return query.reason if isinstance(query, EnvelopeError) else None

    def scope(self, request: LogsInput) -> JsonObject:
        return {
            "service": request.service,
            "query": request.query,
            "start": request.start.isoformat(),
            "end": request.end.isoformat(),
        }

    def normalized_scope(self, request: LogsInput) -> JsonObject:
        return {
            "service": request.service.casefold(),
            "query": normalize_text(request.query),
            "start": request.start.timestamp(),
            "end": request.end.timestamp(),
        }

    def _checked(self, request: LogsInput) -> LogQuery:
        query = self._query(request)
        if isinstance(query, EnvelopeError):  # pragma: no cover - refused in ``prepare``
            raise TypeError("a refused request was run")
        return query

    def run(self, request: LogsInput, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        deadline = time.monotonic() + timeout_seconds
        return self._backend.query(self._checked(request), deadline=deadline)

    def project(
        self, request: LogsInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        return project_logs(raw_json, self._checked(request), self._settings)

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        return recompute_evidence_status(agent_result).value_or(None)

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        scope = object_or_empty(agent_result.get("scope"))
        service, query = scope.get("service"), scope.get("query")
        window = f"between {scope.get('start')} and {scope.get('end')}"
        searched = f"{query!r} in {service}" if query else f"any line of {service}"
        skipped = read_skipped(scope.get("skipped", {})) or {}
        unread = f"Incomplete search (not read: {describe_skipped(skipped)}): " if skipped else ""
        if evidence_status is not EvidenceStatus.EVIDENCE_FOUND:
            if unread:
                return f"{unread}no log lines matched {searched} {window} in what was read."
            return f"No log lines matched {searched} {window}."
        top = first_object(agent_result.get("patterns"))
        return (
            f"{unread}{agent_result.get('matched_count')} log lines matched {searched} {window}; "
            f"top pattern ({top.get('count')}×, {top.get('first_seen')} to "
            f"{top.get('last_seen')}): {top.get('template')}"
        )

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        scope = agent_result.get("scope")
        if not isinstance(scope, dict) or not isinstance(scope.get("service"), str):
            return ()
        return (
            Source(
                "query_logs",
                str(scope["service"]),
                {"query": scope.get("query"), "start": scope.get("start"), "end": scope.get("end")},
            ),
        )
