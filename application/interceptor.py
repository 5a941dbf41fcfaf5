"""The interceptor: the path of one tool call from the model to its observation (SPEC §7).

(1) An evidence tool? If not, the call passes through untouched to the host's own handler —
unless its name could pass for an evidence tool's, which is refused. (2) Strict parse.
(3) Protocol check and duplicate check. (4) Invoke through the boundary. (5) Dual-source check
of the evidence status. (6) Progress bookkeeping. (7) Shape the observation. When (2) or (3)
fail the backend is not run. (5) and (6) are appended atomically with the call's READY or
ERROR event; the evaluation a call carries is appended with its reservation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import assert_never

from attrs import frozen
from returns.result import Success

from factledger.application.contracts.parse import EnvelopeError
from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.application.tool_api.provider import BUILT_IN_TOOL_NAMES
from factledger.application.tool_api.spec import PreparedCall, ToolSpec
from factledger.application.tool_call import (
    BoundaryFailed,
    BoundaryReady,
    BoundaryRefused,
    CallHooks,
    FinishedInBoundary,
    RunContext,
)
from factledger.application.tools.confusables import is_confusable
from factledger.application.tools.registry import ToolRegistry
from factledger.application.views import (
    error_observation,
    ready_observation,
    refused_observation,
    with_checked_scope,
    with_repair,
    with_stop,
)
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import Event
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.decisions import (
    Admitted,
    FinishedCall,
    NotAdmitted,
    Proposal,
    RefusalKind,
    decide_admission,
    decide_budget_stop,
    decide_outcome,
)
from factledger.domain.run_decisions import Decision
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, RunState, StopReason

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
    """The observation in the shape of SPEC §6."""


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
        passthrough: PassThroughHandler | None = None,
        reserved_names: Iterable[str] = BUILT_IN_EVIDENCE_TOOLS,
    ) -> None:
        self._registry = registry
        self._runs = runs
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
        """One call, from the model's request to what the model gets back."""
        spec = self._registry.spec(tool_name)
        if spec is None:
            return self._not_evidence(tool_call_id, tool_name, arguments_json, passthrough)
        prepared = spec.prepare(arguments_json)
        if isinstance(prepared, EnvelopeError):
            return Observed(refused_observation(tool_call_id, "INVALID_ENVELOPE", prepared.reason))
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
        log = self._runs.load(run_id, refresh=False)
        if isinstance(log, StoreFailed):
            return error_observation(tool_call_id, ToolBoundaryErrorCode.STORE_ERROR.value, None)
        proposal = Proposal(tool_call_id, spec.name, prepared.scope_identity, prepared.previous)
        admission = self._admission(log, proposal)
        if isinstance(admission, NotAdmitted):
            return self._not_admitted(tool_call_id, prepared, admission)
        if isinstance(admission, StoreFailed):
            return error_observation(tool_call_id, ToolBoundaryErrorCode.STORE_ERROR.value, None)

        def with_begin(current: RunLog) -> tuple[Event, ...]:
            if current is log and isinstance(admission, Admitted):
                return admission.events  # decided on this very log just above
            decided = decide_admission(current.progress, current.invocations, proposal)
            return decided.events if isinstance(decided, Admitted) else ()

        checked: dict[str, bool] = {}

        def with_finish(current: RunLog, finished: FinishedInBoundary) -> tuple[Event, ...]:
            call = _finished_call(spec, proposal, finished)
            checked[finished.tool_call_id] = call.contract_holds
            return decide_outcome(current.progress, call)

        invoker = self._registry.invoker(spec.name)
        assert invoker is not None  # the registry keeps both tables in step
        result = invoker.invoke(
            RunContext(run_id, step), tool_call_id, prepared, CallHooks(with_begin, with_finish)
        )
        match result:
            case BoundaryReady():
                agent_result = result.result.agent_result
                holds = checked.get(tool_call_id)
                if holds is None:  # the hook ran in another attempt: check again
                    holds = spec.evidence_status(agent_result) is result.result.evidence_status
                if not holds:
                    return refused_observation(tool_call_id, "OBSERVATION_CONTRACT_MISMATCH")
                observation = ready_observation(
                    tool_call_id, spec, agent_result, result.result.evidence_status
                )
            case BoundaryFailed():
                observation = error_observation(tool_call_id, result.code.value, result.reason)
            case BoundaryRefused():
                observation = refused_observation(tool_call_id, result.code.value)
                if result.code is ToolBoundaryErrorCode.BUDGET_EXHAUSTED:
                    self._stop_for_budget(run_id, tool_call_id)
            case _:
                assert_never(result)
        return self._with_stop_if_caused(run_id, tool_call_id, observation)

    def _admission(self, log: RunLog, proposal: Proposal) -> Admitted | NotAdmitted | StoreFailed:
        """Gate 3 on the freshest log (refusals are recorded; admissions ride on the begin)."""
        run = log.run
        if run is None or run.state is not RunState.RUNNING:
            # The boundary reports RUN_NOT_ACTIVE; nothing is recorded in a run that is not
            # running (or does not exist).
            return Admitted(())
        decided = decide_admission(log.progress, log.invocations, proposal)
        if isinstance(decided, Admitted) or not decided.events:
            return decided
        box: list[NotAdmitted | Admitted] = []

        def decide(current: RunLog) -> Decision:
            again = decide_admission(current.progress, current.invocations, proposal)
            box.append(again)
            return Success(again.events)

        outcome = self._runs.execute(log.run_id, decide)
        if isinstance(outcome, StoreFailed):
            return outcome
        if not isinstance(outcome, Committed):
            return decided  # the run is no longer running: the boundary will say so
        return box[-1]

    def _not_admitted(
        self, tool_call_id: str, prepared: PreparedCall, refusal: NotAdmitted | Admitted
    ) -> JsonObject:
        if isinstance(refusal, Admitted):  # pragma: no cover - admission flipped under a race
            return refused_observation(tool_call_id, RefusalKind.STOP_REQUIRED.value)
        observation = refused_observation(tool_call_id, refusal.kind.value)
        match refusal.kind:
            case RefusalKind.PROTOCOL_VIOLATION:
                assert refusal.violation is not None
                observation = with_repair(
                    observation, refusal.violation, refusal.expected_tool_call_id
                )
            case RefusalKind.DUPLICATE_SCOPE:
                observation = with_checked_scope(observation, prepared.scope)
            case RefusalKind.STOP_REQUIRED:
                pass
            case _:
                assert_never(refusal.kind)
        if refusal.stop_reason is not None:
            observation = with_stop(observation, refusal.stop_reason)
        return observation

    def _stop_for_budget(self, run_id: str, tool_call_id: str) -> None:
        self._runs.execute(
            run_id, lambda log: Success(decide_budget_stop(log.progress, tool_call_id))
        )

    def _with_stop_if_caused(
        self, run_id: str, tool_call_id: str, observation: JsonObject
    ) -> JsonObject:
        log = self._runs.load(run_id, refresh=False)
        if isinstance(log, StoreFailed):
            return observation
        reason = _stop_caused_by(log, tool_call_id)
        return observation if reason is None else with_stop(observation, reason)


def _stop_caused_by(log: RunLog, tool_call_id: str) -> StopReason | None:
    """The stop reason when this call's outcome stopped collection."""
    if log.progress.stop_reason is None:
        return None
    return log.progress.stop_reason if _stopped_by(log, tool_call_id) else None


def _stopped_by(log: RunLog, tool_call_id: str) -> bool:
    return log.progress.stopped_by == tool_call_id


def _finished_call(
    spec: ToolSpec, proposal: Proposal, finished: FinishedInBoundary
) -> FinishedCall:
    if finished.result is None:
        return FinishedCall(
            tool_call_id=finished.tool_call_id,
            tool_name=spec.name,
            scope_identity=proposal.scope_identity,
            evidence_status=EvidenceStatus.ERROR,
            budget_exhausted=finished.error_code is ToolBoundaryErrorCode.BUDGET_EXHAUSTED,
        )
    declared = finished.result.evidence_status
    recomputed = spec.evidence_status(finished.result.agent_result)
    return FinishedCall(
        tool_call_id=finished.tool_call_id,
        tool_name=spec.name,
        scope_identity=proposal.scope_identity,
        evidence_status=declared,
        contract_holds=recomputed is declared,
    )
