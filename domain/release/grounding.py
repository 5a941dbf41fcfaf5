"""The embedded, deterministic grounding judge (SPEC §8 step 5, no model needed).

A claim is grounded in its cited evidence when:

* every number and every identifier in it (error codes such as ``GW-504``, service names
  such as ``card-gateway``, dotted settings, mixed letter-digit tokens, upper-case acronyms)
  appears in the text of the cited agent results, and
* enough of its key terms (content words, lightly stemmed, reasoning words left out) appear
  there too: ``term_coverage`` of them, at least one.

A negative observation supports only "no match for X in scope S", never "X did not happen":
its claim must say that nothing matched, name something of the searched scope (query terms,
service, datasource or table), and must not reach beyond the scope ("did not happen", "ruled
out", "is healthy", …). The conclusion is held to the same test against all cited evidence
together, with a lower term coverage (it summarises). A claim that cites real evidence but
says something the evidence does not say is therefore refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import StrEnum

from attrs import frozen

from factledger.domain.json_types import JsonValue
from factledger.domain.release.draft import AnalysisKind

__all__ = [
    "ClaimEvidence",
    "GroundingPolicy",
    "GroundingReason",
    "GroundingReport",
    "evidence_text",
    "ground",
]


class GroundingReason(StrEnum):
    """Why a claim is not grounded."""

    UNGROUNDED_NUMBER = "UNGROUNDED_NUMBER"
    UNGROUNDED_IDENTIFIER = "UNGROUNDED_IDENTIFIER"
    UNGROUNDED_TERMS = "UNGROUNDED_TERMS"
    NEGATIVE_WITHOUT_NO_MATCH = "NEGATIVE_WITHOUT_NO_MATCH"
    NEGATIVE_OFF_SCOPE = "NEGATIVE_OFF_SCOPE"
    NEGATIVE_OVERREACH = "NEGATIVE_OVERREACH"
    NO_EVIDENCE_CITED = "NO_EVIDENCE_CITED"


@frozen
class GroundingPolicy:
    """Thresholds of the grounding judge."""

    term_coverage: float = 0.6
    """Share of a claim's key terms that must appear in its evidence."""
    conclusion_term_coverage: float = 0.5
    """Share of the conclusion's key terms that must appear in all cited evidence."""


@frozen
class ClaimEvidence:
    """One claim with the verified content of the calls it cites."""

    kind: AnalysisKind
    """Supporting evidence or a negative observation."""
    claim: str
    """The claim's text."""
    contents: tuple[JsonValue, ...]
    """The cited agent results (verified, from the canonical store)."""
    scopes: tuple[JsonValue, ...]
    """The cited results' scopes (what was searched)."""


