"""Abandoned calls: a call still PROJECTING past its timeout plus a grace period.

Its worker died (or lost the store) between PROJECTING and READY: no one will finish it. The
next command on the run closes it as ERROR with the code ABANDONED, so that it stops holding
its scope and never becomes citable. A PROJECTING call holds its tool-call slot and request
bytes (it was made) but no raw or projection bytes: those are reserved only with READY, which
a closed call can never reach, so closing it leaves nothing reserved for it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import Event
from factledger.domain.invocation import InvocationInfo, Projecting
from factledger.domain.progress.decisions import FinishedCall, decide_outcome
from factledger.domain.progress.state import evolve_progress
from factledger.domain.run_events import InvocationFailed
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus

__all__ = ["LEGACY_ABANDON_AFTER", "abandon_at", "abandoned_calls", "decide_close_abandoned"]

LEGACY_ABANDON_AFTER = timedelta(seconds=60)
"""For a call recorded before calls carried their own moment: the default backend timeout
(30 s) plus the default grace period (30 s)."""


def abandon_at(info: InvocationInfo) -> datetime:
    """When a call still PROJECTING counts as abandoned."""
    return info.abandon_at or info.started_at + LEGACY_ABANDON_AFTER


def abandoned_calls(log: RunLog, now: datetime) -> tuple[str, ...]:
    """The run's calls still PROJECTING at ``now`` past their moment, in the order they began."""
    found: list[str] = []
    for invocation in log.invocations.values():
        if type(invocation) is Projecting and abandon_at(invocation.info) <= now:
            found.append(invocation.info.tool_call_id)
    return tuple(found)


def decide_close_abandoned(log: RunLog, now: datetime) -> tuple[Event, ...]:
    """ERROR ABANDONED for each abandoned call, with its progress bookkeeping (an ERROR is
    NO_GAIN) when it came through the interceptor; nothing when none is abandoned. Allowed in
    a terminal run too: a begun call may always end as ERROR."""
    events: list[Event] = []
    progress = log.progress
    for tool_call_id in abandoned_calls(log, now):
        invocation = log.invocations[tool_call_id]
        events.append(
            InvocationFailed(
                tool_call_id=tool_call_id,
                error_code=ToolBoundaryErrorCode.ABANDONED,
                reason=None,
                raw_bytes=None,
            )
        )
        scope_identity = invocation.info.scope_identity
        if scope_identity is None:
            continue  # not made through the interceptor: no progress bookkeeping
        finished = FinishedCall(
            tool_call_id, invocation.info.tool_name, scope_identity, EvidenceStatus.ERROR
        )
        for event in decide_outcome(progress, finished):
            progress = evolve_progress(progress, event)
            events.append(event)
    return tuple(events)
