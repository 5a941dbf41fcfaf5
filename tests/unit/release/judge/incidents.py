"""Cited calls of incidents other than the demo's, in the shapes the tools return."""

from __future__ import annotations

from typing import Any, cast

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge import ClaimEvidence, Finding, ground


def sql_result(
    sql: str, columns: list[str], rows: list[list[object]], **scope: object
) -> JsonObject:
    """A query_sql agent result."""
    return cast(
        "JsonObject",
        {
        "tool_call_id": "q",
        "status": "READY",
        "evidence_status": "EVIDENCE_FOUND" if rows else "NO_EVIDENCE",
        "scope": {"datasource": "shop", "tables": ["orders"], "columns": columns, "sql": sql,
                  "dialect": "mysql", **scope},
        "truncated": False,
        "columns": columns,
        "rows": rows,
        },
    )  # fmt: skip


def log_result(
    service: str,
    query: str,
    patterns: list[tuple[str, int, str, list[str]]],
    *,
    start: str = "2026-11-28T14:00:00.000Z",
    end: str = "2026-11-28T15:00:00.000Z",
    skipped: JsonObject | None = None,
) -> JsonObject:
    """A query_logs agent result: patterns as (template, count, level, example messages)."""
    listed: list[Any] = []
    levels: dict[str, int] = {}
    for number, (template, count, level, messages) in enumerate(patterns):
        examples = [
            {"ts": f"2026-11-28T14:{32 + i:02d}:05.120Z", "level": level, "message": message,
             "fields": {}}
            for i, message in enumerate(messages)
        ]  # fmt: skip
        listed.append({"fingerprint": f"fp{number}", "template": template, "count": count,
                       "first_seen": "2026-11-28T14:32:05.120Z",
                       "last_seen": "2026-11-28T14:58:41.003Z", "levels": {level: count},
                       "examples": examples})  # fmt: skip
        levels[level] = levels.get(level, 0) + count
    total = sum(levels.values())
    return cast(
        "JsonObject",
        {
        "tool_call_id": "l",
        "status": "READY",
        "evidence_status": "EVIDENCE_FOUND" if total else "NO_EVIDENCE",
        "scope": {"service": service, "query": query, "start": start, "end": end,
                  "skipped": skipped or {}},
        "truncated": False,
        "matched_count": total,
        "observed_range": {"first": "2026-11-28T14:32:05.120Z" if total else None,
                           "last": "2026-11-28T14:58:41.003Z" if total else None},
        "level_counts": levels,
        "pattern_count": len(listed),
        "patterns": listed,
        "events": [],
        },
    )  # fmt: skip


def knowledge_result(query: str, excerpts: list[tuple[str, str]]) -> JsonObject:
    """A lookup_knowledge agent result: excerpts as (title, text)."""
    return cast(
        "JsonObject",
        {
            "tool_call_id": "k",
            "status": "READY",
            "evidence_status": "EVIDENCE_FOUND",
            "scope": {"query": query},
            "truncated": False,
            "relevance_level": "HIGH",
            "evidence": [
                {
                    "document_id": f"doc-{i}.md",
                    "title": title,
                    "section": "Symptoms",
                    "excerpt": text,
                    "relevance_level": "HIGH",
                }
                for i, (title, text) in enumerate(excerpts)
            ],
        },
    )


# Incident 1: an online shop, failed orders after a deploy (MySQL).
FAILED_ORDERS = sql_result(
    "SELECT COUNT(`id`) AS `failed_orders` FROM `orders` WHERE `status` = 'failed' AND "
    "`created_at` >= '2026-11-28 14:32:00' LIMIT 201",
    ["failed_orders"],
    [[46]],
)
BY_STATUS = sql_result(
    "SELECT `status`, COUNT(`id`) AS `orders` FROM `orders` WHERE `created_at` >= "
    "'2026-11-28 14:32:00' GROUP BY `status` LIMIT 201",
    ["status", "orders"],
    [["failed", 46], ["paid", 184]],
)
NO_REFUNDS = sql_result(
    "SELECT COUNT(`id`) AS `refunds` FROM `orders` WHERE `status` = 'refunded' AND "
    "`created_at` >= '2026-11-28 14:32:00' HAVING COUNT(`id`) > 0 LIMIT 201",
    ["refunds"],
    [],
)
# Incident 2: search latency, upstream index timeouts (logs).
SEARCH_TIMEOUTS = log_result(
    "search-api",
    "timeout",
    [
        ("upstream timeout after <*>ms calling index-svc shard=<*>", 90, "ERROR",
         ["upstream timeout after 5000ms calling index-svc shard=7",
          "upstream timeout after 5000ms calling index-svc shard=3"]),
        ("circuit breaker open for index-svc, failing fast in <*>ms", 30, "WARN",
         ["circuit breaker open for index-svc, failing fast in 46ms"]),
    ],
)  # fmt: skip
CACHE_MISSES = log_result(
    "search-api",
    "cache miss",
    [
        (
            "cache miss ratio <*>% over last <*> s",
            12,
            "WARN",
            ["cache miss ratio 35% over last 60 s"],
        )
    ],
)
NO_INDEX_OOM = log_result("index-svc", "OutOfMemoryError", [])
NO_AUTH_EXPIRED = log_result("auth", "token expired", [], skipped={"unreadable": 2})
# Incident 3: a message broker out of disk (runbook).
BROKER_RUNBOOK = knowledge_result(
    "kafka broker disk full",
    [
        ("kafka: broker disk pressure (KAFKA-DISK-01)",
         "When a broker's data disk goes above 85 % usage, the broker stops accepting writes "
         "because the log cleaner cannot keep up. Producers then see NOT_ENOUGH_REPLICAS."),
        ("kafka: broker disk pressure (KAFKA-DISK-01)",
         "Never delete segment files by hand. Lower `retention.bytes` to 512 MiB on the "
         "largest topics instead; the cleaner frees space within about 5 minutes."),
        ("kafka: broker disk pressure (KAFKA-DISK-01)",
         "Only the brokers of rack b are affected in the common case; both replicas of a "
         "partition on rack b then lag."),
    ],
)  # fmt: skip

SUPPORT = AnalysisKind.SUPPORTING_EVIDENCE
NEGATIVE = AnalysisKind.NEGATIVE_OBSERVATION


def judge_one(kind: AnalysisKind, claim: str, *cited: JsonObject) -> Finding | None:
    """The finding on one analysis (None when grounded)."""
    evidence = ClaimEvidence(kind, claim, tuple(cited), tuple(c["scope"] for c in cited))
    return ground("See the analyses.", [evidence]).analyses[0]


def reason_of(kind: AnalysisKind, claim: str, *cited: JsonObject) -> str | None:
    """The reason code of the finding (None when grounded)."""
    found = judge_one(kind, claim, *cited)
    return None if found is None else found.reason.value
