"""Choosing what fits in the observation's byte budget.

Order of admission, each step with a share of the budget (unused share carries over):

1. the header of every error and warning template (most severe first) — 40 %;
2. one event per time bucket, so every stretch of the window is seen, the last one too — 30 %;
3. the headers of the other templates: rare ones first, then by volume — 15 %;
4. error templates that did not fit yet, then examples (one per shown template, then a second
   …), then a second event per bucket, then any template left — the rest.

Events never repeat a message: no two shown events have the same shown (redacted) text. A
bucket's event is its best candidate of a template no shown event has (``key``: the message
with its variable parts masked); failing that, for the one event that keeps its stretch of
time covered, its best candidate with a message not shown yet; failing that, none, and the
bytes go to the steps after. A bucket's second event is always of a template not shown.
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
    key: str | None = None
    """For an event: what makes two events say the same thing (never two shown)."""
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


class _Admission:
    """What has been admitted so far, and the bytes it took."""

    def __init__(self, patterns: Sequence[PatternDraft], budget: int) -> None:
        self.patterns = patterns
        self.budget = budget
        self.used = 0
        self.admitted: list[int] = []
        self.admitted_set: set[int] = set()
        self.examples: dict[int, list[Draft]] = {}
        self.events: list[Draft] = []
        self.event_keys: set[str] = set()
        self.event_texts: set[str] = set()
        self.clipped = False
        self.frames_dropped = False

    def _take(self, draft: Draft, cap: float) -> bool:
        if self.used + draft.size > cap:
            return False
        self.used += draft.size
        self.clipped = self.clipped or draft.clipped
        self.frames_dropped = self.frames_dropped or draft.frames_dropped
        return True

    def pattern(self, index: int, cap: float) -> None:
        if index not in self.admitted_set and self._take(self.patterns[index].header, cap):
            self.admitted.append(index)
            self.admitted_set.add(index)
            self.examples[index] = []

    def example(self, index: int, round_number: int) -> None:
        candidates = self.patterns[index].examples
        if round_number < len(candidates) and self._take(candidates[round_number], self.budget):
            self.examples[index].append(candidates[round_number])

    def event(self, bucket: Sequence[Draft], cap: float, cover: bool) -> None:
        """Admit a bucket's first candidate of a template no shown event has; with
        ``cover``, failing that, its first candidate whose message no shown event has."""
        fresh = [draft for draft in bucket if _text(draft) not in self.event_texts]
        new = [draft for draft in fresh if draft.key is None or draft.key not in self.event_keys]
        chosen = new[:1] or (fresh[:1] if cover else [])
        if chosen and self._take(chosen[0], cap):
            self.events.append(chosen[0])
            if chosen[0].key is not None:
                self.event_keys.add(chosen[0].key)
            self.event_texts.add(_text(chosen[0]))

    def selection(self) -> Selection:
        shown: list[JsonObject] = []
        for index in self.admitted:
            body = dict(self.patterns[index].header.body)
            body["examples"] = [draft.body for draft in self.examples[index]]
            shown.append(body)
        ordered_events = sorted(self.events, key=_event_time)
        return Selection(
            patterns=tuple(shown),
            events=tuple(draft.body for draft in ordered_events),
            shown=frozenset(self.admitted),
            clipped=self.clipped,
            frames_dropped=self.frames_dropped,
        )


def select(
    patterns: Sequence[PatternDraft],
    events_by_bucket: Sequence[Sequence[Draft]],
    budget: int,
    examples_per_pattern: int,
) -> Selection:
    """Admit patterns (already in priority order), examples and events within ``budget``
    bytes (the caller has already taken the fixed part of the result off it); each bucket
    lists its event candidates best first."""
    state = _Admission(patterns, budget)
    caps = [budget * share for share in _SHARES]
    caps[1] += caps[0]
    caps[2] += caps[1]
    severe = [index for index, draft in enumerate(patterns) if draft.severe]
    others = [index for index, draft in enumerate(patterns) if not draft.severe]
    for index in severe:
        state.pattern(index, caps[0] if state.admitted else budget)
    for bucket in events_by_bucket:
        state.event(bucket, caps[1], cover=True)
    for index in others:
        state.pattern(index, caps[2] if state.admitted else budget)
    for index in severe:
        state.pattern(index, budget)
    for round_number in range(examples_per_pattern):
        for index in list(state.admitted):
            state.example(index, round_number)
    shown_before = set(map(id, state.events))
    for bucket in events_by_bucket:
        state.event([draft for draft in bucket if id(draft) not in shown_before], budget, False)
    for index in others:
        state.pattern(index, budget)
    return state.selection()


def _text(draft: Draft) -> str:
    message = draft.body.get("message")
    return message if isinstance(message, str) else ""


def _event_time(draft: Draft) -> str:
    moment = draft.body.get("ts")
    return moment if isinstance(moment, str) else ""
