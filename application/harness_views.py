"""The facade's read-only operations: the views of a run and of its calls, all typed.

Every view is metadata, digests and bounded projections; none serves a raw body. A run id no
run has raises ``UNKNOWN_RUN``; a store that cannot be read raises ``STORE_UNAVAILABLE``.
"""

from __future__ import annotations

import json

from returns.result import Success

from factledger.application.audit_views import AuditRows, RebuildReport
from factledger.application.canonical_view import CanonicalView
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.harness_parts import FacadeCore, store_unavailable, unknown_run
from factledger.application.progress_snapshot import ProgressSnapshot
from factledger.application.run_access import Caller
from factledger.application.run_inspection import RunInspection, call_summary, inspect_run
from factledger.application.run_listing import RunLister, RunPage
from factledger.application.run_repository import StoreFailed
from factledger.application.run_timeline import TimelineEntry, run_timeline
from factledger.application.run_views import ReleaseStep, RunSummary, release_steps
from factledger.application.statuses import StatusChange, status_timeline
from factledger.application.verification.verdicts import RunVerdict
from factledger.application.views import ControlView, control_view
from factledger.domain.codec import sha256_hex
from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import ShapeError
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.status import ReleaseOutcome
from factledger.ports.payload_vault import PayloadKey

__all__ = ["ViewOperations"]


class ViewOperations(FacadeCore):
    """Reads of a run and its calls."""

    def require_access(self, run_id: str, caller: Caller) -> None:
        """Raise ``UNKNOWN_RUN`` unless ``caller`` may use the run (``run_access``): a run
        another principal started is answered exactly as a run that does not exist."""
        run = self._log(run_id).run
        assert run is not None  # _log answers started runs only
        if not caller.may_use(run.context.owner):
            raise unknown_run()

    def run_summary(self, run_id: str) -> RunSummary:
        """The run's state, context, budget use and release decision (metadata only)."""
        return RunSummary.from_log(self._log(run_id))

    def list_runs(
        self,
        *,
        limit: int = 20,
        cursor: str | None = None,
        outcome: ReleaseOutcome | None = None,
        service: str | None = None,
        caller: Caller | None = None,
    ) -> RunPage:
        """Recorded runs, newest first, a page at a time: question digest, service, window,
        release outcome, fallback type, calls and start (``limit`` 1..200; pass a page's
        ``next_cursor`` as ``cursor`` for the next one). A transport passes its ``caller``:
        only the runs it may use are listed."""
        try:
            page = RunLister(self._parts.runs).page(
                limit=limit, cursor=cursor, outcome=outcome, service=service, caller=caller
            )
        except ValueError as bad:
            raise HarnessError(HarnessErrorCode.INVALID_INPUT, str(bad)) from None
        if isinstance(page, StoreFailed):
            raise store_unavailable()
        return page

    def inspect_run(self, run_id: str) -> RunInspection:
        """Everything an operator reviews about a run: its timeline of safe metadata, each
        call with its checked scope, the citations with each guard's verdict, the release
        decision and whether the run verifies (never a body)."""
        log = self._log(run_id)
        events = self._events(run_id)
        ids = list(log.invocations)
        records = self._parts.canonical.read_from_log(log, ids)
        if isinstance(records, StoreFailed):
            raise store_unavailable()
        calls = [
            call_summary(control_view(record, log))
            for record in records.values()
            if record is not None
        ]
        released = None
        if log.released is not None:
            try:
                released = self.released(run_id)
            except HarnessError as gone:
                if gone.code is HarnessErrorCode.STORE_UNAVAILABLE:
                    raise
        verdict = self._parts.verifier.verify(run_id)
        return inspect_run(log, events, calls, released, verdict)

    def canonical_view(self, run_id: str, tool_call_id: str) -> CanonicalView:
        """A call's canonical record as metadata and digests (never a body)."""
        return self._record(run_id, tool_call_id).view()

    def control_view(self, run_id: str, tool_call_id: str) -> ControlView:
        """The harness's control view of a call (never shown to a model)."""
        record = self._record(run_id, tool_call_id)
        return control_view(record, self._log(run_id, refresh=False))

    def progress_snapshot(self, run_id: str) -> ProgressSnapshot:
        """What the run verifiably observed so far."""
        snapshot = self._parts.snapshots.build_from(self._log(run_id))
        if not isinstance(snapshot, ProgressSnapshot):
            raise store_unavailable()
        return snapshot

    def statuses(self, run_id: str) -> tuple[StatusChange, ...]:
        """The ApplicationStatus changes so far, in order (each status at most once)."""
        return status_timeline(self._events(run_id))

    def timeline(self, run_id: str) -> tuple[TimelineEntry, ...]:
        """The status changes and every call's transitions so far, in event order (metadata
        only; positions are stable as the run goes on)."""
        return run_timeline(self._events(run_id))

    def release_steps(self, run_id: str) -> tuple[ReleaseStep, ...]:
        """The steps the release recorded (guards, repair, judge, decision), in order."""
        return release_steps(self._events(run_id))

    def released(self, run_id: str) -> ReleaseResult:
        """The recorded release result of a released run."""
        log = self._log(run_id)
        if log.released is None:
            raise HarnessError(HarnessErrorCode.RUN_NOT_ACTIVE, "the run has not been released")
        bodies = self._parts.vault.get_many([PayloadKey.of_release(run_id)])
        if not isinstance(bodies, Success):
            raise store_unavailable("the vault could not be read")
        body = bodies.unwrap()[0]
        if body is None:
            raise HarnessError(
                HarnessErrorCode.ALREADY_RELEASED, "released; the result's body has expired"
            )
        if sha256_hex(body) != log.released.result_digest:
            raise HarnessError(
                HarnessErrorCode.LOG_CORRUPTED, "the stored result does not match its decision"
            )
        try:
            return ReleaseResult.from_json(json.loads(body))
        except (ShapeError, ValueError):
            raise store_unavailable("the recorded result could not be read") from None

    def verify(self, run_id: str) -> RunVerdict:
        """Verify the run: its hash chain against the head kept outside the stream, then every
        vault body against its recorded digest (what ``factledger runs verify`` prints)."""
        verdict = self._parts.verifier.verify(run_id)
        if verdict.error == "NOT_FOUND":
            raise unknown_run()
        if verdict.error == "STORE_UNAVAILABLE":
            raise store_unavailable()
        return verdict

    def audit(self, run_id: str) -> AuditRows:
        """The run's durable audit rows (the audit is caught up from the log first)."""
        self._log(run_id)
        try:
            rows = self._audit_views().run(run_id)
        except ConnectionError as down:
            raise store_unavailable("the audit database is unavailable") from down
        if rows is None:
            raise HarnessError(HarnessErrorCode.UNKNOWN_RUN, "the audit has no rows for this run")
        return rows

    def rebuild(self) -> RebuildReport:
        """Drop and rebuild the audit rows from the event log."""
        return self._audit_views().rebuild()

    def _events(self, run_id: str) -> tuple[RecordedEvent, ...]:
        self._log(run_id, refresh=False)
        events = self._parts.runs.events(run_id)
        if isinstance(events, StoreFailed):
            raise store_unavailable()
        return events
