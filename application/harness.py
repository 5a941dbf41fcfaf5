"""The ``Harness``: one transport-agnostic facade over the application (SPEC §10).

A transport (the CLI, the HTTP API, the MCP server, or a team's own agent loop) embeds one
``Harness`` and calls it: start a run, list tool definitions, handle one tool call (the model
observation comes back), release a draft (the release result comes back), cancel, read the
views, follow the application statuses. Every method returns JSON-ready values; a request that
cannot be served raises ``HarnessError`` with a stable code and never carries content.

Build one with ``factledger.adapters.bootstrap.build_harness(settings)``, or
``Harness.embedded()`` for the in-process defaults (the composition root is found through the
``factledger.composition`` entry point, so this module imports no adapter).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from importlib.metadata import entry_points
from typing import Literal

from attrs import define
from returns.result import Success

from factledger.application.audit_views import AuditViews
from factledger.application.canonical_view import CanonicalInvocation, CanonicalViewReader
from factledger.application.interceptor import Interceptor, Observed, PassThroughHandler
from factledger.application.progress_snapshot import ProgressSnapshot, SnapshotBuilder
from factledger.application.release.check_service import CheckRefusal, CheckRefused, CheckService
from factledger.application.release.outcomes import AlreadyReleased, UnknownRun
from factledger.application.release.release_service import ReleaseService
from factledger.application.release.result_body import release_body_key
from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.application.run_service import RunService, StartedRun
from factledger.application.statuses import status_timeline
from factledger.application.tools.registry import ToolRegistry
from factledger.application.verification.run_verifier import RunVerifier
from factledger.application.views import control_view
from factledger.domain.budget import RunBudget
from factledger.domain.codec import sha256_hex
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.domain.run_log import RunLog
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.payload_vault import PayloadVault

__all__ = ["Harness", "HarnessError", "HarnessParts"]

_CHECK_REFUSALS: dict[CheckRefusal, str] = {
    "UNKNOWN_RUN": "no run with this id",
    "ALREADY_RELEASED": "the run was released; a check no longer applies",
    "RUN_NOT_ACTIVE": "the run is no longer running",
    "MISSING_REQUIRED_CONTEXT": "the run was started without a service and a time window",
    "CHECK_LIMIT_REACHED": "the run has no draft check left ([release] check_attempts)",
    "STORE_UNAVAILABLE": "the store could not be used",
    "LOG_CORRUPTED": "the run's log does not verify",
    "STORE_DIVERGED": "the store no longer holds the history this worker read",
    "INTERNAL_FAILURE": "the check could not be completed",
}

ToolFormat = Literal["openai", "mcp"]


class HarnessError(Exception):
    """A request the harness cannot serve; ``code`` is stable, the message holds no content."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        """``UNKNOWN_RUN``, ``UNKNOWN_TOOL_CALL``, ``STORE_UNAVAILABLE``, ``INVALID_INPUT``,
        ``ALREADY_RELEASED``, ``RUN_NOT_ACTIVE``, or a check's refusal
        (``CHECK_LIMIT_REACHED``, ``MISSING_REQUIRED_CONTEXT``, ``LOG_CORRUPTED``,
        ``STORE_DIVERGED``, ``INTERNAL_FAILURE``)."""
        self.message = message
        """A sentence for people."""


@define
class HarnessParts:
    """The application services a composition root hands the facade."""

    runs: RunRepository
    run_service: RunService
    registry: ToolRegistry
    interceptor: Interceptor
    canonical: CanonicalViewReader
    snapshots: SnapshotBuilder
    releases: ReleaseService
    checks: CheckService
    verifier: RunVerifier
    vault: PayloadVault
    budget: RunBudget
    progress: ProgressPolicy
    close: Callable[[], None]
    audit: Callable[[], AuditViews] | None = None
    """Opens the audit views on first use (None when no audit is configured)."""


class Harness:
    """The facade; see the module docstring."""

    def __init__(self, parts: HarnessParts) -> None:
        self._parts = parts
        self._audit: AuditViews | None = None

    @classmethod
    def embedded(cls) -> Harness:
        """A harness on the embedded defaults, built by the installed composition root."""
        found = entry_points(group="factledger.composition", name="embedded")
        for entry in found:
            factory = entry.load()
            harness = factory()
            if not isinstance(harness, Harness):
                raise TypeError("the 'embedded' composition root did not build a Harness")
            return harness
        raise HarnessError("INVALID_INPUT", "no composition root is installed")

    @property
    def parts(self) -> HarnessParts:
        """The wired services (for tools that need more than the facade offers)."""
        return self._parts

    def close(self) -> None:
        """Release connections and threads."""
        self._parts.close()

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- runs -----------------------------------------------------------------------------

    def start_run(
        self,
        *,
        question: str | None = None,
        service: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        run_id: str | None = None,
        budget: RunBudget | None = None,
    ) -> str:
        """Start a run with every configured tool granted; returns its id."""
        if (start is not None and start.tzinfo is None) or (end is not None and end.tzinfo is None):
            raise HarnessError("INVALID_INPUT", "start and end need a time zone")
        if start is not None and end is not None and end < start:
            raise HarnessError("INVALID_INPUT", "the window ends before it starts")
        started = self._parts.run_service.start(
            budget=budget or self._parts.budget,
            tools=self.grants,
            context=DiagnosisContext(service=service, start=start, end=end),
            question=question,
            run_id=run_id,
            progress=self._parts.progress,
        )
        if isinstance(started, StartedRun):
            return started.run_id
        if isinstance(started, StoreFailed):
            raise HarnessError("STORE_UNAVAILABLE", "the event store did not accept the run")
        raise HarnessError("INVALID_INPUT", "a run with this id exists or the id is malformed")

    @property
    def grants(self) -> tuple[ToolGrant, ...]:
        """Every registered tool as granted to a new run."""
        registry = self._parts.registry
        return tuple(
            ToolGrant(name, spec.read_only)
            for name in registry.names
            if (spec := registry.spec(name)) is not None
        )

    def cancel(self, run_id: str) -> JsonObject:
        """Cancel a running run (every worker sees it through the log)."""
        outcome = self._parts.run_service.cancel(run_id)
        if isinstance(outcome, StoreFailed):
            raise HarnessError("STORE_UNAVAILABLE", "the event store did not record the cancel")
        log = self._log(run_id)
        assert log.run is not None
        return {
            "run_id": run_id,
            "state": log.run.state.value,
            "cancelled": isinstance(outcome, Committed),
        }

    def run_summary(self, run_id: str) -> JsonObject:
        """The run's state, context, budget use and release decision (metadata only)."""
        log = self._log(run_id)
        run = log.run
        assert run is not None
        context = run.context
        return {
            "run_id": run_id,
            "state": run.state.value,
            "started_at": run.started_at.isoformat(),
            "deadline": run.deadline.isoformat(),
            "service": context.service,
            "start": None if context.start is None else context.start.isoformat(),
            "end": None if context.end is None else context.end.isoformat(),
            "tool_calls": run.usage.tool_calls,
            "model_calls": run.usage.model_calls,
            "model_tokens": run.usage.model_tokens,
            "events": log.sequence,
            "stop_reason": None
            if log.progress.stop_reason is None
            else log.progress.stop_reason.value,
            "outcome": None if log.released is None else log.released.outcome.value,
        }

    # -- tools ----------------------------------------------------------------------------

    def tool_definitions(
        self, run_id: str | None = None, fmt: ToolFormat = "openai"
    ) -> list[JsonObject]:
        """The evidence tools' definitions (OpenAI strict-mode tools, or MCP tools)."""
        if run_id is not None:
            self._log(run_id)
        return self._parts.registry.definitions(fmt)

    def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: PassThroughHandler | None = None,
    ) -> JsonObject | object:
        """One tool call: the model observation (or the host's own result, passed through)."""
        handled = self._parts.interceptor.handle(
            run_id, tool_call_id, tool_name, arguments_json, step=step, passthrough=passthrough
        )
        if isinstance(handled, Observed):
            return handled.observation
        return handled.result

    def observe(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
    ) -> JsonObject:
        """Like ``call_tool`` for evidence tools only: always the observation."""
        handled = self._parts.interceptor.handle(
            run_id, tool_call_id, tool_name, arguments_json, step=step
        )
        assert isinstance(handled, Observed)
        return handled.observation

    # -- release --------------------------------------------------------------------------

    def release(
        self, run_id: str, draft_json: str | None, *, repairer: DraftRepairer | None = None
    ) -> JsonObject:
        """The release result (SPEC §8). Releasing again returns the recorded result."""
        outcome = self._parts.releases.release(run_id, draft_json, repairer=repairer)
        if isinstance(outcome, UnknownRun):
            raise HarnessError("UNKNOWN_RUN", "no run with this id")
        if isinstance(outcome, AlreadyReleased):
            return self.released(run_id)
        return outcome.to_json()

    def released(self, run_id: str) -> JsonObject:
        """The recorded release result of a released run (its body checked against the digest
        its decision recorded: a body that does not match is ``LOG_CORRUPTED``)."""
        log = self._log(run_id)
        if log.released is None:
            raise HarnessError("RUN_NOT_ACTIVE", "the run has not been released")
        bodies = self._parts.vault.get_many([release_body_key(run_id)])
        if not isinstance(bodies, Success):
            raise HarnessError("STORE_UNAVAILABLE", "the vault could not be read")
        body = bodies.unwrap()[0]
        if body is None:
            raise HarnessError("ALREADY_RELEASED", "released; the result's body has expired")
        if sha256_hex(body) != log.released.result_digest:
            raise HarnessError("LOG_CORRUPTED", "the stored result does not match its decision")
        result: JsonObject = json.loads(body)
        return result

    def check(self, run_id: str, draft_json: str) -> JsonObject:
        """Check a draft as the release would, without publishing it or ending the run: the
        check result, or ``HarnessError`` with the refusal's code (``CHECK_LIMIT_REACHED``,
        ``RUN_NOT_ACTIVE``, ``ALREADY_RELEASED``, ``UNKNOWN_RUN``, a store code...)."""
        checked = self._parts.checks.check(run_id, draft_json)
        if isinstance(checked, CheckRefused):
            raise HarnessError(checked.code, _CHECK_REFUSALS[checked.code])
        return checked.to_json()

    def verify(self, run_id: str) -> JsonObject:
        """Verify the run: its hash chain against the head kept outside the stream, then every
        vault body against its recorded digest (the ``runs verify`` verdict)."""
        verdict = self._parts.verifier.verify(run_id)
        if verdict.error == "NOT_FOUND":
            raise HarnessError("UNKNOWN_RUN", "no run with this id")
        if verdict.error == "STORE_UNAVAILABLE":
            raise HarnessError("STORE_UNAVAILABLE", "the store could not be read")
        return verdict.to_json()

    # -- views ----------------------------------------------------------------------------

    def canonical_view(self, run_id: str, tool_call_id: str) -> JsonObject:
        """A call's canonical record as metadata and digests (never a body)."""
        record = self._record(run_id, tool_call_id)
        return {
            "run_id": record.run_id,
            "tool_call_id": record.tool_call_id,
            "tool_name": record.tool_name,
            "step": record.step,
            "status": record.status.value,
            "evidence_status": None
            if record.evidence_status is None
            else record.evidence_status.value,
            "error_code": None if record.error_code is None else record.error_code.value,
            "reason": record.reason,
            "started_at": record.started_at.isoformat(),
            "completed_at": None
            if record.completed_at is None
            else record.completed_at.isoformat(),
            "content_expires_at": record.content_expires_at.isoformat(),
            "content": record.content.value,
            "request_bytes": record.request_bytes,
            "raw_bytes": record.raw_bytes,
            "projection_bytes": record.projection_bytes,
            "request_digest": record.request_digest,
            "raw_digest": record.raw_digest,
            "result_digest": record.result_digest,
            "truncated": record.truncated,
        }

    def control_view(self, run_id: str, tool_call_id: str) -> JsonObject:
        """The harness's control view of a call (never shown to a model)."""
        record = self._record(run_id, tool_call_id)
        return control_view(record, self._log(run_id)).to_json()

    def progress_snapshot(self, run_id: str) -> JsonObject:
        """What the run verifiably observed so far."""
        snapshot = self._parts.snapshots.build_from(self._log(run_id))
        if not isinstance(snapshot, ProgressSnapshot):
            raise HarnessError("STORE_UNAVAILABLE", "the store could not be read")
        return snapshot.to_json()

    def statuses(self, run_id: str) -> list[JsonObject]:
        """The ApplicationStatus changes so far, in order."""
        self._log(run_id)
        events = self._parts.runs.events(run_id)
        if isinstance(events, StoreFailed):
            raise HarnessError("STORE_UNAVAILABLE", "the store could not be read")
        return [change.to_json() for change in status_timeline(events)]

    def audit(self, run_id: str) -> JsonObject:
        """The run's durable audit rows (the audit is caught up from the log first)."""
        self._log(run_id)
        try:
            rows = self._audit_views().run(run_id)
        except ConnectionError as down:
            raise HarnessError("STORE_UNAVAILABLE", "the audit database is unavailable") from down
        if rows is None:
            raise HarnessError("UNKNOWN_RUN", "the audit has no rows for this run")
        return rows

    def rebuild(self) -> JsonObject:
        """Drop and rebuild the audit rows from the event log; a summary."""
        return self._audit_views().rebuild()

    def _audit_views(self) -> AuditViews:
        if self._audit is None:
            opener = self._parts.audit
            if opener is None:
                raise HarnessError("INVALID_INPUT", "no audit is configured")
            self._audit = opener()
        return self._audit

    # -- helpers --------------------------------------------------------------------------

    def _log(self, run_id: str) -> RunLog:
        log = self._parts.runs.load(run_id)
        if isinstance(log, StoreFailed):
            raise HarnessError("STORE_UNAVAILABLE", "the store could not be read")
        if log.run is None:
            raise HarnessError("UNKNOWN_RUN", "no run with this id")
        return log

    def _record(self, run_id: str, tool_call_id: str) -> CanonicalInvocation:
        log = self._log(run_id)
        records = self._parts.canonical.read_from_log(log, [tool_call_id])
        if isinstance(records, StoreFailed):
            raise HarnessError("STORE_UNAVAILABLE", "the store could not be read")
        record = records.get(tool_call_id)
        if record is None:
            raise HarnessError("UNKNOWN_TOOL_CALL", "no call with this id in this run")
        return record
