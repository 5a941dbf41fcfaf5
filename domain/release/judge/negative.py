"""Rules for a negative observation: "no match for X in scope S", never broader.

* A search that did not read all of its scope (``skipped`` names parts) supports no
  negative observation at all.
* The claim says that nothing matched (else its polarity is wrong), and never that the thing
  did not happen, is ruled out, or holds everywhere; "never" is no broader than a search
  over all time, or than the window the claim writes.
* It names every term of the query (a searched ``status=503`` by "503" or "503s"), the
  service (or, as its subject, a name the search was for: "chk-03 never hit ..."), and the
  window (a time inside it or words for it); each time it writes lies inside the window.
* Of a SQL search it names every string filter's value and, for a time filter, a time on the
  filter's side of its bound.
* Its identifiers and decisive words are of the searched scope.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from factledger.domain.release.judge.claims import ParsedClaim, present
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.instants import evidence_instants, resolved, within
from factledger.domain.release.judge.negative_verbs import denies_searched, named_terms
from factledger.domain.release.judge.predicate_bounds import bound_cue, names_bound
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.sql_predicates import Predicate
from factledger.domain.release.judge.text_rules import has_stem
from factledger.domain.release.judge.trouble_forms import expressed, names_trouble
from factledger.domain.release.judge.words import ACRONYMS, SPECIFIC_TROUBLE, content_stems

__all__ = ["check_negative", "check_overreach"]

_NO_MATCH = re.compile(
    r"\b(no|none|zero|nothing|not\s+(?:a\s+single|any|one)|not\s+(?:find|found|see|show|"
    r"return|contain|match|turn|report|mention|list|log)\w*|"
    r"(?:did|do|does)\s*n[o']t\s+(?:find|return|show|contain|match|turn|report|mention|list|log)\w*|"
    r"found\s+no|returned\s+no|without\s+(?:any\s+)?match\w*|0\s+\w+|empty)\b",
    re.IGNORECASE,
)
_BROADER = re.compile(
    r"\b(did\s*n[o']t\s+happen|never\s+happened|does\s*n[o']t\s+exist|do\s+not\s+exist|"
    r"did\s*n[o']t\s+occur|never\s+occurred|not\s+the\s+cause|ruled?\s+out|rules\s+out|"
    r"excluded|exonerat\w*|(?:is|was|are|were)\s+healthy|not\s+affected|unaffected|"
    r"not\s+responsible|cannot\s+be|could\s*n[o']t\s+have|impossible|definitely|certainly|"
    r"works?\s+(?:fine|correctly|normally)|(?:is|was)\s+fine|"
    r"any\s+service|all\s+services|(?:of\s+)?any\s+kind|any\s+sort|every\s+service|whole\s+system|entire\s+system|"
    r"no\s+(?:issue|problem|fault|incident|outage)s?|never|"
    r"(?:did|does|do|was|were|is|are|has|have|had)\s*n[o']t\s+(?!find|found|match|return|show|"
    r"contain|turn|appear|log|record|see|seen|report|mention|list)\w+)\b",
    re.IGNORECASE,
)
_OVERREACH = re.compile(
    r"\b((?:is|was|are|were)\s+(?:healthy|fine)|(?<!be )ruled?\s+out|rules\s+out|not\s+affected|"
    r"unaffected|not\s+the\s+cause|exonerat\w*|not\s+responsible)\b",
    re.IGNORECASE,
)
_EVER = re.compile(r"\b(ever|at\s+all|anywhere|any\s+time|always)\b", re.IGNORECASE)
_PARTIAL = re.compile(
    r"\b(skipped|not\s+(?:been\s+)?(?:searched|read)|could\s+(?:not\s+)?be\s+read|readable|"
    r"left\s+out|that\s+were\s+read|it\s+read|was\s+read|not\s+conclusive|inconclusive|"
    r"incomplete|partial\w*|unread\w*|cannot\s+be\s+ruled\s+out)\b",
    re.IGNORECASE,
)
_WINDOW_WORDS = re.compile(
    r"\b(window|period|interval|hour|minutes?|range|time\s*frame|between|from|since|until|"
    r"during|searched|queried|that\s+time|same\s+time)\b",
    re.IGNORECASE,
)


def _outside_terms(text: str, views: Sequence[CallView], names: Sequence[str] = ()) -> str:
    """``text`` with the searched phrases blanked: the "No" of a search for "No space left on
    device" is no negation of the claim, nor of "No space left on device chk-03" when the
    claim writes the name ``chk-03`` elsewhere (``names``: the claim's identifiers)."""
    for view in views:
        query = view.scope.query.strip()
        phrases = {query}
        for name in names:
            if present(name.lower(), query.lower()):
                phrases.add(" ".join(re.sub(re.escape(name), " ", query, flags=re.I).split()))
        for phrase in phrases:
            if len(phrase) > 2:
                searched = r"\s+".join(re.escape(part) for part in phrase.split())
                text = re.sub(searched, lambda m: " " * len(m.group()), text, flags=re.I)
    return text


def _emphasis(ever: str, claim: ParsedClaim) -> bool:
    """True when "at all" stresses a negative that writes its own window ("no 503 at all
    between 15:12 and 15:30"): the window, checked against the scope below, bounds it."""
    return ever.lower().split() == ["at", "all"] and (
        bool(claim.times) or _WINDOW_WORDS.search(claim.text) is not None
    )


def check_negative(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """The negative observation's rules, in order."""
    if any(view.scope.skipped for view in views) and not _PARTIAL.search(claim.text):
        return Finding(GroundingReason.NEGATIVE_INCOMPLETE_SCOPE, _cue(claim))
    stated = _without_limits(claim)
    threshold = _threshold_cue(claim, views) or bound_cue(claim, views)
    if threshold is not None:
        stated = stated.replace(threshold, " ")
    query = " ".join(view.scope.query for view in views)
    scoped = _never_scoped(claim, views)
    denials = [
        (m, (scoped and m.group().lower() == "never") or denies_searched(stated, m.start(), query))
        for m in _BROADER.finditer(stated)
    ]
    searched = next((m.group() for m, denied in denials if denied), None)
    broader = next((m for m, denied in denials if not denied), None)
    ever = _EVER.search(stated)
    if ever is not None and _emphasis(ever.group(), claim):
        ever = None
    if ever is not None and any(_bounded(view) for view in views):
        return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, ever.group())
    if broader is not None:
        return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, broader.group())
    found_cue = _NO_MATCH.search(_outside_terms(claim.text, views, claim.identifiers))
    cue = found_cue.group() if found_cue is not None else threshold or searched
    if cue is None:
        return Finding(GroundingReason.POLARITY_MISMATCH)
    for view in views:
        found = _within_scope(claim, view, cue)
        if found is not None:
            return found
    return None