@frozen
class GroundingReport:
    """The judge's findings."""

    analyses: tuple[GroundingReason | None, ...]
    """Per analysis: None when grounded, else why not."""
    conclusion: GroundingReason | None
    """None when the conclusion is grounded, else why not."""

    @property
    def supported(self) -> bool:
        """True when every claim and the conclusion are grounded."""
        return self.conclusion is None and all(reason is None for reason in self.analyses)

    @property
    def unsupported_indexes(self) -> tuple[int, ...]:
        """Indexes of ungrounded analyses, and -1 for the conclusion."""
        indexes = tuple(i for i, reason in enumerate(self.analyses) if reason is not None)
        return indexes + ((-1,) if self.conclusion is not None else ())


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,:]\d+)*%?(?![\w])")
_IDENTIFIER = re.compile(
    r"(?<![\w.-])(?:[A-Za-z][A-Za-z0-9]*(?:[-_.:/][A-Za-z0-9]+)+|"
    r"[A-Za-z]+\d[A-Za-z0-9]*|\d+[A-Za-z][A-Za-z0-9]*|[A-Z]{2,}[A-Z0-9]*)(?![\w-])"
)
_WORD = re.compile(r"[a-z][a-z']{3,}")
_ISO_T = re.compile(r"(\d)t(\d)")
_STOPWORD_TEXT = """
    about above after again against also although among another because been before being below
    between both cause caused causes causing could does doing down during each either every
    evidence from further have having here hence into itself just least likely made make many
    might more most much must near never none only other over same seems seen shall should show
    showed shows since some such than that their them then there therefore these they this
    those though through thus under until upon very what when where whether which while whom
    whose will with within would your indicates indicate indicated suggest suggests suggested
    confirm confirms confirmed observed observe appears appear apparently probably possible
    possibly result results resulted resulting root reason reasons issue issues problem
    problems error errors failure failures failed fails failing because called happened happen
    happens occurred occurs occur logs log lines line entries rows query queries queried search
    searched looked found finding findings matching matched match matches data within time
    window during period
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_NO_MATCH = re.compile(
    r"\b(no|none|zero|nothing|not\s+(?:find|found|see|show|return|contain)\w*|"
    r"did\s+not\s+(?:find|return|show|contain|match)|found\s+no|returned\s+no|"
    r"without\s+(?:any\s+)?match\w*|0\s+(?:matching|lines|rows|results|entries))\b",
    re.IGNORECASE,
)
_OVERREACH = re.compile(
    r"\b(did\s*n[o']t\s+happen|never\s+happened|does\s*n[o']t\s+exist|do\s+not\s+exist|"
    r"did\s+not\s+occur|never\s+occurred|not\s+the\s+cause|ruled?\s+out|rules\s+out|"
    r"excluded|exonerat\w*|is\s+healthy|was\s+healthy|are\s+healthy|were\s+healthy|"
    r"not\s+affected|unaffected|no\s+(?:issue|problem|fault|incident|outage)s?\b|"
    r"not\s+responsible|cannot\s+be|could\s+not\s+have|impossible|definitely|certainly|"
    r"works?\s+(?:fine|correctly|normally)|is\s+fine|was\s+fine)",
    re.IGNORECASE,
)


def evidence_text(values: Iterable[JsonValue]) -> str:
    """Every string, number and key of the values, lower-cased, one space apart."""
    parts: list[str] = []

    def walk(value: JsonValue) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                parts.append(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, bool) or value is None:
            return
        else:
            parts.append(str(value))

    for value in values:
        walk(value)
    # ISO-8601 times: "2026-03-01T10:00:00Z" must show "10:00" as a time of its own.
    return _ISO_T.sub(r"\1 \2", " ".join(parts).lower())


def _stem(word: str) -> str:
    word = word.strip("'")
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _present(token: str, text: str) -> bool:
    pattern = r"(?<![0-9a-z])" + re.escape(token.lower()) + r"(?![0-9a-z])"
    return re.search(pattern, text) is not None


def _numbers(claim: str) -> list[str]:
    return [token.rstrip("%").replace(",", "") for token in _NUMBER.findall(claim)]


def _number_present(number: str, text: str) -> bool:
    return _present(number, text) or _present(number, text.replace(",", ""))


def _identifiers(claim: str) -> list[str]:
    return _IDENTIFIER.findall(claim)


def _terms(text: str) -> set[str]:
    return {_stem(word) for word in _WORD.findall(text.lower()) if word not in _STOPWORDS}


def _term_coverage(claim: str, text: str) -> float:
    terms = _terms(claim)
    if not terms:
        return 1.0
    stems = {_stem(word) for word in _WORD.findall(text)}
    return sum(1 for term in terms if term in stems) / len(terms)


def _positive(claim: str, text: str, coverage: float) -> GroundingReason | None:
    if not text.strip():
        return GroundingReason.NO_EVIDENCE_CITED
    if any(not _number_present(number, text) for number in _numbers(claim)):
        return GroundingReason.UNGROUNDED_NUMBER
    if any(not _present(token, text) for token in _identifiers(claim)):
        return GroundingReason.UNGROUNDED_IDENTIFIER
    if _term_coverage(claim, text) < coverage:
        return GroundingReason.UNGROUNDED_TERMS
    return None


def _negative(claim: str, scope_text: str) -> GroundingReason | None:
    if _OVERREACH.search(claim):
        return GroundingReason.NEGATIVE_OVERREACH
    if not _NO_MATCH.search(claim):
        return GroundingReason.NEGATIVE_WITHOUT_NO_MATCH
    scope_terms = _terms(scope_text) | {token.lower() for token in _identifiers(scope_text)}
    mentioned = _terms(claim) | {token.lower() for token in _identifiers(claim)}
    if not (scope_terms & mentioned) and not any(
        _present(token, claim.lower()) for token in scope_terms
    ):
        return GroundingReason.NEGATIVE_OFF_SCOPE
    if any(not _number_present(number, scope_text) for number in _numbers(claim)):
        return GroundingReason.UNGROUNDED_NUMBER
    return None


def ground(
    conclusion: str, claims: Sequence[ClaimEvidence], policy: GroundingPolicy | None = None
) -> GroundingReport:
    """Judge every claim against its own citations and the conclusion against them all."""
    policy = policy or GroundingPolicy()
    reasons: list[GroundingReason | None] = []
    positive_texts: list[str] = []
    negative_scopes: list[str] = []
    for item in claims:
        if item.kind is AnalysisKind.SUPPORTING_EVIDENCE:
            text = evidence_text(item.contents)
            positive_texts.append(text)
            reasons.append(_positive(item.claim, text, policy.term_coverage))
        else:
            scope_text = evidence_text(item.scopes)
            negative_scopes.append(scope_text)
            reasons.append(_negative(item.claim, scope_text))
    everything = " ".join(positive_texts + negative_scopes)
    conclusion_reason = _positive(conclusion, everything, policy.conclusion_term_coverage)
    return GroundingReport(tuple(reasons), conclusion_reason)
