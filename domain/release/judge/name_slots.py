"""A name put where the cited evidence names something else: "the northbank acquirer" of
``acquirer=southbank``, "the archiver pool" of ``renderer pool started``.

The evidence fills a slot before a noun (``renderer pool``) or after it as a key
(``acquirer=southbank``, ``acquirer: southbank``). A claim that writes the same noun with a
word of its own in that slot (a word none of its cited calls holds) while leaving out the
word the evidence fills it with is naming another thing: UNGROUNDED_ENTITY.

Only a slot the evidence always fills with the same word is read (a noun the evidence writes
with several modifiers can be named in other words), and words that describe rather than name
(``slow``, ``whole``, ``new``...) are never taken for a name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.release.judge import result_values
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.words import ACRONYMS, Word, content_of, stem, words

__all__ = ["check_name_slots"]

_DESCRIBING = frozenset(
    """slow fast whole entire same new old first last other single main primary secondary
    local remote full empty busy idle stuck broken healthy bad good big small large long
    short high low late early current previous next usual normal own shared overall
    total average peak live active expected affected failing failed working""".split()  # noqa: SIM905 - a word list reads best as words
)
"""Words that describe a thing instead of naming it: never read as a name in a slot."""
_GAP = re.compile(r"\s+")
_SLOT_BEFORE = r"(?<![\w-])([a-z]+)\s+{head}s?(?![\w-])"
_SLOT_KEY = (
    r"(?<![\w-]){head}s?\s*[=:]\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"
    r"|\(\s*{head}s?\s+([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)\s*\)"
)
"""A key's value (``bucket=westgate``) or a parenthesised name (``(relation orders)``)."""
_NAME_PART = re.compile(r"(?:[-_]|\w\.)$")
_NAME_NEXT = re.compile(r"[-_]|\.\w")
_FORMS = re.compile(r"(?:ed|ing|ly|est)$")
"""Endings of verbs, adverbs and superlatives: words that do not name a thing."""


def _name_like(word: str) -> bool:
    return (
        word.isalpha()
        and len(word) >= 4
        and word not in _DESCRIBING
        and word not in ACRONYMS
        and not _FORMS.search(word)
        and content_of(words(word)) == frozenset({stem(word)})
    )


_TIME_UNITS = re.compile(r"(?:second|minute|hour|day|week|month)s?$")


def _head_like(word: str) -> bool:
    """A noun a name can stand before: no acronym, unit of time, verb or adverb form."""
    return (
        word.isalpha()
        and len(word) >= 4
        and word not in ACRONYMS
        and not _TIME_UNITS.match(word)
        and not _FORMS.search(word)
    )


def _fillers(head: str, texts: Sequence[str]) -> set[str]:
    """The names the evidence writes in the slot of ``head``: as its key's value when it is a
    key or named in parentheses (``bucket=westgate``, ``(relation orders)``), else a word
    written nowhere but right before it
    (``renderer pool``)."""
    key = re.compile(_SLOT_KEY.format(head=re.escape(head)))
    keyed = {m[1] or m[2] for text in texts for m in key.finditer(text)}
    if keyed:
        return keyed
    before = re.compile(_SLOT_BEFORE.format(head=re.escape(head)))
    found = {m[1] for text in texts for m in before.finditer(text)}
    joined = "\n".join(texts)
    return {
        word
        for word in found
        if _name_like(word)
        and len(re.findall(rf"(?<![\w-]){word}(?![\w-])", joined))
        == len(re.findall(rf"(?<![\w-]){word}\s+{re.escape(head)}s?(?![\w-])", joined))
    }


def _texts(views: Sequence[CallView]) -> list[str]:
    return [
        text.lower()
        for view in views
        for key, text in result_values.strings(view.content)
        if key not in {"sql", "ts", "first_seen", "last_seen"}
    ]


def _joined(claim: ParsedClaim, first: Word, second: Word) -> bool:
    """True when either word is part of a hyphenated or dotted name of the claim."""
    before = claim.text[max(0, first.start - 2) : first.start]
    end = second.start + len(second.raw)
    return _NAME_PART.search(before) is not None or _NAME_NEXT.match(claim.text, end) is not None


def check_name_slots(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Each "<word> <noun>" of the claim whose word no cited call holds, where the evidence
    always writes that noun with one other word, is refused."""
    if not views:
        return None
    texts: list[str] | None = None
    stems = frozenset().union(*(view.stems for view in views))
    evidence = " ".join(view.text for view in views)
    for first, second in zip(claim.words, claim.words[1:], strict=False):
        gap = claim.text[first.start + len(first.raw) : second.start]
        name, head = first.raw.lower(), second.raw.lower()
        if gap and not _GAP.fullmatch(gap):
            continue
        if not _name_like(name) or not _head_like(head) or _joined(claim, first, second):
            continue
        if first.stem in stems or name in evidence or second.stem not in stems:
            continue
        texts = _texts(views) if texts is None else texts
        single = head[:-1] if head.endswith("s") and not head.endswith("ss") else head
        fillers = _fillers(single, texts)
        if len(fillers) != 1:
            continue
        filler = next(iter(fillers))
        if stem(filler) in claim.stems or filler in claim.text.lower():
            continue
        return Finding(GroundingReason.UNGROUNDED_ENTITY, f"{first.raw} {second.raw}")
    return None
