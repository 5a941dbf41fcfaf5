"""The first step of a release and of a check: load the run and verify the log it rests on.

The run's log is loaded, then its stored chain is verified (every hash, every envelope's run,
sequence and previous hash, the head kept outside the stream) and the loaded log must be a
prefix of that verified chain: a chain that breaks is LOG_CORRUPTED, a store that no longer
holds the history this worker read is STORE_DIVERGED, and neither is ever published from.
Then calls abandoned in flight are closed (a seam, below), a deadline that has passed ends
the run, and every call's canonical record is read once (one vault read) for the first guard
check and, when the decision needs the run's facts, its progress snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TypeAlias, assert_never

from attrs import frozen

from factledger.application.abandoned_calls import close_abandoned_in
from factledger.application.canonical_view import CanonicalInvocation, CanonicalViewReader
from factledger.application.progress_snapshot import SnapshotBuilder
from factledger.application.release.outcomes import AlreadyReleased, StoreDown, UnknownRun
from factledger.application.run_limits import end_if_past_deadline
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.store_failures import failure_code_of
from factledger.application.verification.run_verifier import RunVerifier
from factledger.application.verification.verdicts import (
    LogAbsent,
    LogBroken,
    LogIntact,
    LogUnreadable,
)
from factledger.domain.invocation import Ready
from factledger.domain.release.findings import NOTHING_COLLECTED, Collected, ReleaseState
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode
from factledger.ports.clock import Clock

__all__ = [
    "CloseAbandoned",
    "Opened",
    "OpenOutcome",
    "RunOpener",
    "Unverified",
    "release_state",
]

CloseAbandoned: TypeAlias = Callable[[RunLog], RunLog | StoreFailed]
"""Closes the run's PROJECTING calls older than their timeout plus a grace period as ERROR
(ABANDONED) and returns the log after it; the release applies it before deciding."""


@frozen
class Opened:
    """A run whose log verified, ready to decide on."""

    log: RunLog
    """The verified log."""
    state: ReleaseState
    """The run as the decision sees it, its facts not collected yet (``RunOpener.collected``
    builds them from ``records`` when a decision needs them: a SUCCESS does not)."""
    records: Mapping[str, CanonicalInvocation | None]
    """The canonical record of every call of the log (read once: the snapshot and the first
    guard check both use them)."""


@frozen
class Unverified:
    """A run whose log does not verify: it is decided on nothing but its state."""

    state: ReleaseState
    """The run's state, with nothing collected."""
    code: FailureCode
    """LOG_CORRUPTED or STORE_DIVERGED."""


OpenOutcome: TypeAlias = Opened | Unverified | UnknownRun | AlreadyReleased | StoreDown
"""What opening a run for a release or a check gave."""


class RunOpener:
    """Opens runs for the release and the check (see the module doc)."""

    def __init__(
        self,
        runs: RunRepository,
        verifier: RunVerifier,
        canonical: CanonicalViewReader,
        snapshots: SnapshotBuilder,
        clock: Clock,
        *,
        close_abandoned: CloseAbandoned | None = None,
    ) -> None:
        self._runs = runs
        self._verifier = verifier
        self._canonical = canonical
        self._snapshots = snapshots
        self._clock = clock
        self._close_abandoned = close_abandoned or self._close_abandoned_now

    def _close_abandoned_now(self, log: RunLog) -> RunLog | StoreFailed:
        """Close the calls abandoned at this instant (``abandoned_calls``)."""
        return close_abandoned_in(self._runs, log, self._clock.now())

    def open(self, run_id: str) -> OpenOutcome:
        """Load, verify, close abandoned calls, apply the deadline, read the snapshot."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return StoreDown(failure_code_of(log))
        if log.run is None:
            return UnknownRun(run_id)
        if log.released is not None:
            return AlreadyReleased(run_id, log.released)
        unverified = self._verify(log)
        if unverified is not None:
            return unverified
        closed = self._close_abandoned(log)
        if isinstance(closed, StoreFailed):
            return StoreDown(failure_code_of(closed))
        log = closed
        now = self._clock.now()
        if end_if_past_deadline(self._runs, log, now):
            reloaded = self._runs.load(run_id)
            if isinstance(reloaded, StoreFailed):
                return StoreDown(failure_code_of(reloaded))
            log = reloaded
        records = self._canonical.read_from_log(log, list(log.invocations))
        if isinstance(records, StoreFailed):
            return StoreDown(failure_code_of(records))
        return Opened(log, release_state(log, now), records)

    def collected(self, opened: Opened) -> Collected:
        """What the opened run verifiably observed: its progress snapshot, from the records
        already read (no store is read again)."""
        snapshot = self._snapshots.build_from(opened.log, opened.records)
        if isinstance(snapshot, StoreFailed):  # pragma: no cover - every record was given
            return opened.state.collected
        return Collected(
            snapshot.verified_sources,
            snapshot.observed_facts,
            snapshot.limitations,
            snapshot.stop_reason,
        )

    def _verify(self, log: RunLog) -> Unverified | StoreDown | None:
        """None when the loaded log is a prefix of the store's verified chain."""
        verdict = self._verifier.verify_log(log.run_id)
        match verdict:
            case LogIntact():
                if _is_prefix(log, verdict):
                    return None
                code = FailureCode.STORE_DIVERGED
            case LogBroken():
                code = FailureCode.LOG_CORRUPTED
            case LogAbsent():
                code = FailureCode.STORE_DIVERGED
            case LogUnreadable():
                return StoreDown(FailureCode.STORE_UNAVAILABLE)
            case _:
                assert_never(verdict)
        if code is FailureCode.STORE_DIVERGED:
            self._runs.forget(log.run_id)  # the next command starts from the store's history
        return Unverified(_unverified_state(log), code)


def _is_prefix(log: RunLog, intact: LogIntact) -> bool:
    if log.sequence == 0:
        return True
    if log.sequence > len(intact.events):
        return False
    return intact.events[log.sequence - 1].hash == log.head_hash


def release_state(log: RunLog, now: datetime) -> ReleaseState:
    """The run as the decision sees it from its verified log, nothing collected yet."""
    run = log.run
    assert run is not None  # opened runs have started
    expired = sum(
        1
        for invocation in log.invocations.values()
        if isinstance(invocation, Ready) and now >= invocation.info.content_expires_at
    )
    failure = log.agent_model_failure
    return ReleaseState(
        run_id=log.run_id,
        run_state=run.state,
        run_failure_code=run.failure_code,
        context_complete=run.context.is_complete,
        collected=Collected((), (), (), log.progress.stop_reason),
        expired_calls=expired,
        agent_model_failure=None if failure is None else failure.reason,
    )


def _unverified_state(log: RunLog) -> ReleaseState:
    run = log.run
    assert run is not None
    return ReleaseState(
        log.run_id, run.state, run.failure_code, run.context.is_complete, NOTHING_COLLECTED
    )
