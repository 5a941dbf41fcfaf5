"""How the embedded backend turns a bm25 score into a relevance level.

Two measures, both relative to the query so that the level means the same for a short and a
long query:

- ``score ratio``: the hit's score (``-bm25``, higher is better) divided by the best hit's
  score in the same result;
- ``coverage``: the share of the query's distinct words (stop words excluded) that the hit
  contains in its own section path or text. The document title does not count: every chunk
  of a document shares it, so it says which document, not which part of it, matches.

With the default rule, a hit is HIGH when its score ratio is at least 0.5 and its coverage at
least 0.6; MEDIUM when they are at least 0.25 and 0.3; REFERENCE otherwise. The best hit of a
one-word query is therefore HIGH; the best hit of a five-word query that shares only one word
is REFERENCE however high it ranks.
"""

from __future__ import annotations

from attrs import field, frozen

from factledger.domain.knowledge.number_checks import share
from factledger.domain.knowledge.relevance import RelevanceLevel

__all__ = ["RelevanceRule", "derive_relevance"]


@frozen
class RelevanceRule:
    """The thresholds of the rule (each a share between 0 and 1)."""

    high_score_ratio: float = field(default=0.5, validator=share)
    """Least score ratio of a HIGH hit."""
    high_coverage: float = field(default=0.6, validator=share)
    """Least coverage of a HIGH hit."""
    medium_score_ratio: float = field(default=0.25, validator=share)
    """Least score ratio of a MEDIUM hit."""
    medium_coverage: float = field(default=0.3, validator=share)
    """Least coverage of a MEDIUM hit."""


def derive_relevance(
    score: float, best_score: float, matched_terms: int, query_terms: int, rule: RelevanceRule
) -> RelevanceLevel:
    """The level of a hit with ``score`` that contains ``matched_terms`` of the query's
    ``query_terms`` words, in a result whose best score is ``best_score``."""
    ratio = score / best_score if best_score > 0 else 1.0
    coverage = matched_terms / query_terms if query_terms > 0 else 0.0
    if ratio >= rule.high_score_ratio and coverage >= rule.high_coverage:
        return RelevanceLevel.HIGH
    if ratio >= rule.medium_score_ratio and coverage >= rule.medium_coverage:
        return RelevanceLevel.MEDIUM
    return RelevanceLevel.REFERENCE
