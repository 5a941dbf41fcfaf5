"""The progress snapshot: what the run verifiably observed, assembled whenever the agent stops.

Read back from the canonical store with the checks the EvidenceGuard uses (never from the
model's history): verified sources (deduplicated by source type, source and scope), at most
``max_observed_facts`` observed facts of at most 320 characters (empty results included as
negative facts), honest limitations, and the stop reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from factledger.application.canonical_view import CanonicalInvocation, CanonicalViewReader
from factledger.application.evidence_check import UnverifiedReason, Verified, check_record
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.tools.registry import ToolRegistry
from factledger.domain.evidence import ObservedFact, Source
from factledger.domain.json_shape import JsonRecord
from factledger.domain.json_types import JsonObject
from factledger.domain.run_log import RunLog
from factledger.domain.status import EvidenceStatus, InvocationStatus, StopReason

__all__ = ["MAX_SUMMARY_CHARS", "ProgressSnapshot", "SnapshotBuilder", "trim_summary"]

MAX_SUMMARY_CHARS = 320


def trim_summary(text: str) -> str:
    """One line of at most 320 characters, cut on a word boundary with an ellipsis."""
    line = " ".join(text.split())
    if len(line) <= MAX_SUMMARY_CHARS:
        return line
    cut = line[: MAX_SUMMARY_CHARS - 1]
    space = cut.rfind(" ")
    if space > MAX_SUMMARY_CHARS // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


@frozen
class ProgressSnapshot(JsonRecord):
    """What a run verifiably observed."""

    verified_sources: tuple[Source, ...]
    """Deduplicated sources of verified results."""
    observed_facts: tuple[ObservedFact, ...]
    """At most ``max_observed_facts`` facts, evidence first, in call order."""
    limitations: tuple[str, ...]
    """What could not be verified, was truncated, failed or expired."""
    stop_reason: StopReason | None
    """Why collection stopped, when it did."""

    @property
    def has_facts(self) -> bool:
        """True when at least one fact was verified."""
        return bool(self.observed_facts)


class SnapshotBuilder:
    """Builds snapshots from the canonical store."""

    def __init__(
        self, runs: RunRepository, canonical: CanonicalViewReader, registry: ToolRegistry
    ) -> None:
        self._runs = runs
        self._canonical = canonical
        self._registry = registry

    def build(self, run_id: str) -> ProgressSnapshot | StoreFailed:
        """The snapshot of a run as its log and vault say now."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return log
        return self.build_from(log)

    def build_from(
        self, log: RunLog, records: Mapping[str, CanonicalInvocation | None] | None = None
    ) -> ProgressSnapshot | StoreFailed:
        """The snapshot from an already loaded log (one vault read for every call), or from
        the records of every call of that log when the caller has read them already."""
        ids = list(log.invocations)
        if records is None:
            read = self._canonical.read_from_log(log, ids)
            if isinstance(read, StoreFailed):
                return read
            records = read
        sources: dict[tuple[str, str, str], Source] = {}
        found: list[ObservedFact] = []
        negative: list[ObservedFact] = []
        limitations: list[str] = []
        for tool_call_id in ids:
            record = records.get(tool_call_id)
            if record is None:  # pragma: no cover - every id came from the log
                continue
            spec = self._registry.spec(record.tool_name)
            checked = check_record(record, spec, tool_call_id in log.progress.rejected)
            if not isinstance(checked, Verified):
                limitations.append(_limitation(record, checked.reason))
                continue
            assert spec is not None
            summary = trim_summary(spec.summarize(checked.agent_result, checked.evidence_status))
            fact = ObservedFact(tool_call_id, record.tool_name, checked.evidence_status, summary)
            if checked.evidence_status is EvidenceStatus.EVIDENCE_FOUND:
                found.append(fact)
                for source in spec.sources(checked.agent_result):
                    sources.setdefault(source.identity, source)
            else:
                negative.append(fact)
            unread = _unread_note(tool_call_id, record.tool_name, checked.agent_result)
            if unread is not None:
                limitations.append(unread)
            if record.truncated:
                limitations.append(
                    f"The result of {tool_call_id} ({record.tool_name}) was truncated: "
                    "it does not show everything the backend returned."
                )
        limit = log.progress.policy.max_observed_facts
        kept = {fact.tool_call_id for fact in (found + negative)[:limit]}
        facts = [f for f in _in_call_order(found, negative, ids) if f.tool_call_id in kept]
        omitted = len(found) + len(negative) - len(facts)
        if omitted:
            limitations.append(f"{omitted} more observed facts were left out (limit {limit}).")
        if log.progress.stop_reason is not None:
            limitations.append(_stop_note(log.progress.stop_reason))
        return ProgressSnapshot(
            verified_sources=tuple(sources.values()),
            observed_facts=tuple(facts),
            limitations=tuple(limitations),
            stop_reason=log.progress.stop_reason,
        )


def _in_call_order(
    found: list[ObservedFact], negative: list[ObservedFact], ids: list[str]
) -> list[ObservedFact]:
    position = {tool_call_id: index for index, tool_call_id in enumerate(ids)}
    return sorted(found + negative, key=lambda fact: position[fact.tool_call_id])


def _unread_note(tool_call_id: str, tool_name: str, agent_result: JsonObject) -> str | None:
    """The limitation of a result whose scope names parts its backend did not read or place
    (``scope.skipped``: kind → count), or None."""
    scope = agent_result.get("scope")
    skipped = scope.get("skipped") if isinstance(scope, dict) else None
    if not isinstance(skipped, dict):
        return None
    parts = [f"{name.replace('_', ' ')}: {count}" for name, count in skipped.items() if count]
    if not parts:
        return None
    return (
        f"The search of {tool_call_id} ({tool_name}) did not read all of its scope "
        f"({', '.join(parts)}); a match may be hidden there, so its result is incomplete."
    )


def _limitation(record: CanonicalInvocation, reason: UnverifiedReason) -> str:
    call = f"{record.tool_call_id} ({record.tool_name})"
    if record.status is InvocationStatus.PROJECTING:
        return f"The call {call} never finished; it is not evidence."
    if record.status is InvocationStatus.ERROR:
        code = record.error_code.value if record.error_code is not None else "ERROR"
        return f"The call {call} failed with {code}; it is not evidence."
    if reason is UnverifiedReason.EXPIRED:
        return f"The content of {call} has expired and can no longer be verified."
    return f"The result of {call} failed verification and is not used."


def _stop_note(reason: StopReason) -> str:
    match reason:
        case StopReason.INFORMATION_SATURATED:
            return "Evidence collection stopped: repeated calls gained no new information."
        case StopReason.BUDGET_LIMIT_REACHED:
            return "Evidence collection stopped: the run's budget was exhausted."
        case StopReason.PROGRESS_PROTOCOL_VIOLATED:
            return "Evidence collection stopped: the agent broke the progress protocol."
