"""The embedded, deterministic grounding judge: every claim against its own citations.

Each cited call is read once (``evidence.view_of``). A supporting claim passes the rule
families in order: entities, times, numbers, polarity, decisive words, quantifiers, causes,
word coverage; a negative observation passes ``negative.check_negative``. The conclusion is
held to the same families against every cited call together and the claims themselves
(which were just judged), with a lower word coverage and no binding of its numbers to
records: it summarises. The first refusal of each is its finding, with the claim's words.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from factledger.domain.json_types import JsonValue
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge.breakdowns import check_breakdowns
from factledger.domain.release.judge.causatives import check_causatives
from factledger.domain.release.judge.claims import ParsedClaim, parse_claim
from factledger.domain.release.judge.column_binding import check_column_binding
from factledger.domain.release.judge.conclusion_findings import (
    check_conclusion_cause,
    check_denied_findings,
)
from factledger.domain.release.judge.denied_causes import unless_denied_cause
from factledger.domain.release.judge.each_record import unless_shown
from factledger.domain.release.judge.edge_times import check_edge_times
from factledger.domain.release.judge.every_record import check_every_record
from factledger.domain.release.judge.evidence import (
    CallView,
    ClaimEvidence,
    Clause,
    clause_of,
    view_of,
)
from factledger.domain.release.judge.exclusive_counts import check_exclusive_counts
from factledger.domain.release.judge.identifier_numbers import check_identifier_numbers
from factledger.domain.release.judge.levels import check_levels
from factledger.domain.release.judge.line_names import check_line_names
from factledger.domain.release.judge.name_slots import check_name_slots
from factledger.domain.release.judge.negative import check_negative, check_overreach
from factledger.domain.release.judge.number_rules import check_numbers, check_times
from factledger.domain.release.judge.only_names import check_only_names
from factledger.domain.release.judge.opposites import check_opposites
from factledger.domain.release.judge.polarity import check_polarity
from factledger.domain.release.judge.predicate_bounds import check_bounds
from factledger.domain.release.judge.ranked_count import check_ranked_count
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.record_binding import check_records
from factledger.domain.release.judge.record_count import check_group_count
from factledger.domain.release.judge.record_quantifiers import check_record_quantifiers
from factledger.domain.release.judge.record_sums import check_record_sums
from factledger.domain.release.judge.reported_passages import check_reported_passage
from factledger.domain.release.judge.respective import check_multipliers
from factledger.domain.release.judge.row_binding import check_row_values
from factledger.domain.release.judge.row_times import check_row_times
from factledger.domain.release.judge.spelled_numbers import check_spelled
from factledger.domain.release.judge.stated_ratios import check_stated_ratios
from factledger.domain.release.judge.text_rules import (
    Known,
    check_causal,
    check_coverage,
    check_entities,
    check_quantifiers,
    check_trouble,
)
from factledger.domain.release.judge.time_buckets import over_buckets
from factledger.domain.release.judge.time_offsets import check_offsets
from factledger.domain.release.judge.unit_fractions import check_unit_fractions
from factledger.domain.release.judge.universal_counts import check_universal_counts
from factledger.domain.release.judge.whole_windows import check_whole_window

__all__ = ["GroundingPolicy", "GroundingReport", "ground"]


@frozen
class GroundingPolicy:
    """Thresholds of the grounding judge."""

    term_coverage: float = 0.4
    """Share of a claim's content words that must be in its evidence."""
    conclusion_term_coverage: float = 0.4
    """Share of the conclusion's content words that must be in the evidence."""


@frozen
class GroundingReport:
    """The judge's findings."""

    analyses: tuple[Finding | None, ...]
    """Per analysis: None when grounded, else why not."""
    conclusion: Finding | None
    """None when the conclusion is grounded, else why not."""

    @property
    def supported(self) -> bool:
        """True when every claim and the conclusion are grounded."""
        return self.conclusion is None and all(found is None for found in self.analyses)


