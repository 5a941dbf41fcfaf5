"""Everything an operator reviews about one run, in one typed record (metadata only).

The run's row as the listing shows it; its timeline (each event's sequence, time, type and the
metadata its payload holds: ids, codes, counts, sizes and digests); each call's status,
evidence status, truncation and checked scope (the scope is what the backend actually ran: the
executed SQL, the log query and window, the knowledge query); the draft's citations mapped to
calls with each guard's verdict and reason code; the release decision; and the verdict of the
run's verification. No raw body, request body or agent-result content is part of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime

from attrs import frozen

from factledger.application.canonical_view import ContentState
from factledger.application.run_listing import RunListItem, run_list_item
from factledger.application.run_views import ReleaseStep, StepVerdict, release_steps
from factledger.application.verification.verdicts import RunVerdict
from factledger.application.views import ControlView
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.events import RecordedEvent
from factledger.domain.json_shape import JsonRecord, record_json
from factledger.domain.json_types import JsonObject, JsonValue, object_or_empty
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    ReleaseDecided,
    ReleaseStepType,
    SemanticAttempted,
    SemanticDecided,
)
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, InvocationStatus

__all__ = [
    "CallSummary",
    "CitationCheck",
    "RunInspection",
    "TimelineEvent",
    "call_summary",
    "inspect_run",
]


@frozen
class TimelineEvent(JsonRecord):
    """One recorded event with its safe metadata."""

    sequence: int
    """Its place in the run's chain."""
    occurred_at: datetime
    """When it was decided."""
    type: str
    """The event type."""
    metadata: JsonObject
    """The event's payload: ids, codes, counts, sizes and digests only."""


@frozen
class CallSummary(JsonRecord):
    """One tool call as the console shows it."""

    tool_call_id: str
    """The call."""
    tool_name: str
    """Its tool."""
    status: InvocationStatus
    """PROJECTING, READY or ERROR."""
    evidence_status: EvidenceStatus | None
    """What it found."""
    error_code: ToolBoundaryErrorCode | None
    """Why it failed, for ERROR."""
    reason: str | None
    """The tool's safe reason code."""
    truncated: bool
    """Whether the projection cut anything."""
    content_state: ContentState
    """Whether its bodies can still be used."""
    scope: JsonValue
    """The checked scope: what the backend ran (SQL, log query and window, knowledge query)."""
    duplicate_of: str | None
    """The earlier call that checked the same scope."""


@frozen
class CitationCheck(JsonRecord):
    """One guard's verdict on a citation or an analysis of the draft."""

    step: ReleaseStepType
    """The release step that judged it (``EVIDENCE_GUARD_INITIAL``, ``EVIDENCE_GUARD_RECHECK``,
    ``SEMANTIC_DECISION`` or ``RELEASE_DECISION`` for what was published)."""
    analysis_index: int | None
    """The analysis (0-based; None for the draft as a whole)."""
    tool_call_id: str | None
    """The cited call, when the verdict is about a citation."""
    verdict: StepVerdict
    """``pass``, ``fail``, or the judge's verdict."""
    reason: str | None
    """The issue or reason code."""


@frozen
class RunInspection(JsonRecord):
    """One run, as an operator reviews it."""

    run: RunListItem
    """The run's listing row."""
    timeline: tuple[TimelineEvent, ...]
    """Every recorded event, in order."""
    calls: tuple[CallSummary, ...]
    """Every tool call, in call order."""
    citations: tuple[CitationCheck, ...]
    """The draft's citations and analyses with each guard's verdict."""
    release_steps: tuple[ReleaseStep, ...]
    """The release's recorded steps."""
    decision: JsonObject | None
    """The release decision's metadata (outcome, run state, codes, counts, digest)."""
    verification: RunVerdict
    """Whether the chain and the bodies verify."""


def call_summary(view: ControlView) -> CallSummary:
    """A call's console row, from its control view (the content is left out)."""
    return CallSummary(
        tool_call_id=view.tool_call_id,
        tool_name=view.tool_name,
        status=view.status,
        evidence_status=view.evidence_status,
        error_code=view.error_code,
        reason=view.reason,
        truncated=view.truncated,
        content_state=view.content_state,
        scope=view.scope,
        duplicate_of=view.duplicate_of,
    )


def inspect_run(
    log: RunLog,
    events: Iterable[RecordedEvent],
    calls: Iterable[CallSummary],
    released: ReleaseResult | None,
    verification: RunVerdict,
) -> RunInspection:
    """The inspection of a started run from its log, events, calls and released result."""
    recorded = tuple(events)
    decision = next((r.event for r in recorded if isinstance(r.event, ReleaseDecided)), None)
    return RunInspection(
        run=run_list_item(log),
        timeline=tuple(_timeline_event(item) for item in recorded),
        calls=tuple(calls),
        citations=_citations(recorded, released),
        release_steps=release_steps(recorded),
        decision=None if decision is None else object_or_empty(decision_json(decision)),
        verification=verification,
    )


def decision_json(decision: ReleaseDecided) -> JsonValue:
    """The decision's recorded fields as JSON."""
    return record_json(decision)


def _timeline_event(recorded: RecordedEvent) -> TimelineEvent:
    try:
        envelope = json.loads(recorded.data)
    except (ValueError, RecursionError):
        envelope = None
    payload = envelope.get("payload") if isinstance(envelope, dict) else None
    return TimelineEvent(
        recorded.sequence, recorded.occurred_at, recorded.event.TYPE, object_or_empty(payload)
    )


def _citations(
    recorded: tuple[RecordedEvent, ...], released: ReleaseResult | None
) -> tuple[CitationCheck, ...]:
    reasons = _issue_reasons(released)
    checks: list[CitationCheck] = []
    last_reason: str | None = None
    for item in recorded:
        event = item.event
        if isinstance(event, EvidenceGuardInitialChecked | EvidenceGuardRechecked):
            for issue in event.issues:
                key = (issue.code.value, issue.tool_call_id, issue.analysis_index)
                reason = reasons.get(key)
                checks.append(
                    CitationCheck(
                        event.TYPE,
                        issue.analysis_index,
                        issue.tool_call_id,
                        "fail",
                        issue.code.value if reason is None else f"{issue.code.value}: {reason}",
                    )
                )
        elif isinstance(event, SemanticAttempted):
            last_reason = event.reason
        elif isinstance(event, SemanticDecided):
            checks.extend(
                CitationCheck(event.TYPE, index, None, event.verdict, last_reason)
                for index in event.unsupported
            )
    published = None if released is None else released.published_result
    if published is not None:
        for index, analysis in enumerate(published.analyses):
            checks.extend(
                CitationCheck("RELEASE_DECISION", index, call_id, "pass", None)
                for call_id in analysis.tool_call_ids
            )
    return tuple(checks)


_IssueKey = tuple[str, str | None, int | None]


def _issue_reasons(released: ReleaseResult | None) -> Mapping[_IssueKey, str]:
    fallback = None if released is None else released.fallback
    if fallback is None:
        return {}
    return {
        (issue.code.value, issue.tool_call_id, issue.analysis_index): issue.reason
        for issue in fallback.validation_issues
        if issue.reason is not None
    }
