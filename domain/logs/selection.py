"""Choosing what fits in the observation's byte budget.

Order of admission, each step with a share of the budget (unused share carries over):

1. the header of every error and warning template (most severe first) — 40 %;
2. one event per time bucket, so every stretch of the window is seen, the last one too — 30 %;
3. the headers of the other templates: rare ones first, then by volume — 15 %;
4. error templates that did not fit yet, then examples (one per shown template, then a second
   …), then a second event per bucket, then any template left — the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from attrs import field, frozen

from factledger.domain.json_types import JsonObject, JsonValue

__all__ = ["Draft", "PatternDraft", "Selection", "encoded_size", "select"]

_SHARES: Final = (0.40, 0.30, 0.15)


def encoded_size(value: JsonValue) -> int:
    """Bytes of a value in compact UTF-8 JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


@frozen
class Draft:
    """A JSON object that may be shown, and what showing it admits to."""

    body: JsonObject
    """The object."""
    clipped: bool = False
    """A text in it was cut to its length limit."""
    frames_dropped: bool = False
    """A stack trace in it was folded."""
    size: int = field(init=False)
    """Its encoded size plus one separator."""

    @size.default
    def _size(self) -> int:
        return encoded_size(self.body) + 1


@frozen
class PatternDraft:
    """A template that may be shown: its header, and its candidate examples in order."""

    header: Draft
    """The pattern without examples (``examples`` is an empty list in it)."""
    examples: tuple[Draft, ...]
    """Redacted example records, best first."""
    severe: bool
    """An error or warning template (admitted first)."""
    count: int
    """Records of this template."""


@frozen
class Selection:
    """What was admitted."""

    patterns: tuple[JsonObject, ...]
    """Shown patterns with their admitted examples, in admission order."""
    events: tuple[JsonObject, ...]
    """Shown events, in time order."""
    shown: frozenset[int]
    """Indexes (into the ordered pattern list) of the shown patterns."""
    clipped: bool
    """Something shown was clipped."""
    frames_dropped: bool
    """A shown stack trace was folded."""


def select(  # noqa: PLR0915  # the admission order reads best as one sequence of steps
    patterns: Sequence[PatternDraft],
    events_by_bucket: Sequence[Sequence[Draft]],
    budget: int,
    examples_per_pattern: int,
) -> Selection:
    """Admit patterns (already in priority order), examples and events within ``budget``
    bytes (the caller has already taken the fixed part of the result off it)."""
    used = 0
    admitted: list[int] = []
    admitted_set: set[int] = set()
    examples: dict[int, list[Draft]] = {}
    events: list[Draft] = []
    clipped = False
    frames_dropped = False
    caps = [budget * share for share in _SHARES]
    caps[1] += caps[0]
    caps[2] += caps[1]

    def admit_pattern(index: int, cap: float) -> bool:
        nonlocal used, clipped
        draft = patterns[index].header
        if used + draft.size > cap:
            return False
        used += draft.size
        admitted.append(index)
        admitted_set.add(index)
        examples[index] = []
        clipped = clipped or draft.clipped
        return True

    def admit_event(draft: Draft, cap: float) -> bool:
        nonlocal used, clipped, frames_dropped
        if used + draft.size > cap:
            return False
        used += draft.size
        events.append(draft)
        clipped = clipped or draft.clipped
        frames_dropped = frames_dropped or draft.frames_dropped
        return True

    severe = [index for index, draft in enumerate(patterns) if draft.severe]
    others = [index for index, draft in enumerate(patterns) if not draft.severe]
    for index in severe:
        admit_pattern(index, caps[0] if admitted else budget)
    for bucket in events_by_bucket:
        if bucket:
            admit_event(bucket[0], caps[1])
    for index in others:
        admit_pattern(index, caps[2] if admitted else budget)
    for index in severe:
        if index not in admitted_set:
            admit_pattern(index, budget)
    for round_number in range(examples_per_pattern):
        for index in list(admitted):
            candidates = patterns[index].examples
            if round_number < len(candidates):
                draft = candidates[round_number]
                if used + draft.size <= budget:
                    used += draft.size
                    examples[index].append(draft)
                    clipped = clipped or draft.clipped
                    frames_dropped = frames_dropped or draft.frames_dropped
    for bucket in events_by_bucket:
        for draft in bucket[1:2]:
            admit_event(draft, budget)
    for index in others:
        if index not in admitted_set:
            admit_pattern(index, budget)
    shown: list[JsonObject] = []
    for index in admitted:
        body = dict(patterns[index].header.body)
        body["examples"] = [draft.body for draft in examples[index]]
        shown.append(body)
    ordered_events = sorted(events, key=_event_time)
    return Selection(
        patterns=tuple(shown),
        events=tuple(draft.body for draft in ordered_events),
        shown=frozenset(admitted),
        clipped=clipped,
        frames_dropped=frames_dropped,
    )


def _event_time(draft: Draft) -> str:
    moment = draft.body.get("ts")
    return moment if isinstance(moment, str) else ""