def _supporting(
    claim: ParsedClaim,
    views: Sequence[CallView],
    known: Known,
    share: float,
    extra: Sequence[Clause] = (),
) -> Finding | None:
    if not views:
        return Finding(GroundingReason.NO_EVIDENCE_CITED)
    conclusion = bool(extra)
    keys = claim.keys
    prose = [clause for view in views for clause in view.about(keys)] + list(extra)
    stems = frozenset().union(*(view.stems for view in views), *(c.stems for c in extra))
    text = " ".join(view.text for view in views)
    bucketed, claim = over_buckets(claim, views)
    if bucketed is not None:
        return bucketed
    return (
        (check_overreach(claim, text) if conclusion else None)
        or check_entities(claim, views, known)
        or check_name_slots(claim, views)
        or check_levels(claim, views)
        or check_times(claim, views)
        or check_edge_times(claim, views)
        or check_row_times(claim, views)
        or check_whole_window(claim, views)
        or check_bounds(claim, views)
        or check_offsets(claim)
        or check_identifier_numbers(claim, views)
        or check_numbers(claim, views, not conclusion, known)
        or check_unit_fractions(claim, views)
        or check_multipliers(claim, views)
        or check_stated_ratios(claim, views)
        or check_breakdowns(claim)
        or check_spelled(claim, views, not conclusion, known)
        or (None if conclusion else check_records(claim, views))
        or (None if conclusion else check_line_names(claim, views))
        or (None if conclusion else check_row_values(claim, views))
        or (None if conclusion else check_record_sums(claim, views))
        or check_column_binding(claim, views)
        or check_polarity(claim, prose)
        or check_opposites(claim, views)
        or check_trouble(claim, stems, text, any(view.depleted for view in views))
        or unless_shown(
            check_quantifiers(claim, views, " ".join(c.text for c in extra)), claim, views
        )
        or check_record_quantifiers(claim, views)
        or check_exclusive_counts(claim, views)
        or check_only_names(claim, views)
        or check_universal_counts(claim, views)
        or unless_shown(check_every_record(claim, views), claim, views)
        or check_group_count(claim, views)
        or check_ranked_count(claim, views)
        or unless_denied_cause(check_causal(claim, views, stems, conclusion), claim, views)
        or check_causatives(claim, views, stems, conclusion)
        or check_reported_passage(claim, views)
        or check_coverage(claim, stems, share)
    )


def _known(views: Sequence[CallView]) -> Known:
    """The names of the run: services searched and hyphenated names in any cited call."""
    names: set[str] = set()
    for view in views:
        if view.scope.service:
            names.add(view.scope.service.lower())
        names.update(view.compounds)
    return frozenset(names)


def ground(
    conclusion: str, claims: Sequence[ClaimEvidence], policy: GroundingPolicy | None = None
) -> GroundingReport:
    """Judge every claim against its own citations and the conclusion against them all."""
    policy = policy or GroundingPolicy()
    cache: dict[int, CallView] = {}

    def view(content: JsonValue, scope: JsonValue) -> CallView:
        key = id(content)
        if key not in cache:
            cache[key] = view_of(content, scope)
        return cache[key]

    per_claim = [
        [view(c, s) for c, s in zip(item.contents, item.scopes, strict=False)] for item in claims
    ]
    every = [v for views in per_claim for v in views]
    known = _known(every)
    findings: list[Finding | None] = []
    extra: list[Clause] = []
    parsed_claims: list[ParsedClaim] = []
    negatives: list[tuple[ParsedClaim, list[str]]] = []
    for item, views in zip(claims, per_claim, strict=True):
        parsed = parse_claim(item.claim)
        parsed_claims.append(parsed)
        if item.kind is AnalysisKind.NEGATIVE_OBSERVATION:
            findings.append(check_negative(parsed, views) if views else _nothing())
            negatives.append((parsed, [v.scope.service for v in views if v.scope.service]))
        else:
            findings.append(_supporting(parsed, views, known, policy.term_coverage))
        extra.append(clause_of(item.claim))
    summary = parse_claim(conclusion)
    verdict = _supporting(summary, every, known, policy.conclusion_term_coverage, extra)
    conclusion_found = verdict if every else Finding(GroundingReason.NO_EVIDENCE_CITED)
    if conclusion_found is None:
        conclusion_found = check_conclusion_cause(summary, parsed_claims) or (
            check_denied_findings(summary, negatives)
        )
    return GroundingReport(tuple(findings), conclusion_found)


def _nothing() -> Finding:
    return Finding(GroundingReason.NO_EVIDENCE_CITED)
