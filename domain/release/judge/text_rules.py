"""Rules on the words of a claim: entities, decisive words, quantifiers, causes, coverage.

* Identifiers (error codes, settings, mixed tokens) must be in the cited calls; a
  hyphenated name or a service of the run must be in them too when it names something of
  the run; otherwise a hyphenated word is read as its words.
* Polarity is in ``polarity``; the rules on a word's role (partial quantifiers, dating
  words, sources, cause order) in ``roles``.
* Specific decisive words (timeout, deadlock, ...) need the same word; generic trouble
  words (failed, error) need a trouble word or an ERROR level, unless denied ("did not fail").
* Quantifiers (all, every, only, both, some, most) need evidence that says so, in words of
  a clause about the same thing or by its shape (one pattern, one level, two records, ...).
* Causal words need a clause of the evidence that says why.
* Enough of the claim's content words must be in the evidence (paraphrase tolerated: common
  operations synonyms, units and words that only date the claim are not required).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.listed_names import listed_names
from factledger.domain.release.judge.quantifier_words import QUANTIFIER_CLAIMED, QUANTIFIER_WORD
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.roles import (
    check_cause_order,
    check_partial,
    check_plural,
    check_sources,
    dating,
)
from factledger.domain.release.judge.text_parts import compounds
from factledger.domain.release.judge.trouble_forms import expressed
from factledger.domain.release.judge.words import (
    CAUSAL_CLAIM,
    CAUSAL_EVIDENCE,
    MEASURE_WORDS,
    META,
    QUANTIFIER_GROUPS,
    SPECIFIC_TROUBLE,
    SYMPTOMS,
    TROUBLE,
    Word,
    content_stems,
    synonyms,
)

__all__ = [
    "UNIT_WORD",
    "Known",
    "check_causal",
    "check_coverage",
    "check_entities",
    "check_quantifiers",
    "check_trouble",
    "cause_of",
    "has_stem",
]

_LOG_OF = re.compile(
    r"\b([A-Za-z][\w-]*(?:'s)?)\s+(?:service\s+)?(?:logs|logged|log\s+lines)\b"
    r"|\blogs?\s+(?:of|from|for)\s+(?:the\s+)?([A-Za-z][\w-]*)",
)
_NOT_NAMES = frozenset(
    {"the", "its", "their", "no", "these", "those", "all", "any", "error", "errors", "warn",
     "warning", "warnings", "info", "debug", "fatal", "application", "service", "services",
     "server", "pod", "pods", "same", "whose", "which", "our", "system", "gateway"}
)  # fmt: skip
_NOT_KINDS = frozenset(
    {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "many", "few",
     "several", "new", "first", "last", "same", "single", "lone", "isolated", "occasional",
     "sporadic", "multiple", "numerous", "dozen", "dozens", "hundreds", "thousands"}
)  # fmt: skip
"""Words of number and frequency before a trouble word ("a *single* error"): no kind of it."""
_NOT_REQUIRED = META | MEASURE_WORDS
_FORWARD = re.compile(r"because|due|owing|root|driven|caused\s+by|result\w*\s+from", re.I)
Known = frozenset[str]
"""Names of the run (services, tables, datasources, lower-cased) a claim may not borrow."""


def has_stem(word: str, stems: frozenset[str]) -> bool:
    """True when ``word`` (a stem) or a close inflection of it (same first six letters) is in
    ``stems``."""
    if word in stems:
        return True
    return len(word) >= 6 and word[:6] in _prefixes(stems)


@lru_cache(maxsize=512)
def _prefixes(stems: frozenset[str]) -> frozenset[str]:
    return frozenset([s[:6] for s in stems if len(s) >= 6])


def check_entities(claim: ParsedClaim, views: Sequence[CallView], known: Known) -> Finding | None:
    """Identifiers and names of the run the claim uses are in its cited calls."""
    text = " ".join(view.text for view in views)
    for token in claim.identifiers:
        if not any(present(spelling, text) for spelling in _spellings(token)):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, token)
    listed = listed_names(claim.text, text)
    for token in claim.compounds:
        if present(token, text):
            continue
        low = token.lower()
        if (low in listed and not _words_of(low, text)) or _a_name(low, known, text):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, token)
    services = [view.scope.service for view in views if view.scope.service]
    for m in _LOG_OF.finditer(claim.text):
        name = m.group(1) or m.group(2)
        if services and not _names_service(name, services, known):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, name)
    lowered = claim.text.lower()
    for name in known:
        if present(name, lowered) and not present(name, text):
            start = lowered.index(name)
            return Finding(GroundingReason.UNGROUNDED_ENTITY, claim.text[start : start + len(name)])
    return check_sources(claim, views)


def _spellings(token: str) -> tuple[str, ...]:
    """An identifier and its other hyphenations: ``DNS-01`` is ``DNS01`` and ``dns_01``."""
    if "-" not in token:
        return (token,)
    return (token, token.replace("-", ""), token.replace("-", "_"))


def _a_name(token: str, known: Known, text: str) -> bool:
    """True when a hyphenated word names something: a name of the run, or shaped like a
    name of its cited calls (same first or last part: ``ranker-svc`` beside ``index-svc``)."""
    if token in known:
        return True
    if _words_of(token, text):
        return False
    parts = token.split("-")
    if present(".".join(parts), text):
        return True  # a host name spelled otherwise: this spelling names something else
    return any(
        name.split("-")[0] == parts[0] or name.split("-")[-1] == parts[-1]
        for name in compounds(text)
        if name != token
    )


def _words_of(token: str, text: str) -> bool:
    """True when a hyphenated word spells a word ("time-outs") or words ("state-store") of
    the evidence."""
    parts = token.split("-")
    joined = "".join(parts)
    return (
        present(joined, text)
        or present(joined.rstrip("s"), text)
        or (present(" ".join(parts), text))
    )


def _names_service(name: str, services: Sequence[str], known: Known) -> bool:
    low = name.lower().removesuffix("'s")
    if low in _NOT_NAMES or low in META:
        return True
    if low in known and low not in {s.lower() for s in services}:
        return False
    return any(
        low == s.lower()
        or content_stems(low.replace("-", " ")) <= content_stems(s.replace("-", " "))
        for s in services
    )


_USED_UP = ("exhaust", "saturat")


UNIT_WORD = re.compile(
    r"^(?:ms|s|sec|secs|min|mins|h|hr|hrs|kb|mb|gb|tb|kib|mib|gib|tib|b|bytes?|%)$", re.I
)


"""A unit written as a word of its own (carries no polarity, is no required word)."""


def check_trouble(
    claim: ParsedClaim, stems: frozenset[str], text: str, depleted: bool = False
) -> Finding | None:
    """Decisive words are in the evidence: the same specific word, any generic one; a
    resource called exhausted or saturated may instead show a used-up field (``idle=0``)."""
    for index, word in enumerate(claim.words):
        if dating(claim, word.start):
            continue  # "before the incident": the episode, not a finding
        specific = next((t for t in SPECIFIC_TROUBLE if word.stem.startswith(t)), None)
        found = specific is None or any(s.startswith(specific) for s in stems)
        if not found and not expressed(specific or "", text):
            if depleted and specific in _USED_UP and not word.negated:
                continue
            return Finding(GroundingReason.UNGROUNDED_TERMS, word.raw)
        if any(word.stem.startswith(t) for t in TROUBLE) and not word.negated:
            if not _any_trouble(stems) and "error" not in text:
                return Finding(GroundingReason.UNGROUNDED_TERMS, word.raw)
            kind = None if word.raw.lower() in _VERB_FORMS else _kind_of(claim, index)
            if kind is not None and not has_stem(kind.stem, stems):
                return Finding(GroundingReason.UNGROUNDED_TERMS, f"{kind.raw} {word.raw}")
    return None


_ANY_TROUBLE = TROUBLE | SPECIFIC_TROUBLE | SYMPTOMS
_VERB_FORMS = frozenset({"fail", "fails", "failed", "failing"})
"""A verb of trouble has a subject before it ("calls fail"), not a kind ("disk error")."""


@lru_cache(maxsize=256)
def _any_trouble(stems: frozenset[str]) -> bool:
    """True when any word of ``stems`` names or describes trouble."""
    return any(s.startswith(t) for s in stems for t in _ANY_TROUBLE)


def _kind_of(claim: ParsedClaim, index: int) -> Word | None:
    """The word naming the kind of a trouble word, right before it ("*disk* error")."""
    if index == 0 or _adjacent(claim, index, index + 1):
        return None  # not the head of its phrase ("error code")
    before = claim.words[index - 1]
    if not _adjacent(claim, index - 1, index) or before.raw.lower() in _NOT_KINDS | META:
        return None
    return None if before.negated else before


def _adjacent(claim: ParsedClaim, first: int, second: int) -> bool:
    """True when words ``first`` and ``second`` of the claim stand side by side."""
    if second >= len(claim.words):
        return False
    a, b = claim.words[first], claim.words[second]
    return not claim.text[a.start + len(a.raw) : b.start].strip()


def _overlapping(claim: ParsedClaim, views: Sequence[CallView]) -> list[str]:
    """The evidence clauses about the claim's subject (sharing two words, or one)."""
    need = 2 if len(claim.stems) > 3 else 1
    return [
        clause.text
        for view in views
        for clause in view.about(claim.keys)
        if len(clause.stems & claim.stems) >= need
    ]


