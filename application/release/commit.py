"""Recording a release decision: the step events not recorded yet, the decision's events and
the result's body, atomically and once; only then is the result returned (a release the store
cannot record is never a SUCCESS).

The decision is made again on the log the append meets: a run that left RUNNING meanwhile (a
cancel, a deadline) is decided as the terminal run it now is; a run released meanwhile by
another worker keeps that release.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from attrs import evolve
from returns.result import Success

from factledger.application.release.outcomes import AlreadyReleased
from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.application.store_failures import failure_code_of
from factledger.domain.events import Event
from factledger.domain.release.decision import ReleaseDecision, decide_release, unrecorded
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.release.findings import (
    Collected,
    InternalFailure,
    LogUnverified,
    ReleaseFinding,
    ReleaseState,
    SemanticSupported,
    Terminated,
)
from factledger.domain.run_decisions import Decision
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode, RunState
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadWrite

__all__ = ["DecisionCommitter"]


class DecisionCommitter:
    """Decides and records, in one append."""

    def __init__(self, runs: RunRepository, clock: Clock, result_ttl: timedelta) -> None:
        self._runs = runs
        self._clock = clock
        self._ttl = result_ttl

    def commit(
        self,
        state: ReleaseState,
        finding: ReleaseFinding,
        steps: tuple[Event, ...] = (),
        collect: Callable[[], Collected] | None = None,
    ) -> ReleaseResult | AlreadyReleased:
        """Decide on the log the append meets, record it after the release's ``steps`` (the
        step events not recorded yet), return. ``collect`` gives the run's facts when the
        decision needs them (any but a SUCCESS); without it ``state`` has them."""
        decided: list[ReleaseDecision | AlreadyReleased] = []
        facts: list[Collected] = []

        def decide(current: RunLog) -> Decision:
            if current.released is not None:
                decided.append(AlreadyReleased(current.run_id, current.released))
                return Success(())
            now_state, now_finding = _now(state, finding, current)
            if collect is not None and not isinstance(now_finding, SemanticSupported):
                facts[:] = facts or [collect()]
                now_state = evolve(now_state, collected=facts[0])
            decision = decide_release(now_state, now_finding)
            decided.append(decision)
            return Success(steps + decision.events)

        expires_at = self._clock.now() + self._ttl

        def body(_: tuple[Event, ...]) -> tuple[PayloadWrite, ...]:
            last = decided[-1]
            if isinstance(last, AlreadyReleased):
                return ()
            return (PayloadWrite(PayloadKey.of_release(state.run_id), last.body, expires_at),)

        outcome = self._runs.execute(state.run_id, decide, payloads=body)
        if isinstance(outcome, StoreFailed):
            return unrecorded(state.run_id, failure_code_of(outcome))
        if not isinstance(outcome, Committed):  # pragma: no cover - decide never refuses
            return unrecorded(state.run_id, FailureCode.INTERNAL_FAILURE)
        last = decided[-1]
        return last if isinstance(last, AlreadyReleased) else last.result


def _now(
    state: ReleaseState, finding: ReleaseFinding, current: RunLog
) -> tuple[ReleaseState, ReleaseFinding]:
    """The state and finding as of ``current``: a run that left RUNNING since is terminated."""
    run = current.run
    if run is None or run.state is state.run_state:
        return state, finding
    moved = evolve(state, run_state=run.state, run_failure_code=run.failure_code)
    if state.run_state is RunState.RUNNING and not isinstance(
        finding, LogUnverified | InternalFailure
    ):
        return moved, Terminated()
    return moved, finding
