"""Random command sequences against the Run and Invocation aggregates.

Whatever the order, the state stays legal, replaying the recorded events reproduces the live
state, and the hash chain of the log verifies — while flipping any byte of it does not.
"""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from returns.result import Success

from factledger.domain.budget import BudgetName, RunBudget
from factledger.domain.chain import ChainBroken, ChainHead, ChainIntact, StoredEvent, verify_chain
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import RecordedEvent
from factledger.domain.invocation import Failed, Projecting, Ready
from factledger.domain.run_commands import (
    CompleteInvocation,
    EndRun,
    FailInvocation,
    ReserveModelCall,
    StartRun,
)
from factledger.domain.run_decisions import (
    Decision,
    decide_begin_tool_call,
    decide_complete_invocation,
    decide_end_run,
    decide_fail_invocation,
    decide_reserve_model_call,
    decide_start_run,
)
from factledger.domain.run_events import DiagnosisContext, ModelCallPurpose, ToolGrant
from factledger.domain.run_log import RunLog, fold
from factledger.domain.status import EvidenceStatus, FailureCode, InvocationStatus, RunState
from factledger.domain.tool_result import ProjectedEvidenceStatus
from tests.support.runs import RUN, T0, begin

CALL_IDS = st.sampled_from(["c1", "c2", "c3", "c4", "bad id", ""])
TOOLS = st.sampled_from(["lookup_knowledge", "writer", "unknown"])
LEGAL = {
    (InvocationStatus.PROJECTING, None),
    (InvocationStatus.READY, EvidenceStatus.EVIDENCE_FOUND),
    (InvocationStatus.READY, EvidenceStatus.NO_EVIDENCE),
    (InvocationStatus.ERROR, EvidenceStatus.ERROR),
}


class RunMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.log = RunLog(RUN)
        self.recorded: list[RecordedEvent] = []
        self.now = T0
        self.ever_ended = False

    def _apply(self, decision: Decision) -> None:
        if not isinstance(decision, Success):
            return
        events = decision.unwrap()
        sealed = default_codec().seal(
            RUN, self.log.sequence + 1, self.log.head_hash, self.now, events
        )
        folded = fold(sealed, self.log)
        assert isinstance(folded, Success)
        self.log = folded.unwrap()
        self.recorded += sealed

    @rule(
        tool_calls=st.integers(0, 4),
        raw=st.integers(0, 300),
        deadline=st.integers(1, 50),
        model_calls=st.integers(0, 3),
    )
    def start(self, tool_calls: int, raw: int, deadline: int, model_calls: int) -> None:
        budget = RunBudget(
            tool_calls=tool_calls,
            raw_bytes=raw,
            projection_bytes=raw,
            deadline_seconds=deadline,
            model_calls=model_calls,
        )
        tools = (ToolGrant("lookup_knowledge", True), ToolGrant("writer", False))
        command = StartRun(RUN, budget, tools, DiagnosisContext(), self.now)
        self._apply(decide_start_run(self.log, command))

    @rule(tool_call_id=CALL_IDS, tool=TOOLS, authorized=st.booleans(), read_only=st.booleans())
    def begin_call(self, tool_call_id: str, tool: str, authorized: bool, read_only: bool) -> None:
        command = begin(
            tool_call_id,
            tool_name=tool,
            authorized=authorized,
            read_only=read_only,
            at=self.now,
        )
        self._apply(decide_begin_tool_call(self.log, command))

    @rule(
        tool_call_id=CALL_IDS,
        found=st.booleans(),
        raw=st.integers(0, 200),
        projection=st.integers(0, 200),
    )
    def complete(self, tool_call_id: str, found: bool, raw: int, projection: int) -> None:
        status: ProjectedEvidenceStatus = (
            EvidenceStatus.EVIDENCE_FOUND if found else EvidenceStatus.NO_EVIDENCE
        )
        command = CompleteInvocation(
            tool_call_id, status, raw, "a" * 64, projection, "b" * 64, False, self.now
        )
        self._apply(decide_complete_invocation(self.log, command))

    @rule(tool_call_id=CALL_IDS, code=st.sampled_from(list(ToolBoundaryErrorCode)))
    def fail(self, tool_call_id: str, code: ToolBoundaryErrorCode) -> None:
        command = FailInvocation(tool_call_id, code, None, None)
        self._apply(decide_fail_invocation(self.log, command))

    @rule(state=st.sampled_from([s for s in RunState if s.is_terminal]))
    def end(self, state: RunState) -> None:
        code = None if state is RunState.SUCCESS else FailureCode.INTERNAL_FAILURE
        self._apply(decide_end_run(self.log, EndRun(state, code)))

    @rule()
    def reserve_model_call(self) -> None:
        command = ReserveModelCall(ModelCallPurpose.AGENT_TURN, 1, self.now)
        self._apply(decide_reserve_model_call(self.log, command))

    @rule(seconds=st.integers(0, 30))
    def time_passes(self, seconds: int) -> None:
        self.now += timedelta(seconds=seconds)

    @invariant()
    def every_invocation_is_a_legal_pair(self) -> None:
        for invocation in self.log.invocations.values():
            assert (invocation.status, invocation.evidence_status) in LEGAL
            assert isinstance(invocation, Projecting | Ready | Failed)

    @invariant()
    def a_run_never_returns_to_running(self) -> None:
        run = self.log.run
        if run is None:
            return
        if run.state.is_terminal:
            self.ever_ended = True
        assert not (self.ever_ended and run.state is RunState.RUNNING)

    @invariant()
    def no_budget_is_overspent(self) -> None:
        run = self.log.run
        if run is None:
            return
        for name in (
            BudgetName.TOOL_CALLS,
            BudgetName.REQUEST_BYTES,
            BudgetName.RAW_BYTES,
            BudgetName.PROJECTION_BYTES,
            BudgetName.MODEL_CALLS,
        ):
            assert run.usage.used(name) <= run.budget.limit_of(name)

    @invariant()
    def replaying_the_recorded_events_reproduces_the_live_state(self) -> None:
        decoded = []
        for item in self.recorded:
            result = default_codec().decode(item.data, item.hash)
            assert isinstance(result, Success)
            decoded.append(result.unwrap())
        replayed = fold(decoded, RunLog(RUN))
        assert isinstance(replayed, Success)
        assert replayed.unwrap() == self.log

    @invariant()
    def the_chain_verifies_and_any_flipped_byte_is_caught(self) -> None:
        stored = [StoredEvent(r.run_id, r.sequence, r.data, r.hash) for r in self.recorded]
        head = ChainHead(self.log.sequence, self.log.head_hash)
        assert isinstance(verify_chain(stored, head), ChainIntact)
        if not stored:
            return
        victim = len(stored) // 2
        data = bytearray(stored[victim].data)
        position = (len(self.recorded) * 7919) % len(data)
        data[position] ^= 0x01
        stored[victim] = StoredEvent(RUN, victim + 1, bytes(data), stored[victim].hash)
        verdict = verify_chain(stored, head)
        assert isinstance(verdict, ChainBroken)
        assert verdict.sequence == victim + 1

    @precondition(lambda self: self.log.run is not None)
    @rule()
    def a_started_log_has_a_run(self) -> None:
        assert self.log.run is not None
        assert self.log.run.run_id == RUN


TestRunMachine = RunMachine.TestCase
TestRunMachine.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
