"""The ProgressTracker: random protocol traffic never breaks its invariants, and replaying its
events reproduces its state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factledger.domain.invocation import Invocation
from factledger.domain.progress.decisions import (
    Admitted,
    FinishedCall,
    NotAdmitted,
    PreviousObservation,
    Proposal,
    RefusalKind,
    decide_admission,
    decide_budget_stop,
    decide_outcome,
)
from factledger.domain.progress.events import ProgressEvent
from factledger.domain.progress.policy import Evaluation, ProgressPolicy
from factledger.domain.progress.state import ProgressState, evolve_progress
from factledger.domain.status import EvidenceStatus

SCOPES = st.sampled_from(["s1", "s2", "s3", "s4"])
STATUSES = st.sampled_from(list(EvidenceStatus))
STEP = st.tuples(
    SCOPES,
    STATUSES,
    st.booleans(),  # carries an evaluation
    st.sampled_from([0, -1, 1]),  # which id it evaluates: pending, an earlier one, a ghost
    st.sampled_from(list(Evaluation)),
    st.booleans(),  # the contract holds
    st.integers(0, 20),  # 0 means: the budget runs out
)


def _fold(events: list[ProgressEvent], policy: ProgressPolicy) -> ProgressState:
    state = ProgressState(policy=policy)
    for event in events:
        state = evolve_progress(state, event)
    return state


@settings(max_examples=300, deadline=None)
@given(
    st.lists(STEP, max_size=25),
    st.integers(1, 4),
    st.integers(1, 3),
)
def test_random_protocol_traffic_keeps_every_invariant(
    steps: list[tuple[str, EvidenceStatus, bool, int, Evaluation, bool, int]],
    threshold: int,
    limit: int,
) -> None:
    policy = ProgressPolicy(no_gain_threshold=threshold, protocol_violation_limit=limit)
    state = ProgressState(policy=policy)
    events: list[ProgressEvent] = []
    finished: dict[str, Invocation] = {}
    stopped_once = False
    for index, (scope, status, carries, which, evaluation, holds, budget) in enumerate(steps):
        call = f"c{index}"
        previous = None
        if carries:
            target = {0: state.pending or "none", -1: f"c{max(index - 1, 0)}", 1: "ghost"}[which]
            previous = PreviousObservation(target, evaluation)
        admission = decide_admission(state, finished, Proposal(call, "tool", scope, previous))
        new: list[ProgressEvent] = list(admission.events)
        if isinstance(admission, Admitted):
            assert state.stop_reason is None
            if budget == 0:
                new += decide_budget_stop(_fold(events + new, policy), call)
            else:
                outcome = FinishedCall(call, "tool", scope, status, contract_holds=holds)
                new += decide_outcome(_fold(events + new, policy), outcome)
                finished[call] = None  # type: ignore[assignment]  # only membership matters
        else:
            assert isinstance(admission, NotAdmitted)
            if stopped_once:
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