_NOT_UP = (
    r"\b(?:(?:did|does|do|was|were)\s*n[o']t|never|not)\s+(?:get|got|reach|exceed|go|went|rise|"
    r"rose|climb|return|recover|come|came)\w*(?:\s+(?:back|up|above|over))*"
    r"|\b(?:stayed|remained|kept|was|were|stuck)\s+(?:below|under|beneath|lower\s+than)"
)
_NOT_DOWN = (
    r"\b(?:(?:did|does|do|was|were)\s*n[o']t|never|not)\s+(?:drop|dropp|fell|fall|go|went|sink|"
    r"sank|dip)\w*(?:\s+(?:back|down|below|under))*"
    r"|\b(?:stayed|remained|kept|was|were)\s+(?:above|over|higher\s+than)"
)
_THRESHOLD = {
    ">": re.compile(_NOT_UP, re.I), ">=": re.compile(_NOT_UP, re.I),
    "<": re.compile(_NOT_DOWN, re.I), "<=": re.compile(_NOT_DOWN, re.I),
}  # fmt: skip


def _threshold_cue(claim: ParsedClaim, views: Sequence[CallView]) -> str | None:
    """ "never reached 0.9", "stayed below 0.9": the wording of a search for values past a
    threshold (``ratio >= 0.9``) that found none, when the claim writes that threshold and
    faces its way."""
    lowered = claim.text.lower()
    for view in views:
        shape = view.scope.shape
        for predicate in shape.predicates if shape else ():
            if predicate.op not in _THRESHOLD or predicate.strings or predicate.values == ("0",):
                continue
            if not all(present(value, lowered) for value in predicate.values):
                continue
            found = _THRESHOLD[predicate.op].search(claim.text)
            if found is not None:
                return found.group()
    return None


def _without_limits(claim: ParsedClaim) -> str:
    """The claim without the clauses that state the search's own limits ("one file was not
    searched", "so earlier failures cannot be ruled out")."""
    kept = [claim.text[a:b] for a, b in claim.clauses if not _PARTIAL.search(claim.text[a:b])]
    return " ; ".join(kept)


def check_overreach(claim: ParsedClaim, text: str) -> Finding | None:
    """A conclusion that declares something healthy, ruled out or not the cause, in words the
    evidence does not use: absence of a match never says that."""
    broader = _OVERREACH.search(claim.text)
    if broader is None or broader.group().lower() in text:
        return None
    return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, broader.group())


def _never_scoped(claim: ParsedClaim, views: Sequence[CallView]) -> bool:
    """True when a "never" of the claim is no broader than the search: no cited search had a
    window or a time filter (the query covered all time), or the claim writes the window
    ("never ... between 9 am and 10 am", its times then held inside it)."""
    if claim.times or _WINDOW_WORDS.search(claim.text):
        return True
    return not any(_bounded(view) for view in views)


def _bounded(view: CallView) -> bool:
    """True when the search had a window or a time filter."""
    if view.scope.start is not None:
        return True
    shape = view.scope.shape
    return any(evidence_instants(" ".join(p.values)) for p in (shape.predicates if shape else ()))


