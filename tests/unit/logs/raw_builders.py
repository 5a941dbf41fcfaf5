"""Building raw results for tests (the way a backend would)."""

from __future__ import annotations

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, encode_raw, query_header

OPEN = LogQuery(service=None, text=None, start=None, end=None, limit=1000)


def record(
    message: str,
    ts: str | None = "2024-06-01T10:00:00.000Z",
    level: str | None = "INFO",
    stack: list[str] | None = None,
    fields: dict[str, JsonValue] | None = None,
) -> JsonObject:
    return {
        "ts": ts,
        "service": "orders",
        "level": level,
        "message": message,
        "fields": fields or {},
        "stack": list(stack or []),
        "source": "orders.log",
        "line": 1,
    }


def raw(records: list[JsonObject], query: LogQuery = OPEN, matched: int | None = None) -> str:
    levels: dict[str, int] = {}
    for item in records:
        name = item["level"] if isinstance(item["level"], str) else UNKNOWN_LEVEL
        levels[name] = levels.get(name, 0) + 1
    total = len(records) if matched is None else matched
    if total > len(records):
        levels[UNKNOWN_LEVEL] = levels.get(UNKNOWN_LEVEL, 0) + total - len(records)
    times = [item["ts"] for item in records if isinstance(item["ts"], str)]
    header = RawHeader(
        query=query_header(query),
        window_start=min(times) if times else None,
        window_end=max(times) if times else None,
        matched_count=total,
        returned_count=len(records),
        limit_reached=total > len(records),
        level_counts=levels,
    )
    return encode_raw(header, records)


def obj(value: object) -> dict[str, object]:
    """The value as a JSON object (the test fails when it is not one)."""
    assert isinstance(value, dict)
    return value


def arr(value: object) -> list[object]:
    """The value as a JSON array (the test fails when it is not one)."""
    assert isinstance(value, list)
    return value
