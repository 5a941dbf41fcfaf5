"""The ProgressTracker: random protocol traffic (sequential and in steps, single and listed
evaluations, retries under taken ids) never breaks its invariants, and replaying its events
reproduces its state."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.invocation import Failed, Invocation, InvocationInfo, Ready
from factledger.domain.progress.decisions import (
    Admitted,
    AlreadyKnown,
    FinishedCall,
    NotAdmitted,
    PreviousObservation,
    Proposal,
    RefusalKind,
    decide_admission,
    decide_budget_stop,
    decide_outcome,
)
from factledger.domain.progress.events import ProgressEvent, ProtocolViolationRecorded
from factledger.domain.progress.policy import Evaluation, ProgressPolicy
from factledger.domain.progress.state import ProgressState, evolve_progress
from factledger.domain.status import EvidenceStatus

T0 = datetime(2026, 3, 1, tzinfo=UTC)
SCOPES = st.sampled_from(["s1", "s2", "s3", "s4"])
STATUSES = st.sampled_from(list(EvidenceStatus))
CALL = st.tuples(
    SCOPES,
    STATUSES,
    st.sampled_from(["none", "all", "first", "ghost", "earlier"]),  # what it evaluates
    st.sampled_from(list(Evaluation)),
    st.booleans(),  # the contract holds
    st.integers(0, 20),  # 0 means: the budget runs out
    st.sampled_from([None, 0, 1]),  # no step, the same step, the next step
    st.booleans(),  # a retry of an earlier id instead of a new call
)


def _fold(events: list[ProgressEvent], policy: ProgressPolicy) -> ProgressState:
    state = ProgressState(policy=policy)
    for event in events:
        state = evolve_progress(state, event)
    return state


def _finished(call: str, step: int | None, status: EvidenceStatus) -> Invocation:
    info = InvocationInfo(call, "tool", step, 1, "d", T0, T0, arguments_digest=call)
    if status is EvidenceStatus.ERROR:
        return Failed(info, ToolBoundaryErrorCode.BACKEND_ERROR, None, None, T0)
    return Ready(info, status, 1, "r", 1, "p", False, T0)


def _evaluations(
    state: ProgressState, which: str, evaluation: Evaluation, index: int
) -> tuple[PreviousObservation, ...]:
    targets = {
        "none": (),
        "all": state.pending,
        "first": state.pending[:1],
        "ghost": ("ghost",),
        "earlier": (f"c{max(index - 1, 0)}",),
    }[which]
    return tuple(PreviousObservation(target, evaluation) for target in targets)


@settings(max_examples=300, deadline=None)
@given(st.lists(CALL, max_size=25), st.integers(1, 4), st.integers(1, 3))
def test_random_protocol_traffic_keeps_every_invariant(
    calls: list[tuple[str, EvidenceStatus, str, Evaluation, bool, int, int | None, bool]],
    threshold: int,
    limit: int,
) -> None:
    policy = ProgressPolicy(no_gain_threshold=threshold, protocol_violation_limit=limit)
    state = ProgressState(policy=policy)
    events: list[ProgressEvent] = []
    invocations: dict[str, Invocation] = {}
    step = 1
    stopped_once = False
    for index, (scope, status, which, evaluation, holds, budget, move, retry) in enumerate(calls):
        call = f"c{max(index - 1, 0)}" if retry and index else f"c{index}"
        if move == 1:
            step += 1
        call_step = None if move is None else step
        proposal = Proposal(
            call,
            "tool",
            scope,
            _evaluations(state, which, evaluation, index),
            call_step,
            call,
        )
        admission = decide_admission(state, invocations, proposal)
        new: list[ProgressEvent] = list(admission.events)
        taken = call in invocations or call in state.refusals
        assert isinstance(admission, AlreadyKnown) == taken
        if isinstance(admission, Admitted):
            assert state.stop_reason is None
            if budget == 0:
                new += decide_budget_stop(_fold(events + new, policy), call, call)
            else:
                outcome = FinishedCall(call, "tool", scope, status, contract_holds=holds)
                new += decide_outcome(_fold(events + new, policy), outcome)
                invocations[call] = _finished(call, call_step, status)
        elif isinstance(admission, NotAdmitted) and stopped_once:
            assert admission.kind is RefusalKind.STOP_REQUIRED
            assert admission.events == ()
        for event in new:
            state = evolve_progress(state, event)
        events += new
        if state.stop_reason is not None:
            stopped_once = True
        if state.stop_reason is None:
            assert state.consecutive_no_gain < threshold
            assert state.violations < limit
        assert state == _fold(events, policy)
        assert set(state.pending) <= set(invocations)
        assert not set(state.refusals) & set(invocations), "an id is taken once"
        counted_steps = [
            e.step for e in events if isinstance(e, ProtocolViolationRecorded) and e.counted
        ]
        stepped = [s for s in counted_steps if s is not None]
        assert len(stepped) == len(set(stepped)), "a step counts at most one violation"
