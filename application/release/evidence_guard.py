"""The EvidenceGuard: mechanical, no model (SPEC §8 step 3).

A draft has at least one analysis and every analysis cites at least one tool_call_id; each is
read back from the canonical store under this run's exact key (an id from another run is
simply unknown: the guard never looks outside the run) and must be READY, of a kind its
analysis accepts, unexpired and consistent.
The store being unavailable fails closed. A passing guard yields a
``VerifiedEvidenceSnapshot`` built from the canonical agent results, never from the draft's
words.
"""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from factledger.application.canonical_view import CanonicalViewReader
from factledger.application.evidence_check import UnverifiedReason, Verified, check_record
from factledger.application.run_repository import StoreFailed
from factledger.application.tools.registry import ToolRegistry
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.draft import Draft
from factledger.domain.release.grounding import ClaimEvidence
from factledger.domain.release.issues import IssueCode, ValidationIssue
from factledger.domain.run_log import RunLog
from factledger.domain.status import InvocationStatus

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


GuardVerdict: TypeAlias = GuardPassed | GuardFailed
"""What the guard decided."""

_REASON_CODES = {
    UnverifiedReason.NOT_READY: IssueCode.NOT_READY,
    UnverifiedReason.EXPIRED: IssueCode.EVIDENCE_EXPIRED,
    UnverifiedReason.INCONSISTENT: IssueCode.PROJECTION_INCONSISTENT,
}


class EvidenceGuard:
    """Checks a draft's citations against this run's canonical records."""

    def __init__(self, canonical: CanonicalViewReader, registry: ToolRegistry) -> None:
        self._canonical = canonical
        self._registry = registry

    def check(self, log: RunLog, draft: Draft) -> GuardVerdict:
        """One pipelined read of every cited record, then every rule."""
        records = self._canonical.read_from_log(log, draft.cited_ids)
        if isinstance(records, StoreFailed):
            return GuardFailed((ValidationIssue(IssueCode.STORE_UNAVAILABLE),))
        issues: list[ValidationIssue] = []
        if not draft.analyses:
            # A conclusion with nothing cited is never evidence-backed.
            issues.append(ValidationIssue(IssueCode.MISSING_CITATION))
        verified: dict[str, Verified] = {}
        for index, analysis in enumerate(draft.analyses):
            if not analysis.tool_call_ids:
                issues.append(ValidationIssue(IssueCode.MISSING_CITATION, None, index))
                continue
            for tool_call_id in dict.fromkeys(analysis.tool_call_ids):
                record = records.get(tool_call_id)
                if record is None:
                    issues.append(ValidationIssue(IssueCode.UNKNOWN_TOOL_CALL, tool_call_id, index))
                    continue
                spec = self._registry.spec(record.tool_name)
                checked = check_record(record, spec, tool_call_id in log.progress.rejected)
                if not isinstance(checked, Verified):
                    code = _REASON_CODES[checked.reason]
                    if record.status is not InvocationStatus.READY:
                        code = IssueCode.NOT_READY
                    issues.append(ValidationIssue(code, tool_call_id, index))
                    continue
                assert spec is not None  # a verified record's tool is registered
                if checked.evidence_status is not analysis.kind.accepts or not spec.supports(
                    analysis.kind
                ):
                    issues.append(
                        ValidationIssue(IssueCode.EVIDENCE_KIND_MISMATCH, tool_call_id, index)
                    )
                    continue
                verified[tool_call_id] = checked
        if issues:
            return GuardFailed(tuple(issues))
        return GuardPassed(self._snapshot(draft, verified))

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
