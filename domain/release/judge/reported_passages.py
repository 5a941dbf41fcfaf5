"""What a claim says a document says is said in one passage of it.

"The runbook says a full state-store disk kills the stream thread" reports one statement of
the runbook: its cause and its effect are written together, in one item of a list or one
paragraph. A statement whose words the cited texts hold only apart ("a poison message" in
one known cause, "the stream thread dies" in another) is a statement the document does not
make: UNGROUNDED_TERMS, quoting the words outside the passage that holds most of them
("the broker restarts" of a passage on the coordinator, "broker" written only under
symptoms). A passage is read with the title and section of its excerpt; words no cited text
holds are left to word coverage; a statement of fewer than three found words is not held;
a remedy reported as steps ("the runbook says to drain the host and step the clock") ranges
over a list by its nature and is not held to one item.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason
from factledger.domain.release.judge.text_rules import has_stem
from factledger.domain.release.judge.words import META, content_stems, word_marks

__all__ = ["check_reported_passage"]

_DOCUMENT = r"(?:runbook|playbook|document|doc|docs|documentation|guide|article|wiki)"
_REPORTED: Final = re.compile(
    rf"\b{_DOCUMENT}\s+(?:says|said|explains|describes|states|notes|warns)(?:\s+that)?\s+"
    rf"|\b(?:according\s+to|per)\s+the\s+(?:[\w-]+\s+)?{_DOCUMENT},?\s+",
    re.IGNORECASE,
)
_END: Final = re.compile(r",\s+(?:and|but|while|so|as|which)\b|;|:\s|\s[-–—]\s|\.(?:\s|$)|$")
_REMEDY: Final = re.compile(r"(?:not\s+|never\s+)?to\s", re.IGNORECASE)
_ITEM: Final = re.compile(r"(?:^|\s)(?:[-*•]|\d{1,2}[.)])\s+(?=\S)")
"""Where an item of a list begins: a bullet or a number before a space."""
_SCOPE: Final = frozenset({"scope"})
_FEWEST: Final = 3
"""Words of a statement found in the cited texts below which its passage is not sought."""


def check_reported_passage(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """A statement the claim reports from a document is held by one passage of the cited
    texts."""
    if "the" not in claim.text.lower():
        return None
    for reported in _REPORTED.finditer(claim.text):
        rest = claim.text[reported.end() :]
        if _REMEDY.match(rest):
            continue
        end = _END.search(rest)
        statement = rest[: end.start() if end else len(rest)]
        stray = _strays(statement, views)
        if stray:
            return Finding(GroundingReason.UNGROUNDED_TERMS, stray)
    return None


def _strays(statement: str, views: Sequence[CallView]) -> str:
    """The words of ``statement`` found in the cited texts but outside the passage that holds
    most of them ("" when there are none, or too few words to tell)."""
    wanted = [m for m in word_marks(statement) if m[0].lower() not in META]
    passages = [content_stems(p) for view in views for p in _passages(view)]
    if not passages:
        return ""
    every = frozenset().union(*passages)
    found = {m[1]: m[0] for m in wanted if has_stem(m[1], every)}
    if len(found) < _FEWEST:
        return ""
    best = max(passages, key=lambda stems: sum(has_stem(s, stems) for s in found))
    outside = [raw for s, raw in found.items() if not has_stem(s, best)]
    return " ".join(outside)


def _passages(view: CallView) -> Iterator[str]:
    """The prose of a call split into passages: each item of a list in a text, read with
    the other texts of its object (an excerpt with its title and section)."""
    yield from _object_passages(view.content)


def _object_passages(value: JsonValue) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from _object_passages(item)
        return
    if not isinstance(value, dict):
        return
    texts = [item for item in value.values() if isinstance(item, str) and " " in item]
    for key, item in value.items():
        if isinstance(item, dict | list) and key not in _SCOPE:
            yield from _object_passages(item)
    if texts:
        longest = max(texts, key=len)
        heading = " ".join(text for text in texts if text is not longest)
        for part in _ITEM.split(longest):
            if part.strip():
                yield f"{heading} {part}"
