"""Closing abandoned calls: the use case over the domain decision (``domain/abandoned.py``).

Every tool call on a run runs it first (the interceptor), and so can release: a call still
PROJECTING past its timeout plus the grace period is closed as ERROR ``ABANDONED`` with its
progress bookkeeping, in one append decided on the freshest log. Nothing is appended when no
call is abandoned, so the common case costs a scan of the run's calls and no round trip.
"""

from __future__ import annotations

from datetime import datetime

from attrs import frozen
from returns.result import Success

from factledger.application.run_repository import Committed, RunRepository, StoreFailed
from factledger.domain.abandoned import abandoned_calls, decide_close_abandoned
from factledger.domain.run_decisions import Decision
from factledger.domain.run_events import InvocationFailed
from factledger.domain.run_log import RunLog

__all__ = ["ClosedCalls", "close_abandoned", "close_abandoned_in"]


@frozen
class ClosedCalls:
    """The calls this command closed as ABANDONED (none when nothing was abandoned)."""

    tool_call_ids: tuple[str, ...]
    """Their ids, in the order they began."""


def close_abandoned(runs: RunRepository, run_id: str, now: datetime) -> ClosedCalls | StoreFailed:
    """Close every call of the run abandoned at ``now`` (reads the run fresh first)."""
    log = runs.load(run_id)
    if isinstance(log, StoreFailed):
        return log
    closed = _close(runs, log, now)
    return closed if isinstance(closed, StoreFailed) else closed[0]


def close_abandoned_in(runs: RunRepository, log: RunLog, now: datetime) -> RunLog | StoreFailed:
    """Like ``close_abandoned`` on a log the caller has loaded; the log after the closing
    (``log`` itself when nothing was abandoned)."""
    closed = _close(runs, log, now)
    return closed if isinstance(closed, StoreFailed) else closed[1]


def _close(
    runs: RunRepository, log: RunLog, now: datetime
) -> tuple[ClosedCalls, RunLog] | StoreFailed:
    if not abandoned_calls(log, now):
        return ClosedCalls(()), log

    def decide(current: RunLog) -> Decision:
        return Success(decide_close_abandoned(current, now))

    outcome = runs.execute(log.run_id, decide, now=now)
    if isinstance(outcome, StoreFailed):
        return outcome
    if not isinstance(outcome, Committed):  # pragma: no cover - the decision never refuses
        return ClosedCalls(()), log
    closed = tuple(
        item.event.tool_call_id
        for item in outcome.events
        if isinstance(item.event, InvocationFailed)
    )
    return ClosedCalls(closed), outcome.log