def _group_word(group: str, text: str) -> bool:
    words = QUANTIFIER_GROUPS[group]
    return any(word in text and QUANTIFIER_WORD[word].search(text) for word in words)


def _shaped(group: str, views: Sequence[CallView]) -> bool:
    shapes = [view.structure for view in views]
    if group in {"universal", "exclusive"}:
        return any(
            s.get("patterns") == 1 or s.get("levels") == 1 or s.get("records") == 1 for s in shapes
        )
    if group == "dual":
        return len(views) == 2 or any(
            s.get("records") == 2 or s.get("patterns") == 2 for s in shapes
        )
    if group == "existential":
        return any(s.get("records", 0) >= 2 for s in shapes)
    return False


_OF = re.compile(r"\b(\d[\d,]*)\s+(?:of|out\s+of)\s+(?:the\s+)?(\d[\d,]*)\b")


def _majority(claim: ParsedClaim, views: Sequence[CallView], said: str = "") -> bool:
    """A claim of "most" holds when one of its numbers is over half a total of the evidence,
    or (a conclusion) when a claim it sums up says "N of M" with N over half of M."""
    for m in _OF.finditer(said):
        part, whole = (float(g.replace(",", "")) for g in m.groups())
        if whole / 2 < part <= whole:
            return True
    numbers = [q.value for q, _ in claim.quantities if q.dimension is None]
    for view in views:
        totals = [sum(view.values), *view.values]
        if any(n > total / 2 and n <= total for n in numbers for total in totals if total):
            return True
    return False


