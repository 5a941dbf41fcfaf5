"""The ``Harness``: one transport-agnostic facade over the application.

A transport (the CLI, the HTTP API, the MCP server, a framework integration, or a team's own
agent loop) embeds one ``Harness`` and calls it: start a run, list tool definitions, handle one
tool call (the model observation comes back), record the model's usage against the run's
budgets, release a draft (the release result comes back), cancel, read the views, follow the
application statuses. Every result is a typed value with ``to_json()``; a request that cannot be
served raises ``HarnessError`` with a stable code and never carries content. ``AsyncHarness``
is the same facade for event loops.

Build one with ``factledger.build_harness(settings)``, or ``Harness.embedded()`` for the
settings the lookup order finds (the composition root is found through the
``factledger.composition`` entry point, so this module imports no adapter).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from importlib.metadata import entry_points
from typing import TypeVar, overload

from factledger.application.check_result import CheckResult
from factledger.application.contracts.instant import representable_in_utc
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.harness_health import HealthOperations
from factledger.application.harness_parts import HarnessParts, store_unavailable
from factledger.application.harness_views import ViewOperations
from factledger.application.interceptor import Observed
from factledger.application.observation import Observation
from factledger.application.release.check_service import CheckRefused
from factledger.application.release.outcomes import AlreadyReleased, UnknownRun
from factledger.application.run_access import owner_digest
from factledger.application.run_limits import limit_end
from factledger.application.run_repository import Committed, StoreFailed
from factledger.application.run_service import LimitReached, StartedRun
from factledger.application.run_views import CancelResult, ModelUsage, RunSummary
from factledger.application.tools.registry import ToolFormat
from factledger.domain.budget import RunBudget
from factledger.domain.json_types import JsonObject
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose, ToolGrant
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode
from factledger.ports.draft_repair import DraftRepairer

__all__ = ["Harness", "HarnessError", "HarnessErrorCode", "HarnessParts"]

R = TypeVar("R")

_MAX_REPORTED_CALLS = 100_000

CHECK_REFUSALS: dict[HarnessErrorCode, str] = {
    HarnessErrorCode.UNKNOWN_RUN: "no run with this id",
    HarnessErrorCode.ALREADY_RELEASED: "the run was released; a check no longer applies",
    HarnessErrorCode.RUN_NOT_ACTIVE: "the run is no longer running",
    HarnessErrorCode.MISSING_REQUIRED_CONTEXT: "the run was started without a service and a "
    "time window",
    HarnessErrorCode.CHECK_LIMIT_REACHED: "the run has no draft check left "
    "([release] check_attempts)",
    HarnessErrorCode.STORE_UNAVAILABLE: "the store could not be used",
    HarnessErrorCode.LOG_CORRUPTED: "the run's log does not verify",
    HarnessErrorCode.STORE_DIVERGED: "the store no longer holds the history this worker read",
    HarnessErrorCode.INTERNAL_FAILURE: "the check could not be completed",
}
"""What each refused check says (the codes are the check service's refusals)."""


class Harness(ViewOperations, HealthOperations):
    """The facade; see the module docstring. The views are in ``ViewOperations``, the health
    probe in ``HealthOperations``."""

    @classmethod
    def embedded(cls) -> Harness:
        """A harness on the settings the lookup order finds (``--config``, then
        ``$FACTLEDGER_CONFIG``, then ``./factledger.toml``, else the embedded defaults), built
        by the installed composition root."""
        for entry in entry_points(group="factledger.composition", name="embedded"):
            harness = entry.load()()
            if not isinstance(harness, Harness):
                raise TypeError("the 'embedded' composition root did not build a Harness")
            return harness
        raise HarnessError(HarnessErrorCode.NOT_CONFIGURED, "no composition root is installed")

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
        principal: str | None = None,
    ) -> str:
        """Start a run with every registered tool granted; returns its id. ``principal``: who
        starts it through a transport (an opaque, non-secret id: ``token_principal`` of a
        bearer token, an MCP session's); the run records its digest as its owner, and only
        that principal may use the run through a transport (``require_access``)."""
        if (start is not None and start.tzinfo is None) or (end is not None and end.tzinfo is None):
            raise HarnessError(HarnessErrorCode.INVALID_INPUT, "start and end need a time zone")
        if not all(representable_in_utc(t) for t in (start, end) if t is not None):
            raise HarnessError(
                HarnessErrorCode.INVALID_INPUT, "start and end must lie in years 1-9999 UTC"
            )
        if start is not None and end is not None and end < start:
            raise HarnessError(HarnessErrorCode.INVALID_INPUT, "the window ends before it starts")
        started = self._parts.run_service.start(
            budget=budget or self._parts.budget,
            tools=self.grants,
            context=DiagnosisContext(service=service, start=start, end=end),
            question=question,
            run_id=run_id,
            progress=self._parts.progress,
            owner=None if principal is None else owner_digest(principal),
        )
        if isinstance(started, StartedRun):
            return started.run_id
        if isinstance(started, StoreFailed):
            raise store_unavailable("the event store did not accept the run")
        raise HarnessError(
            HarnessErrorCode.INVALID_INPUT, "a run with this id exists or the id is malformed"
        )

    def cancel(self, run_id: str) -> CancelResult:
        """Cancel a running run (every worker sees it through the log)."""
        self._log(run_id, refresh=False)
        outcome = self._parts.run_service.cancel(run_id)
        if isinstance(outcome, StoreFailed):
            raise store_unavailable("the event store did not record the cancel")
        run = self._log(run_id).run
        assert run is not None
        return CancelResult(run_id, run.state, isinstance(outcome, Committed))

    def enforce_deadline(self, run_id: str) -> RunSummary:
        """End a running run as TIMED_OUT once its deadline has passed; the run's summary."""
        self._log(run_id, refresh=False)
        if isinstance(self._parts.run_service.end_if_overdue(run_id), StoreFailed):
            raise store_unavailable()
        return self.run_summary(run_id)

    def record_model_usage(
        self,
        run_id: str,
        calls: int,
        input_tokens: int,
        output_tokens: int,
        *,
        step: int | None = None,
    ) -> ModelUsage:
        """Meter model calls a host made (a framework's agent turns) against the run's
        ``model_calls`` and ``model_tokens`` budgets, exactly as the built-in agent loop meters
        its own: each call is one reservation, and a reservation the budget or the deadline
        refuses ends the run as BUDGET_EXHAUSTED or TIMED_OUT (later tool calls are refused,
        the release says so). Tokens are recorded as billed, even past the budget: the next
        reservation is then refused. ``ModelUsage.stopped`` tells the host to stop."""
        for name, value in (("calls", calls), ("tokens", input_tokens), ("tokens", output_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise HarnessError(HarnessErrorCode.INVALID_INPUT, f"{name} must be ints ≥ 0")
        if calls > _MAX_REPORTED_CALLS:
            raise HarnessError(HarnessErrorCode.INVALID_INPUT, "too many calls in one report")
        self._log(run_id, refresh=False)
        service = self._parts.run_service
        accepted, refused_by = 0, None
        for _ in range(calls):
            outcome = service.meter(run_id, ModelCallPurpose.AGENT_TURN, step)
            if isinstance(outcome, StoreFailed):
                raise store_unavailable("the event store did not record the usage")
            if isinstance(outcome, LimitReached):
                ended = limit_end(outcome.error)
                refused_by = ended.failure_code if ended is not None else _ended(self._log(run_id))
                self._telemetry.model_refused()
                break
            accepted += 1
        if input_tokens or output_tokens:
            recorded = service.record_model_usage(
                run_id, ModelCallPurpose.AGENT_TURN, input_tokens, output_tokens
            )
            if isinstance(recorded, StoreFailed):
                raise store_unavailable("the event store did not record the usage")
        return ModelUsage.from_log(self._log(run_id), accepted, refused_by)

    def record_model_failure(self, run_id: str, code: str, *, step: int | None = None) -> str:
        """Record that a model call of the host's gave no usable answer (a timeout, a refused
        connection, an HTTP error, a malformed reply: ``code`` is the client's failure code);
        the MODEL_CALL_FAILED event names the reason, and a release with no usable draft says
        MODEL_UNAVAILABLE. Returns the recorded reason code."""
        self._log(run_id, refresh=False)
        reason = self._parts.run_service.record_model_failure(
            run_id, ModelCallPurpose.AGENT_TURN, code, step
        )
        return reason.value

    # -- tools ----------------------------------------------------------------------------

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The registered evidence tools' names, in registration order (may be empty)."""
        return self._parts.registry.names

    @property
    def grants(self) -> tuple[ToolGrant, ...]:
        """Every registered tool as granted to a new run."""
        return self._parts.registry.grants

    def call_blocks(self, tool_name: str) -> bool:
        """True when a call of ``tool_name`` may wait on I/O: the store or the vault is not
        this process's memory, the tool's backend may block (``EvidenceTool.blocking``), or
        the name is no evidence tool (a passthrough is the host's). ``AsyncHarness`` hands
        those calls to its threads and runs the others on its loop (ADR 0035)."""
        spec = self._parts.registry.spec(tool_name)
        return not self._parts.in_process or spec is None or spec.blocking

    def tool_definitions(
        self, run_id: str | None = None, fmt: ToolFormat = "openai"
    ) -> list[JsonObject]:
        """The evidence tools' definitions (OpenAI strict-mode tools, or MCP tools).

        A harness without any evidence tool raises ``NO_EVIDENCE_TOOLS`` instead of handing
        the model an empty list: configure ``[knowledge]``, ``[logs]`` or
        ``[[sql.datasources]]``, or register a tool of your own."""
        if run_id is not None:
            self._log(run_id, refresh=False)
        if not self.tool_names:
            raise HarnessError(
                HarnessErrorCode.NO_EVIDENCE_TOOLS,
                "no evidence tool is configured: set [knowledge] dir, [logs] dir or "
                "[[sql.datasources]] in factledger.toml, or register a tool of your own",
            )
        return self._parts.registry.definitions(fmt)

    @overload
    def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: None = None,
    ) -> Observation: ...

    @overload
    def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], R],
    ) -> Observation | R: ...

    def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], R] | None = None,
    ) -> Observation | R:
        """One tool call: the model observation, or what the host's own ``passthrough``
        handler returned for a tool that is not an evidence tool (a name that could pass for
        an evidence tool's is refused, never passed through)."""
        self._require_run(run_id)
        began = time.monotonic()
        handled = self._parts.interceptor.handle(
            run_id, tool_call_id, tool_name, arguments_json, step=step, passthrough=passthrough
        )
        if isinstance(handled, Observed):
            observation = Observation.from_json(handled.observation)
            tool = tool_name if tool_name in self.tool_names else "(unknown)"
            self._telemetry.tool_call(tool, observation, time.monotonic() - began)
            return observation
        result: R = handled.result  # type: ignore[assignment]  # what ``passthrough`` returned
        return result

    def observe(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
    ) -> Observation:
        """Like ``call_tool`` without a passthrough: always the observation (a name that is
        no evidence tool is REFUSED ``UNKNOWN_TOOL``)."""
        return self.call_tool(run_id, tool_call_id, tool_name, arguments_json, step=step)

    # -- release --------------------------------------------------------------------------

    def release(
        self, run_id: str, draft_json: str | None, *, repairer: DraftRepairer | None = None
    ) -> ReleaseResult:
        """Run the guards over the draft (``None``: the agent stopped without one) and publish;
        releasing again returns the recorded result."""
        self._log(run_id, refresh=False)
        began = time.monotonic()
        outcome = self._parts.releases.release(run_id, draft_json, repairer=repairer)
        if isinstance(outcome, UnknownRun):
            raise HarnessError(HarnessErrorCode.UNKNOWN_RUN, "no run with this id")
        if isinstance(outcome, AlreadyReleased):
            return self.released(run_id)
        self._telemetry.release(outcome, time.monotonic() - began)
        return outcome

    def check(self, run_id: str, draft_json: str) -> CheckResult:
        """Check a draft as the release would, without publishing it or ending the run (each
        run has ``[release] check_attempts`` checks). A check that cannot be made raises
        ``HarnessError``: ``CHECK_LIMIT_REACHED``, ``RUN_NOT_ACTIVE``, ``ALREADY_RELEASED``,
        ``MISSING_REQUIRED_CONTEXT``, ``UNKNOWN_RUN`` or a store code."""
        self._log(run_id, refresh=False)
        checked = self._parts.checks.check(run_id, draft_json)
        if isinstance(checked, CheckRefused):
            code = HarnessErrorCode(checked.code)
            raise HarnessError(code, CHECK_REFUSALS[code])
        self._telemetry.check(checked)
        return checked


def _ended(log: RunLog) -> FailureCode | None:
    """The code a run that no longer runs ended with (None while it runs)."""
    return None if log.run is None else log.run.failure_code