def _cue(claim: ParsedClaim) -> str | None:
    cue = _NO_MATCH.search(claim.text)
    return None if cue is None else cue.group()


def _within_scope(claim: ParsedClaim, view: CallView, cue: str) -> Finding | None:
    scope = view.scope
    lowered = claim.text.lower()
    broader = Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, cue)
    query = content_stems(_PAIR.sub(lambda m: _pair(m, lowered), scope.query))
    named = claim.stems | named_terms(scope.query, (word.raw for word in claim.words))
    if any(not has_stem(term, named) for term in query) and not present(
        scope.query.lower().strip(), lowered
    ):
        return broader
    if not _names_service(claim, view):
        return broader
    if scope.start is not None and scope.end is not None:
        found = _window(claim, view, cue)
        if found is not None:
            return found
    predicates = scope.shape.predicates if scope.shape else ()
    bounds = sorted(i for p in predicates for i in evidence_instants(" ".join(p.values)))
    for predicate in predicates:
        if predicate.aggregate or _names_predicate(claim, predicate, bounds[:1]):
            continue
        if not names_bound(claim, predicate, (view,)):
            return broader
    searched = content_stems(scope.text) | query
    for word in claim.words:
        decisive = next((t for t in SPECIFIC_TROUBLE if word.stem.startswith(t)), None)
        if decisive and not has_stem(word.stem, searched) and not expressed(decisive, scope.text):
            return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, word.raw)
    for token in claim.identifiers:
        if not present(token, scope.text):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, token)
    return None


def _names_service(claim: ParsedClaim, view: CallView) -> bool:
    """True when the claim names the searched service, or, as the subject before its denial,
    an identifier the search was for ("chk-03 never hit ..." of a search for "No space left
    on device chk-03" in the service's logs): a part of the service is no broader than the
    service."""
    lowered, service, query = claim.text.lower(), view.scope.service, view.scope.query
    if not service or present(service.lower(), lowered):
        return True
    if content_stems(service.replace("-", " ")) <= claim.stems:
        return True
    outside = _outside_terms(claim.text, (view,), claim.identifiers)
    denial = _NO_MATCH.search(outside) or _BROADER.search(outside)
    before = lowered[: denial.start()] if denial is not None else ""
    return any(
        present(token.lower(), query.lower()) and present(token.lower(), before)
        for token in claim.identifiers
    )


_PAIR = re.compile(r"\b[A-Za-z][\w.\-]*[=:]([\w.\-]+)")


def _pair(found: re.Match[str], claim: str) -> str:
    """A searched ``status=503`` is named by its value ("no 503", "no more 503s"): its key
    left out."""
    value = found.group(1)
    named = present(value, claim) or (value.isdigit() and present(f"{value}s", claim))
    return " " if named else found.group()


def _window(claim: ParsedClaim, view: CallView, cue: str) -> Finding | None:
    start, end = view.scope.start, view.scope.end
    assert start is not None
    assert end is not None
    for item in claim.times:
        if item.seconds is not None and not within(item, start, end):
            return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, item.text)
    if not claim.times and not _WINDOW_WORDS.search(claim.text):
        return Finding(GroundingReason.NEGATIVE_BROADER_THAN_SCOPE, cue)
    return None


def _names_predicate(claim: ParsedClaim, predicate: Predicate, first: list[datetime]) -> bool:
    """True when the claim names the predicate: its value, or a time on its side (times of
    day read on the date of the query's earliest time bound)."""
    bounds = evidence_instants(" ".join(predicate.values))
    if bounds:
        if not claim.times:
            return False  # the time filter is not named: the claim is broader
        anchor = (first or bounds)[0]
        return all(
            _on_side(resolved(t, anchor, ranged=True), predicate.op, bounds) for t in claim.times
        )
    if predicate.strings:
        values = [_value_words(v) for v in predicate.values]
        named = [v <= claim.stems for v in values]
        return any(named) if predicate.op == "or" else all(named)
    if predicate.op in {">", "!="} and predicate.values == ("0",):
        # "errors > 0": that something matched at all, what the claim denies; it names what
        wanted = content_stems(predicate.column.replace("_", " ")) - ACRONYMS
        lowered = claim.text.lower()
        return all(has_stem(word, claim.stems) or names_trouble(word, lowered) for word in wanted)
    return all(present(v, claim.text.lower()) for v in predicate.values)


def _value_words(value: str) -> frozenset[str]:
    """The words a claim must write to name a filter value (a path's ``v1`` or ``{id}``
    left out: ``/v2/orders/{id}`` is named by "orders")."""
    found = frozenset(word for word in content_stems(value) if len(word) > 2)
    return found or content_stems(value) or frozenset({value.lower()})


def _on_side(instant: datetime, op: str, bounds: Sequence[datetime]) -> bool:
    if op in {">=", ">"}:
        return instant >= bounds[0]
    if op in {"<=", "<"}:
        return instant <= bounds[0]
    return True