def check_quantifiers(
    claim: ParsedClaim, views: Sequence[CallView], said: str = ""
) -> Finding | None:
    """Each quantifier of the claim is said by the evidence or shown by its shape."""
    partial = check_partial(claim, views) or check_plural(claim, views)
    if partial is not None:
        return partial
    lowered = claim.text.lower()
    clauses: list[str] | None = None
    for group in QUANTIFIER_GROUPS:
        for word in QUANTIFIER_GROUPS[group]:
            found = QUANTIFIER_CLAIMED[word].search(lowered) if word in lowered else None
            if found is None:
                continue
            if group == "majority" and _majority(claim, views, said):
                continue
            clauses = _overlapping(claim, views) if clauses is None else clauses
            if any(_group_word(group, text) for text in clauses) or _shaped(group, views):
                continue
            if group == "existential" and not any(
                _group_word("universal", text) or _group_word("dual", text) for text in clauses
            ):
                continue
            token = claim.text[found.start() : found.end()]
            return Finding(GroundingReason.QUANTIFIER_UNSUPPORTED, token)
    return None


def check_causal(
    claim: ParsedClaim, views: Sequence[CallView], stems: frozenset[str], conclusion: bool
) -> Finding | None:
    """Causal wording needs its clause (cause and effect) in the evidence, two thirds of its
    words, and, in an analysis, an evidence clause about the same thing that says why."""
    found = CAUSAL_CLAIM.search(claim.text)
    if found is None:
        return None
    refused = Finding(GroundingReason.CAUSAL_UNSUPPORTED, found.group())
    reversed_order = check_cause_order(claim, found)
    if reversed_order is not None:
        return reversed_order
    wanted = [s for s in content_stems(_cause(claim, found)) if s not in META]
    if wanted and sum(has_stem(s, stems) for s in wanted) * 3 < 2 * len(wanted):
        return refused
    if conclusion or any(CAUSAL_EVIDENCE.search(text) for text in _overlapping(claim, views)):
        return None
    return refused


def cause_of(claim: ParsedClaim, found: re.Match[str]) -> str:
    """The words of ``claim`` that name the cause its causal word ``found`` states."""
    return _cause(claim, found)


def _cause(claim: ParsedClaim, found: re.Match[str]) -> str:
    """The words that name the cause: after "because", "due to", "the root cause is", before
    "caused", "led to", "resulted in" (within the clause, or the claim before it)."""
    start, end = next(((a, b) for a, b in claim.clauses if a <= found.start() < b), (0, 0))
    if _FORWARD.match(found.group()):
        return claim.text[found.end() : end]
    before = claim.text[start : found.start()]
    return before if content_stems(before) else claim.text[: found.start()]


_PER_TIME = re.compile(
    r"(?:\d|\b(?:a|an|per|each|every))\s*(?:seconds?|minutes?|hours?|days?|weeks?)$", re.I
)
"""A unit of time after a number or "a", "per" ("53 in 45 minutes", "11.5 a minute"): a unit,
no word the evidence must hold (its numbers are checked as numbers)."""


def check_coverage(claim: ParsedClaim, stems: frozenset[str], share: float) -> Finding | None:
    """At least ``share`` of the claim's content words are in the evidence."""
    wanted = [
        w
        for w in claim.words
        if w.raw.lower() not in _NOT_REQUIRED
        and w.stem in claim.stems
        and not UNIT_WORD.match(w.raw)
        and not _PER_TIME.search(claim.text[max(0, w.start - 12) : w.start + len(w.raw)])
    ]
    if not wanted:
        return None
    missing = [
        w
        for w in wanted
        if not has_stem(w.stem, stems)
        and not any(has_stem(other, stems) for other in synonyms(w.stem))
        and not dating(claim, w.start)
    ]
    if len(wanted) - len(missing) < share * len(wanted):
        return Finding(GroundingReason.UNGROUNDED_TERMS, missing[0].raw)
    return None
