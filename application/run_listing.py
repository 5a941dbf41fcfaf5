"""The run listing: recorded runs, newest first, a page at a time, filtered by outcome or service.

Each row is metadata folded from the run's own log: the question as its digest and size (the
question's text is content and never recorded), the service and window under diagnosis, the
release outcome (what the user received: a FALLBACK run lists FALLBACK, not its run state
SUCCESS), the fallback type, the tool calls and the start. An unreleased run has no outcome.

Paging is by cursor: a page's ``next_cursor`` is the id of the last run it examined, and the
next page continues after that run in the store's newest-first index (runs started meanwhile
do not shift it). A page examines at most ``MAX_EXAMINED`` runs: a filter that matches
nothing in that stretch returns a short (even empty) page with a cursor to go on. A transport
passes its caller: the page then holds only the runs that caller may use (``run_access``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from attrs import frozen
from returns.result import Success

from factledger.application.run_access import Caller
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.domain.json_shape import JsonRecord
from factledger.domain.run_log import RunLog
from factledger.domain.status import FailureCode, FallbackType, ReleaseOutcome, RunState
from factledger.ports.event_store import RunIndexEntry

__all__ = ["MAX_EXAMINED", "MAX_PAGE", "RunListItem", "RunLister", "RunPage", "run_list_item"]

MAX_PAGE: Final = 200
"""The largest page."""
MAX_EXAMINED: Final = 1000
"""The most runs one page reads through while filtering."""
_INDEX_READ: Final = 1000


@frozen
class RunListItem(JsonRecord):
    """One run as the listing shows it (metadata only)."""

    run_id: str
    """The run."""
    question_digest: str | None
    """SHA-256 of the question (its text is never recorded); None when none was asked."""
    question_bytes: int
    """Size of the question in UTF-8 bytes."""
    service: str | None
    """The service under diagnosis."""
    start: datetime | None
    """Start of the window under diagnosis."""
    end: datetime | None
    """End of the window under diagnosis."""
    state: RunState
    """The run's lifecycle state."""
    outcome: ReleaseOutcome | None
    """What the user received (SUCCESS, FALLBACK, FAILED, CANCELLED); None until released."""
    fallback_type: FallbackType | None
    """Why the release was a fallback, for FALLBACK."""
    failure_code: FailureCode | None
    """Why the release failed or was cancelled."""
    tool_calls: int
    """Tool calls reserved."""
    started_at: datetime
    """When the run started."""
    events: int
    """Events in the run's log."""
    head_hash: str
    """The hash of its last event (with ``events``, the chain head)."""
    owner: str | None = None
    """The digest of the principal that started the run (never a token); None: no owner."""
    log_readable: bool = True
    """False when the run's stored events do not decode or fold (verify the run): the row then
    holds only what the store's index says."""


@frozen
class RunPage(JsonRecord):
    """One page of the run listing."""

    runs: tuple[RunListItem, ...]
    """The runs of this page, newest first."""
    next_cursor: str | None
    """Pass as ``cursor`` for the next page; None when there is none."""


def run_list_item(log: RunLog) -> RunListItem:
    """The listing row of a started run, from its log."""
    run = log.started_run()
    released = log.released
    return RunListItem(
        run_id=log.run_id,
        question_digest=run.context.question_digest,
        question_bytes=run.context.question_bytes,
        service=run.context.service,
        start=run.context.start,
        end=run.context.end,
        state=run.state,
        outcome=None if released is None else released.outcome,
        fallback_type=None if released is None else released.fallback_type,
        failure_code=None if released is None else released.failure_code,
        tool_calls=run.usage.tool_calls,
        started_at=run.started_at,
        events=log.sequence,
        head_hash=log.head_hash,
        owner=run.context.owner,
    )


def _unreadable(entry: RunIndexEntry) -> RunListItem:
    state = entry.state if entry.state in RunState.__members__ else RunState.RUNNING.value
    return RunListItem(
        run_id=entry.run_id,
        question_digest=None,
        question_bytes=0,
        service=None,
        start=None,
        end=None,
        state=RunState(state),
        outcome=None,
        fallback_type=None,
        failure_code=None,
        tool_calls=0,
        started_at=entry.started_at,
        events=entry.head.sequence,
        head_hash=entry.head.hash,
        log_readable=False,
    )


class RunLister:
    """Pages through the store's run index, folding each run's log into a row."""

    def __init__(self, runs: RunRepository) -> None:
        self._runs = runs

    def page(
        self,
        *,
        limit: int,
        cursor: str | None,
        outcome: ReleaseOutcome | None = None,
        service: str | None = None,
        caller: Caller | None = None,
    ) -> RunPage | StoreFailed:
        """Up to ``limit`` runs after ``cursor`` (None: from the newest) matching the filters
        (``limit`` 1..MAX_PAGE; the page size a caller gets by default is the facade's); with a
        ``caller``, only the runs it may use."""
        if not 1 <= limit <= MAX_PAGE:
            raise ValueError(f"limit must be between 1 and {MAX_PAGE}")
        entries = self._entries_after(cursor)
        if isinstance(entries, StoreFailed):
            return entries
        rows: list[RunListItem] = []
        examined = 0
        last: str | None = None
        for entry in entries[:MAX_EXAMINED]:
            if len(rows) == limit:
                break
            examined += 1
            last = entry.run_id
            log = self._runs.load(entry.run_id)
            if isinstance(log, StoreFailed) and log.reason == "UNAVAILABLE":
                return log
            if isinstance(log, RunLog) and log.run is None:
                continue
            row = run_list_item(log) if isinstance(log, RunLog) else _unreadable(entry)
            if (
                (outcome is None or row.outcome == outcome)
                and (service is None or row.service == service)
                and (caller is None or caller.may_use(row.owner))
            ):
                rows.append(row)
        more = examined < len(entries)
        return RunPage(tuple(rows), last if more else None)

    def _entries_after(self, cursor: str | None) -> Sequence[RunIndexEntry] | StoreFailed:
        """The index after the cursor's run (from the start without a cursor, or when the
        cursor's run has left the index)."""
        wanted = _INDEX_READ
        while True:
            listed = self._runs.store.list_runs(wanted + MAX_EXAMINED)
            if not isinstance(listed, Success):
                return StoreFailed("UNAVAILABLE")
            entries: tuple[RunIndexEntry, ...] = listed.unwrap()
            if cursor is None:
                return entries
            ids = [entry.run_id for entry in entries]
            if cursor in ids:
                return entries[ids.index(cursor) + 1 :]
            if len(entries) < wanted + MAX_EXAMINED:
                return ()
            wanted *= 4
