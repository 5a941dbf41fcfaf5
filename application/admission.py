"""Gate 3 of the interceptor: the progress protocol and the duplicate check, on the log.

``admit`` decides on the log the caller holds and, when the call is refused with something to
record, appends the refusal decided again on the freshest log (a refusal records the call's
arguments digest, which takes its tool_call_id: a retry of it is answered from the record).
An admission records nothing here: its evaluations ride on the call's reservation.
"""

from __future__ import annotations

from typing import TypeAlias, assert_never

from returns.result import Success

from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.application.tool_api.spec import PreparedCall
from factledger.application.views import (
    refused_observation,
    with_checked_scope,
    with_repair,
    with_stop,
)
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.decisions import (
    Admitted,
    AlreadyKnown,
    NotAdmitted,
    Proposal,
    RefusalKind,
    decide_admission,
)
from factledger.domain.run_decisions import Decision
from factledger.domain.run_log import RunLog
from factledger.domain.status import RunState

__all__ = ["AdmissionOutcome", "admit", "refusal_observation"]

AdmissionOutcome: TypeAlias = Admitted | NotAdmitted | AlreadyKnown | StoreFailed
"""What gate 3 gives."""


def admit(runs: RunRepository, log: RunLog, proposal: Proposal) -> AdmissionOutcome:
    """Gate 3 on ``log``; a refusal with events is recorded on the freshest log."""
    run = log.run
    if run is None or run.state is not RunState.RUNNING:
        if log.invocation(proposal.tool_call_id) is not None:
            return AlreadyKnown(proposal.tool_call_id)
        if proposal.tool_call_id in log.progress.refusals:
            return AlreadyKnown(proposal.tool_call_id)
        # The boundary reports RUN_NOT_ACTIVE; nothing is recorded in a run that is not
        # running (or does not exist).
        return Admitted(())
    decided = decide_admission(log.progress, log.invocations, proposal)
    if not isinstance(decided, NotAdmitted) or not decided.events:
        return decided
    box: list[Admitted | NotAdmitted | AlreadyKnown] = []

    def decide(current: RunLog) -> Decision:
        again = decide_admission(current.progress, current.invocations, proposal)
        box.append(again)
        return Success(again.events)

    outcome = runs.execute(log.run_id, decide)
    if isinstance(outcome, StoreFailed):
        return outcome
    if not isinstance(outcome, Committed):
        return decided  # the run is no longer running: the boundary will say so
    return box[-1]


def refusal_observation(
    tool_call_id: str, prepared: PreparedCall, refusal: NotAdmitted
) -> JsonObject:
    """The observation of a call refused at gate 3."""
    observation = refused_observation(tool_call_id, refusal.kind.value)
    match refusal.kind:
        case RefusalKind.PROTOCOL_VIOLATION:
            assert refusal.violation is not None
            observation = with_repair(
                observation,
                refusal.violation,
                refusal.expected_tool_call_ids,
                listed=refusal.step is not None,
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
