"""Which records may be shown as events: per stretch of the observed time range, a few
candidates in order of preference (most severe first, then the rarer template, then the
earlier record), never two of one template in a stretch.

Selection (``selection.select``) then admits, per stretch, the first candidate whose
message is not shown yet: events never repeat a message, so a dominant template is shown
once and the other stretches show what else happened in them.
"""

from __future__ import annotations

from typing import Final

from factledger.domain.logs.template_stats import EPOCH, ORDER, RANK, TEMPLATE, Candidate
from factledger.domain.logs.time_sketch import TimeSketch
from factledger.domain.logs.timestamps import parse_instant

__all__ = ["CANDIDATES_PER_BUCKET", "event_buckets"]

CANDIDATES_PER_BUCKET: Final = 4
"""Candidates kept per stretch (the selection takes at most two of them)."""


def event_buckets(
    sketch: TimeSketch[Candidate],
    untimed: list[Candidate],
    first_ts: str | None,
    last_ts: str | None,
    bucket_count: int,
    counts: dict[str, int],
    merged_of: dict[str, str],
) -> list[list[Candidate]]:
    """The candidates of each of ``bucket_count`` equal stretches of ``first_ts`` to
    ``last_ts`` (then one stretch of untimed records, when there are any)."""
    buckets: list[list[Candidate]] = [[] for _ in range(bucket_count)]
    start = parse_instant(first_ts) if first_ts is not None else None
    end = parse_instant(last_ts) if last_ts is not None else None
    if start is not None and end is not None:
        low = start.timestamp()
        span = max(end.timestamp() - low, 1e-9)
        for entry in sketch.entries():
            candidate = entry[3]
            moment = candidate[EPOCH]
            epoch = moment if moment is not None else low
            index = min(bucket_count - 1, max(0, int((epoch - low) / span * bucket_count)))
            buckets[index].append(candidate)
    if untimed:
        buckets.append(list(untimed))

    def preference(candidate: Candidate) -> tuple[int, int, int]:
        return (-candidate[RANK], counts[merged_of[candidate[TEMPLATE]]], candidate[ORDER])

    chosen: list[list[Candidate]] = []
    for bucket in buckets:
        bucket.sort(key=preference)
        picked: list[Candidate] = []
        seen: set[str] = set()
        for candidate in bucket:
            template = merged_of[candidate[TEMPLATE]]
            if template not in seen:
                seen.add(template)
                picked.append(candidate)
                if len(picked) == CANDIDATES_PER_BUCKET:
                    break
        chosen.append(picked)
    return chosen
