"""Names a sentence of a claim puts together are together in one line of the evidence.

A log line that names several things of one kind (``created job ir-0630 while ir-0610,
ir-0620 still active``) binds them: the line is one fact about those names. A sentence of the
claim that names three or more hyphenated names of the cited lines, where the lines do bind
such names (some line holds two or more of them), must find all of them in one line;
else it joins names of different facts ("ir-0620 was started while ir-0600 and ir-0630 were
active" of lines that never name ir-0630 with ir-0620): UNGROUNDED_ENTITY. Names the lines
never write together (each client in a line of its own) are left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_line_names"]

_NAME = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
_SENTENCE = re.compile(r";\s|\.\s|:\s")


def _items(content: JsonValue) -> list[JsonValue]:
    """A log result's events and the examples of its patterns."""
    if not isinstance(content, dict):
        return []
    events = content.get("events")
    items: list[JsonValue] = list(events) if isinstance(events, list) else []
    patterns = content.get("patterns")
    for pattern in patterns if isinstance(patterns, list) else []:
        examples = pattern.get("examples") if isinstance(pattern, dict) else None
        items.extend(examples if isinstance(examples, list) else [])
    return items


def _lines(content: JsonValue) -> list[str]:
    """The messages of a log result's lines, lower-cased."""
    found: list[str] = []
    for item in _items(content):
        message = item.get("message") if isinstance(item, dict) else None
        if isinstance(message, str):
            found.append(message.lower())
    return found


def check_line_names(claim: ParsedClaim, views: Sequence[CallView]) -> Finding | None:
    """Three or more names of one sentence, bound by the lines, are in one line."""
    lines = [set(_NAME.findall(line)) for view in views for line in _lines(view.content)]
    if not any(len(names) >= 2 for names in lines):
        return None
    written = set().union(*lines)
    for sentence in _SENTENCE.split(claim.text.lower()):
        named = {name for name in _NAME.findall(sentence) if name in written}
        if len(named) < 3:
            continue
        bound = [names & named for names in lines]
        if max(len(names) for names in bound) < 2:
            continue  # the lines never write these names together
        if not any(named <= names for names in lines):
            return Finding(GroundingReason.UNGROUNDED_ENTITY, ", ".join(sorted(named)))
    return None
