"""The EvidenceGuard: mechanical, no model.

A draft has at least one analysis and every analysis cites at least one tool_call_id; each is
read back from the canonical store under this run's exact key (an id from another run is
simply unknown: the guard never looks outside the run) and must be READY, of a kind its
analysis accepts, unexpired and consistent. Each violation names its citation, its analysis
and a reason code. The store being unavailable fails closed. A passing guard yields a
``VerifiedEvidenceSnapshot`` built from the canonical agent results, never from the draft's
words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from attrs import frozen

from factledger.application.canonical_view import (
    CanonicalInvocation,
    CanonicalViewReader,
    ContentState,
)
from factledger.application.evidence_check import Verified, check_record
from factledger.application.run_repository import StoreFailed
from factledger.application.tools.registry import ToolRegistry
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.draft import Analysis, Draft
from factledger.domain.release.issues import GuardReason, IssueCode, ValidationIssue
from factledger.domain.release.judge import ClaimEvidence
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, InvocationStatus

__all__ = [
    "EvidenceGuard",
    "GuardFailed",
    "GuardPassed",
    "GuardVerdict",
    "VerifiedEvidenceSnapshot",
]


@frozen
class VerifiedEvidenceSnapshot:
    """What the verified citations hold, from the canonical store."""

    claims: tuple[ClaimEvidence, ...]
    """Each analysis with the content of the calls it cites."""
    sources: tuple[Source, ...]
    """Deduplicated sources of every cited call (by type, source and scope)."""
    citations: dict[str, JsonObject]
    """Verified agent results by cited tool_call_id."""


@frozen
class GuardPassed:
    """Every citation held."""

    snapshot: VerifiedEvidenceSnapshot
    """The verified evidence."""


@frozen
class GuardFailed:
    """At least one violation."""

    issues: tuple[ValidationIssue, ...]
    """Every violation found."""

    @property
    def store_down(self) -> bool:
        """True when the vault could not be read (nothing else was checked)."""
        return any(issue.code is IssueCode.STORE_UNAVAILABLE for issue in self.issues)


GuardVerdict: TypeAlias = GuardPassed | GuardFailed
"""What the guard decided."""


class EvidenceGuard:
    """Checks a draft's citations against this run's canonical records."""

    def __init__(self, canonical: CanonicalViewReader, registry: ToolRegistry) -> None:
        self._canonical = canonical
        self._registry = registry

    def check(
        self,
        log: RunLog,
        draft: Draft,
        records: Mapping[str, CanonicalInvocation | None] | None = None,
    ) -> GuardVerdict:
        """One pipelined read of every cited record (none when ``records`` holds every call
        of ``log``, read already), then every rule."""
        if records is None:
            read = self._canonical.read_from_log(log, draft.cited_ids)
            records = read if not isinstance(read, StoreFailed) else None
        if records is None:
            issue = ValidationIssue(
                IssueCode.STORE_UNAVAILABLE, reason=GuardReason.STORE_UNREADABLE
            )
            return GuardFailed((issue,))
        issues: list[ValidationIssue] = []
        if not draft.analyses:
            # A conclusion with nothing cited is never evidence-backed.
            issues.append(
                ValidationIssue(IssueCode.MISSING_CITATION, reason=GuardReason.NO_ANALYSES)
            )
        verified: dict[str, Verified] = {}
        for index, analysis in enumerate(draft.analyses):
            if not analysis.tool_call_ids:
                issues.append(
                    ValidationIssue(
                        IssueCode.MISSING_CITATION, None, index, GuardReason.NO_CITATIONS
                    )
                )
            for tool_call_id in dict.fromkeys(analysis.tool_call_ids):
                checked = self._citation(log, analysis, index, records.get(tool_call_id))
                if isinstance(checked, Verified):
                    verified[tool_call_id] = checked
                else:
                    issues.append(_located(checked, tool_call_id, index))
        if issues:
            return GuardFailed(tuple(issues))
        return GuardPassed(self._snapshot(draft, verified))

    def _citation(
        self, log: RunLog, analysis: Analysis, index: int, record: CanonicalInvocation | None
    ) -> Verified | ValidationIssue:
        """One citation: verified, or the issue it raises (without its place yet)."""
        if record is None:
            return ValidationIssue(IssueCode.UNKNOWN_TOOL_CALL, reason=GuardReason.NOT_IN_RUN)
        spec = self._registry.spec(record.tool_name)
        rejected = record.tool_call_id in log.progress.rejected
        checked = check_record(record, spec, rejected)
        if not isinstance(checked, Verified):
            code, reason = _unverified(record, spec is None, rejected)
            return ValidationIssue(code, reason=reason)
        if checked.evidence_status is not analysis.kind.accepts:
            reason = (
                GuardReason.CITES_NO_EVIDENCE
                if checked.evidence_status is EvidenceStatus.NO_EVIDENCE
                else GuardReason.CITES_EVIDENCE
            )
            return ValidationIssue(IssueCode.EVIDENCE_KIND_MISMATCH, reason=reason)
        assert spec is not None  # a verified record's tool is registered
        if not spec.supports(analysis.kind):
            return ValidationIssue(
                IssueCode.EVIDENCE_KIND_MISMATCH, reason=GuardReason.KIND_UNSUPPORTED
            )
        return checked

    def _snapshot(self, draft: Draft, verified: dict[str, Verified]) -> VerifiedEvidenceSnapshot:
        sources: dict[tuple[str, str, str], Source] = {}
        claims: list[ClaimEvidence] = []
        for analysis in draft.analyses:
            contents: list[JsonValue] = []
            scopes: list[JsonValue] = []
            for tool_call_id in dict.fromkeys(analysis.tool_call_ids):
                item = verified[tool_call_id]
                contents.append(item.agent_result)
                spec = self._registry.spec(item.record.tool_name)
                found = item.agent_result.get("scope")
                scopes.append(found if spec is None else spec.judge_scope(item.agent_result))
                if spec is not None:
                    for source in spec.sources(item.agent_result):
                        sources.setdefault(source.identity, source)
            claims.append(
                ClaimEvidence(analysis.kind, analysis.claim, tuple(contents), tuple(scopes))
            )
        return VerifiedEvidenceSnapshot(
            claims=tuple(claims),
            sources=tuple(sources.values()),
            citations={key: value.agent_result for key, value in verified.items()},
        )


def _located(issue: ValidationIssue, tool_call_id: str, index: int) -> ValidationIssue:
    return ValidationIssue(issue.code, tool_call_id, index, issue.reason, issue.token)


def _unverified(
    record: CanonicalInvocation, unregistered: bool, rejected: bool
) -> tuple[IssueCode, GuardReason]:
    """The issue and reason of a record that cannot serve as evidence."""
    match record.status:
        case InvocationStatus.PROJECTING:
            return IssueCode.NOT_READY, GuardReason.CALL_PROJECTING
        case InvocationStatus.ERROR:
            return IssueCode.NOT_READY, GuardReason.CALL_FAILED
        case InvocationStatus.READY:
            pass
    match record.content:
        case ContentState.EXPIRED:
            return IssueCode.EVIDENCE_EXPIRED, GuardReason.CONTENT_EXPIRED
        case ContentState.TAMPERED:
            return IssueCode.PROJECTION_INCONSISTENT, GuardReason.BODY_TAMPERED
        case ContentState.MISSING:
            return IssueCode.PROJECTION_INCONSISTENT, GuardReason.BODY_MISSING
        case ContentState.AVAILABLE:
            pass
    if unregistered:
        return IssueCode.PROJECTION_INCONSISTENT, GuardReason.TOOL_UNREGISTERED
    if rejected:
        return IssueCode.PROJECTION_INCONSISTENT, GuardReason.OBSERVATION_REJECTED
    return IssueCode.PROJECTION_INCONSISTENT, GuardReason.STATUS_MISMATCH
