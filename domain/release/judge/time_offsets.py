"""Offsets a claim states between two of its own times face the right way.

"The timeouts happened at 10:02, three minutes before the change at 10:05" states an order
between two times the claim writes, each matched to its evidence by the time rules; the order
is the claim's own and can be wrong on its own ("three minutes *after* the change at 10:05").
Where a sentence writes a time, then an offset ("3 minutes", "three minutes", "an hour")
with ``before``/``after`` (``earlier than``, ``later than``, ``prior to``), then a second time,
the first must lie on that side of the second. Only the direction is held: the size of an
offset is often rounded ("about three minutes").
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.instants import ClaimTime
from factledger.domain.release.judge.reasons import Finding, GroundingReason

__all__ = ["check_offsets"]

_COUNT: Final = (
    r"(?:\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|a\s+few|several|some)"
)
_OFFSET: Final = re.compile(
    rf"\b{_COUNT}\s+(?:more\s+)?(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|"
    r"hours?|days?)\s+(before|after|earlier\s+than|later\s+than|prior\s+to|ahead\s+of)\b",
    re.IGNORECASE,
)
_SENTENCE: Final = re.compile(r"[.;!?](?:\s|$)")
_AFTER: Final = frozenset({"after", "later than"})
_EVENT: Final = re.compile(r"\b(?:the|its|their|a|an)\s+\w[\w\s'-]*\b(?:at|from|of)\s*$", re.I)
_REACH: Final = 60
"""Most characters between the offset and the event time it is counted from."""


def _sentence_bounds(text: str, position: int) -> tuple[int, int]:
    start = 0
    for m in _SENTENCE.finditer(text):
        if m.end() <= position:
            start = m.end()
        else:
            return start, m.start()
    return start, len(text)


def _around(
    times: tuple[ClaimTime, ...], sentence: tuple[int, int], offset: tuple[int, int], text: str
) -> tuple[ClaimTime, ClaimTime] | None:
    """The time before the offset and the event time after it, or None. The second must be
    an event's time ("before the change at 10:05"), not the offset's own dating ("43 ms
    before 16:05" dates a measurement)."""
    start, end = sentence
    at, to = offset
    before = [t for t in times if start <= t.start and t.end <= at and t.seconds is not None]
    after = [t for t in times if to <= t.start and t.end <= end and t.seconds is not None]
    if not before or not after:
        return None
    between = text[to : after[0].start]
    if not _EVENT.search(between) or len(between) > _REACH:
        return None
    return before[-1], after[0]


def check_offsets(claim: ParsedClaim) -> Finding | None:
    """Each stated offset between two of the claim's times faces the way they lie."""
    for m in _OFFSET.finditer(claim.text):
        start, end = _sentence_bounds(claim.text, m.start())
        pair = _around(claim.times, (start, end), (m.start(), m.end()), claim.text)
        if pair is None:
            continue
        first, second = pair
        assert first.seconds is not None  # kept by _around
        assert second.seconds is not None
        delta = first.seconds - second.seconds
        slack = max(first.precision, second.precision)
        later = " ".join(m.group(1).lower().split()) in _AFTER
        if (later and delta < -slack) or (not later and delta > slack):
            return Finding(GroundingReason.TIME_MISMATCH, m.group())
    return None
