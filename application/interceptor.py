"""The interceptor: the path of one tool call from the model to its observation.

(1) An evidence tool? If not, the call passes through untouched to the host's own handler —
unless its name could pass for an evidence tool's, which is refused. (2) Strict parse.
(3) Protocol check and duplicate check (``admission.py``). (4) Invoke through the boundary.
(5) Dual-source check of the evidence status. (6) Progress bookkeeping. (7) Shape the
observation. When (2) or (3) fail the backend is not run. (5) and (6) are appended atomically
with the call's READY or ERROR event; the evaluations a call carries are appended with its
reservation.

Before (3), every call closes the run's abandoned calls (``abandoned_calls.py``). A call whose
tool_call_id is already taken in its run is a retry or a reuse and never runs: it is answered
from the record (``call_replay.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import assert_never

from attrs import frozen
from returns.result import Success

from factledger.application.abandoned_calls import close_abandoned_in
from factledger.application.admission import admit, refusal_observation
from factledger.application.call_outcome import finished_call, stop_caused_by
from factledger.application.call_replay import CallReplay
from factledger.application.contracts.parse import EnvelopeError
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.store_failures import store_error_reason
from factledger.application.tool_api.provider import BUILT_IN_TOOL_NAMES
from factledger.application.tool_api.spec import PreparedCall, RunWindow, ToolSpec
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    CallHooks,
    FinishedInBoundary,
    RunContext,
    ToolBoundaryResult,
)
from factledger.application.tools.confusables import is_confusable
from factledger.application.tools.registry import ToolRegistry
from factledger.application.views import (
    error_observation,
    ready_observation,
    refused_observation,
    with_stop,
)
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import Event
from factledger.domain.ids import is_valid_tool_call_id
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.decisions import (
    Admitted,
    AlreadyKnown,
    NotAdmitted,
    Proposal,
    decide_admission,
    decide_budget_stop,
    decide_outcome,
)
from factledger.domain.progress.policy import RejectionReason
from factledger.domain.run_log import RunLog
from factledger.ports.clock import Clock

__all__ = [
    "BUILT_IN_EVIDENCE_TOOLS",
    "Interceptor",
    "Observed",
    "PassThroughHandler",
    "PassedThrough",
]

BUILT_IN_EVIDENCE_TOOLS = BUILT_IN_TOOL_NAMES
"""Evidence tool names that are never passed through, registered or not."""

PassThroughHandler = Callable[[str, str], object]
"""The host's own handler for its non-evidence tools: ``(tool_name, arguments_json)``."""


@frozen
class Observed:
    """An evidence call's observation (what the model receives)."""

    observation: JsonObject
    """The observation: ``tool_call_id``, ``status`` and what that status carries."""


@frozen
class PassedThrough:
    """A non-evidence call handed to the host's handler untouched."""

    result: object
    """Whatever the host's handler returned."""


