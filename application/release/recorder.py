"""How the release and the check write to the run: step events, metered model calls, their
usage and their failures. Every method answers with a value; a store that fails is a
``StoreDown``, a run that stopped is a ``RunLeft``."""

from __future__ import annotations

from datetime import datetime

from returns.result import Success

from factledger.application.release.outcomes import Interruption, RunLeft, StoreDown
from factledger.application.run_limits import end_if_past_deadline
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.run_service import LimitReached, Metered, RunService
from factledger.application.store_failures import failure_code_of
from factledger.domain.events import Event
from factledger.domain.model_failure import ModelFailureReason
from factledger.domain.run_events import ModelCallPurpose
from factledger.domain.status import RunState

__all__ = ["ReleaseRecorder", "StepLog"]


class ReleaseRecorder:
    """Appends what a release step did."""

    def __init__(self, runs: RunRepository, run_service: RunService) -> None:
        self._runs = runs
        self._run_service = run_service

    def record(self, run_id: str, *events: Event) -> StoreDown | None:
        """Append ``events`` (a terminal run still takes release events)."""
        outcome = self._runs.execute(run_id, lambda _: Success(events))
        if isinstance(outcome, StoreFailed):
            return StoreDown(failure_code_of(outcome))
        return None

    def meter(
        self, run_id: str, purpose: ModelCallPurpose, uses_model: bool, step: int | None = None
    ) -> Interruption | None:
        """Reserve a model call when the step makes one; a spent budget or a passed deadline
        ends the run (``run_limits``) and interrupts the step."""
        if not uses_model:
            return None
        outcome = self._run_service.meter(run_id, purpose, step)
        match outcome:
            case Metered():
                return None
            case LimitReached():
                return RunLeft()
            case StoreFailed():
                return StoreDown(failure_code_of(outcome))

    def used(self, run_id: str, purpose: ModelCallPurpose, usage: tuple[int, int] | None) -> None:
        """Record the tokens a model call used (best effort: the reservation is recorded)."""
        if usage is not None:
            self._run_service.record_model_usage(run_id, purpose, *usage)

    def model_failed(
        self, run_id: str, purpose: ModelCallPurpose, code: str, step: int | None = None
    ) -> ModelFailureReason:
        """Record that a model call gave no usable answer (MODEL_CALL_FAILED), best effort;
        the reason it stands for."""
        return self._run_service.record_model_failure(run_id, purpose, code, step)

    def ensure_running(self, run_id: str, now: datetime) -> Interruption | None:
        """Between attempts: a cancel or a passed deadline stops the step."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return StoreDown(failure_code_of(log))
        if end_if_past_deadline(self._runs, log, now):
            return RunLeft()
        if log.run is None or log.run.state is not RunState.RUNNING:
            return RunLeft()
        return None


class StepLog:
    """The step events of one release (or none, for a check): kept until the next metered
    model call, which records them first, or until the decision, which records them with
    itself in one append. A release that cannot record its decision records no step either."""

    def __init__(self, recorder: ReleaseRecorder, run_id: str, *, keep: bool = True) -> None:
        self._recorder = recorder
        self._run_id = run_id
        self._keep = keep
        self._pending: list[Event] = []

    @property
    def run_id(self) -> str:
        """The run."""
        return self._run_id

    def add(self, *events: Event) -> None:
        """Keep step events (a check keeps none)."""
        if self._keep:
            self._pending.extend(events)

    def take(self) -> tuple[Event, ...]:
        """The kept events, for the decision's append; none are kept after."""
        taken = tuple(self._pending)
        self._pending.clear()
        return taken

    def meter(
        self, purpose: ModelCallPurpose, uses_model: bool, step: int | None = None
    ) -> Interruption | None:
        """Before a metered model call: record the steps so far, then reserve the call."""
        if not uses_model:
            return None
        if self._pending:
            down = self._recorder.record(self._run_id, *self.take())
            if down is not None:
                return down
        return self._recorder.meter(self._run_id, purpose, uses_model, step)

    def model_failed(self, purpose: ModelCallPurpose, code: str) -> ModelFailureReason:
        """Record a failed model call (after the steps that led to it)."""
        if self._pending:
            self._recorder.record(self._run_id, *self.take())
        return self._recorder.model_failed(self._run_id, purpose, code)