class Interceptor:
    """Gates, runs and shapes every tool call of a run."""

    def __init__(
        self,
        registry: ToolRegistry,
        runs: RunRepository,
        *,
        replay: CallReplay,
        clock: Clock,
        passthrough: PassThroughHandler | None = None,
        reserved_names: Iterable[str] = BUILT_IN_EVIDENCE_TOOLS,
    ) -> None:
        self._registry = registry
        self._runs = runs
        self._replay = replay
        self._clock = clock
        self._passthrough = passthrough
        self._reserved = tuple(dict.fromkeys((*reserved_names, *registry.names)))

    def handle(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: PassThroughHandler | None = None,
    ) -> Observed | PassedThrough:
        """One call, from the model's request to what the model gets back. ``step`` is the
        agent step (model turn) that made it: the calls of one step are admitted together;
        without one, the call is a step of its own."""
        spec = self._registry.spec(tool_name)
        if spec is None:
            return self._not_evidence(tool_call_id, tool_name, arguments_json, passthrough)
        prepared = spec.prepare(arguments_json)
        if isinstance(prepared, EnvelopeError):
            return Observed(refused_observation(tool_call_id, "INVALID_ENVELOPE", prepared.reason))
        if not is_valid_tool_call_id(tool_call_id):
            code = ToolBoundaryErrorCode.INVALID_TOOL_CALL_ID.value
            return Observed(refused_observation(tool_call_id, code))
        return Observed(self._evidence_call(spec, run_id, tool_call_id, prepared, step))

    def _not_evidence(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        passthrough: PassThroughHandler | None,
    ) -> Observed | PassedThrough:
        handler = passthrough or self._passthrough
        if tool_name in self._reserved or is_confusable(tool_name, self._reserved):
            return Observed(refused_observation(tool_call_id, "UNKNOWN_TOOL"))
        if handler is None:
            return Observed(refused_observation(tool_call_id, "UNKNOWN_TOOL"))
        return PassedThrough(handler(tool_name, arguments_json))

    def _evidence_call(
        self,
        spec: ToolSpec,
        run_id: str,
        tool_call_id: str,
        prepared: PreparedCall,
        step: int | None,
    ) -> JsonObject:
        loaded = self._runs.load(run_id, refresh=False)
        if isinstance(loaded, StoreFailed):
            return _store_error(tool_call_id, loaded)
        log = close_abandoned_in(self._runs, loaded, self._clock.now())
        if isinstance(log, StoreFailed):
            return _store_error(tool_call_id, log)
        refused = _outside_window(log, prepared)
        if refused is not None:
            return refused_observation(tool_call_id, "INVALID_ENVELOPE", refused)
        proposal = Proposal(
            tool_call_id,
            spec.name,
            prepared.scope_identity,
            prepared.evaluations,
            step,
            prepared.arguments_digest,
        )
        admission = admit(self._runs, log, proposal)
        match admission:
            case AlreadyKnown():
                return self._replay.answer(spec, run_id, tool_call_id, prepared)
            case NotAdmitted():
                return refusal_observation(tool_call_id, prepared, admission)
            case StoreFailed():
                return _store_error(tool_call_id, admission)
            case Admitted():
                pass
            case _:
                assert_never(admission)
        result, holds = self._invoke(spec, log, proposal, prepared, admission)
        return self._shaped(spec, run_id, proposal, prepared, result, holds)

    def _invoke(
        self,
        spec: ToolSpec,
        log: RunLog,
        proposal: Proposal,
        prepared: PreparedCall,
        admission: Admitted,
    ) -> tuple[ToolBoundaryResult, bool | None]:
        """Through the boundary, with the progress bookkeeping riding on its appends."""

        def with_begin(current: RunLog) -> tuple[Event, ...]:
            if current is log:
                return admission.events  # decided on this very log
            decided = decide_admission(current.progress, current.invocations, proposal)
            # Admitted on this very log or decided again on a fresher one; a call no longer
            # admitted begins without bookkeeping (the begin itself refuses a taken id).
            return decided.events if isinstance(decided, Admitted) else ()

        checked: dict[str, bool] = {}

        def with_finish(current: RunLog, finished: FinishedInBoundary) -> tuple[Event, ...]:
            call = finished_call(spec, proposal, finished)
            checked[finished.tool_call_id] = call.contract_holds
            return decide_outcome(current.progress, call)

        invoker = self._registry.invoker(spec.name)
        assert invoker is not None  # the registry keeps both tables in step
        context = RunContext(log.run_id, proposal.step)
        hooks = CallHooks(with_begin, with_finish)
        result = invoker.invoke(context, proposal.tool_call_id, prepared, hooks)
        return result, checked.get(proposal.tool_call_id)

    def _shaped(
        self,
        spec: ToolSpec,
        run_id: str,
        proposal: Proposal,
        prepared: PreparedCall,
        result: ToolBoundaryResult,
        holds: bool | None,
    ) -> JsonObject:
        tool_call_id = proposal.tool_call_id
        match result:
            case BoundaryReady():
                agent_result = result.result.agent_result
                if holds is None:  # the hook ran in another attempt: check again
                    holds = spec.evidence_status(agent_result) is result.result.evidence_status
                if not holds:
                    return refused_observation(
                        tool_call_id, RejectionReason.OBSERVATION_CONTRACT_MISMATCH.value
                    )
                observation = ready_observation(
                    tool_call_id, spec, agent_result, result.result.evidence_status
                )
            case BoundaryFailed():
                observation = error_observation(tool_call_id, result.code.value, result.reason)
            case BoundaryRefused():
                if result.code is ToolBoundaryErrorCode.DUPLICATE_TOOL_CALL_ID:
                    # The id was taken meanwhile (a retry racing its original, elsewhere).
                    return self._replay.answer(spec, run_id, tool_call_id, prepared)
                observation = refused_observation(tool_call_id, result.code.value)
                if result.code is ToolBoundaryErrorCode.BUDGET_EXHAUSTED:
                    self._stop_for_budget(run_id, tool_call_id, prepared.arguments_digest)
            case _:
                assert_never(result)
        return self._with_stop_if_caused(run_id, tool_call_id, observation)

    def _stop_for_budget(self, run_id: str, tool_call_id: str, digest: str) -> None:
        self._runs.execute(
            run_id, lambda log: Success(decide_budget_stop(log.progress, tool_call_id, digest))
        )

    def _with_stop_if_caused(
        self, run_id: str, tool_call_id: str, observation: JsonObject
    ) -> JsonObject:
        log = self._runs.load(run_id, refresh=False)
        if isinstance(log, StoreFailed):
            return observation
        reason = stop_caused_by(log, tool_call_id)
        return observation if reason is None else with_stop(observation, reason)


def _store_error(tool_call_id: str, failed: StoreFailed) -> JsonObject:
    code = ToolBoundaryErrorCode.STORE_ERROR.value
    return error_observation(tool_call_id, code, store_error_reason(failed).value)


def _outside_window(log: RunLog, prepared: PreparedCall) -> str | None:
    """The tool's reason to refuse the call in this run's window (None without a window)."""
    run = log.run
    if run is None or run.context.start is None or run.context.end is None:
        return None
    return prepared.window_check(RunWindow(run.context.start, run.context.end))
