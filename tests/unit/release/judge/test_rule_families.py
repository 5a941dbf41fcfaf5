"""Rule families of the grounding judge, each with an honest claim as a model writes it and a
twin one edit away, over incidents of their own (a render farm, an upload service, a
job scheduler, a DNS edge)."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import (
    NEGATIVE,
    SUPPORT,
    log_result,
    reason_of,
    sql_result,
)

JOB_TIMES = sql_result(
    "SELECT AVG(duration_ms) AS avg_duration_ms, MAX(duration_ms) AS max_duration_ms "
    "FROM jobs WHERE status = 'completed' AND finished_at < '2026-11-28 14:32:00'",
    ["avg_duration_ms", "max_duration_ms"],
    [[230.0, 1900]],
)
WORKER_STATS = log_result(
    "render-farm",
    "pool stats",
    [("Worker pool stats (size=<*>, busy=<*>, free=<*>, queued=<*>)", 6, "WARN",
      ["Worker pool stats (size=16, busy=16, free=0, queued=88)"])],
)  # fmt: skip
UPLOAD_ERRORS = sql_result(
    "SELECT error_code, COUNT(id) AS uploads, MAX(latency_ms) AS max_latency_ms FROM uploads "
    "WHERE status = 'failed' AND service = 'upload-api' GROUP BY error_code",
    ["error_code", "uploads", "max_latency_ms"],
    [["QUOTA_EXCEEDED", 31, 1200], ["BAD_REQUEST", 4, 15]],
)
SHARD_QUEUES = sql_result(
    "SELECT shard_id, COUNT(id) AS queued FROM jobs WHERE state = 'queued' GROUP BY shard_id",
    ["shard_id", "queued"],
    [[0, 120], [1, 9800], [2, 130]],
)
NO_DNS_ERRORS = sql_result(
    "SELECT minute, dns_errors FROM edge_minutes WHERE host = 'img.example.net' "
    "AND dns_errors > 0 AND minute >= '2026-12-31 23:40:00' AND minute < '2027-01-01 00:20:00'",
    ["minute", "dns_errors"],
    [],
)
NO_HOT_CPU = sql_result(
    "SELECT minute, cpu_ratio FROM node_minutes WHERE node = 'render-7' AND cpu_ratio >= 0.8 "
    "AND minute >= '2026-11-28 14:00:00' AND minute < '2026-11-28 15:00:00'",
    ["minute", "cpu_ratio"],
    [],
)
QUOTA_LOGS = log_result(
    "upload-api",
    "quota",
    [("Upload <*> rejected: quota exceeded for tenant <*>", 31, "ERROR",
      ["Upload u-81 rejected: quota exceeded for tenant t-4"])],
)  # fmt: skip
NO_QUOTA_READ_PART = log_result("upload-api", "quota", [], skipped={"rotated": 2})
NO_RENDER_OOM = log_result("render-farm", "OutOfMemoryError", [])
_DEPTHS = [0.21, 0.24, 0.27, 0.33, 0.35, 0.41, 0.46, 0.52, 0.57, 0.61, 0.58, 0.49]
QUEUE_SERIES: JsonObject = {
    "scope": {"query": "render_queue_depth_ratio", "start": "2026-11-28T14:00:00Z",
              "end": "2026-11-28T15:00:00Z"},
    "series": [{"metric": "render_queue_depth_ratio", "labels": {"pool": "gpu"},
                "points": [[f"2026-11-28T14:{5 * i:02d}:00Z", v] for i, v in enumerate(_DEPTHS)]}],
}  # fmt: skip

HONEST: list[tuple[str, object, str, tuple[JsonObject, ...]]] = [
    ("measure words, aggregates", SUPPORT,
     "Before 14:32 completed jobs took 230 ms on average, the slowest 1.9 s.", (JOB_TIMES,)),
    ("used-up field", SUPPORT,
     "The worker pool was exhausted: free=0 with 88 jobs queued.", (WORKER_STATS,)),
    ("service filter implicit", SUPPORT,
     "31 uploads failed with QUOTA_EXCEEDED.", (UPLOAD_ERRORS,)),
    ("trouble filter named by its code", SUPPORT,
     "The slowest QUOTA_EXCEEDED upload took 1.2 s.", (UPLOAD_ERRORS,)),
    ("numbered grouping key", SUPPORT, "Shard 1 held 9800 queued jobs.", (SHARD_QUEUES,)),
    ("range past midnight", NEGATIVE,
     "img.example.net had no DNS errors between 23:40 and 00:20.", (NO_DNS_ERRORS,)),
    ("range past midnight, clock halves", NEGATIVE,
     "img.example.net saw no DNS errors from 11:40 pm to 12:20 am UTC.", (NO_DNS_ERRORS,)),
    ("threshold never reached", NEGATIVE,
     "render-7 CPU never reached 0.8 between 14:00 and 15:00.", (NO_HOT_CPU,)),
    ("threshold stayed below", NEGATIVE,
     "On render-7 the cpu ratio stayed below 0.8 from 2 pm to 3 pm.", (NO_HOT_CPU,)),
    ("stated limits of the search", NEGATIVE,
     "No quota messages turned up in the upload-api files that could be read between 14:00 "
     "and 15:00 UTC; two rotated files were not searched, so this is not conclusive.",
     (NO_QUOTA_READ_PART,)),
    ("bare hour starting a range", NEGATIVE,
     "render-farm logged no OutOfMemoryError between 2 and 3 pm UTC.", (NO_RENDER_OOM,)),
    ("a value of a series", SUPPORT, "render_queue_depth_ratio peaked at 0.61.", (QUEUE_SERIES,)),
    ("a difference shown in the claim", SUPPORT,
     "render_queue_depth_ratio rose from 0.21 to 0.61, by 0.4.", (QUEUE_SERIES,)),
    ("did not report is a no-match cue", NEGATIVE,
     "render-farm did not report OutOfMemoryError between 14:00 and 15:00.", (NO_RENDER_OOM,)),
]  # fmt: skip

TWINS: list[tuple[str, object, str, tuple[JsonObject, ...]]] = [
    ("measure words, aggregates", SUPPORT,
     "Before 14:32 completed jobs took 330 ms on average, the slowest 1.9 s.", (JOB_TIMES,)),
    ("used-up field", SUPPORT,
     "The worker pool was not exhausted: free=0 with 88 jobs queued.", (WORKER_STATS,)),
    ("service filter implicit", SUPPORT,
     "31 image-api uploads failed with QUOTA_EXCEEDED.", (UPLOAD_ERRORS,)),
    ("trouble filter named by its code", SUPPORT,
     "The slowest successful upload took 1.2 s.", (UPLOAD_ERRORS,)),
    ("numbered grouping key", SUPPORT, "Shard 2 held 9800 queued jobs.", (SHARD_QUEUES,)),
    ("kind of trouble", SUPPORT,
     "The uploads were rejected by a network fault.", (QUOTA_LOGS,)),
    ("a query's FROM is no cause", SUPPORT,
     "Shard 1 held 9800 queued jobs because shard 0 stopped.", (SHARD_QUEUES,)),
    ("negation reaches past evidence words", SUPPORT,
     "upload-api did not log any quota rejections.", (QUOTA_LOGS,)),
    ("no chance ratio of a series", SUPPORT,
     "render_queue_depth_ratio peaked at 3.", (QUEUE_SERIES,)),
    ("range past midnight, any kind", NEGATIVE,
     "img.example.net had no errors of any kind between 23:40 and 00:20.", (NO_DNS_ERRORS,)),
    ("range past midnight, wider", NEGATIVE,
     "img.example.net had no DNS errors between 22:40 and 00:20.", (NO_DNS_ERRORS,)),
    ("threshold the other way", NEGATIVE,
     "render-7 CPU stayed above 0.8 between 14:00 and 15:00.", (NO_HOT_CPU,)),
    ("threshold not searched", NEGATIVE,
     "render-7 CPU never reached 0.9 between 14:00 and 15:00.", (NO_HOT_CPU,)),
    ("search limits left out", NEGATIVE,
     "No quota messages turned up in upload-api between 14:00 and 15:00 UTC.",
     (NO_QUOTA_READ_PART,)),
    ("bare hour range wider", NEGATIVE,
     "render-farm logged no OutOfMemoryError between 1 and 3 pm UTC.", (NO_RENDER_OOM,)),
]  # fmt: skip


@pytest.mark.parametrize(("family", "kind", "claim", "cited"), HONEST, ids=[h[0] for h in HONEST])
def test_honest_claim_is_grounded(
    family: str, kind: object, claim: str, cited: tuple[JsonObject, ...]
) -> None:
    assert reason_of(kind, claim, *cited) is None, family  # type: ignore[arg-type]


@pytest.mark.parametrize(("family", "kind", "claim", "cited"), TWINS, ids=[t[0] for t in TWINS])
def test_twin_claim_is_refused(
    family: str, kind: object, claim: str, cited: tuple[JsonObject, ...]
) -> None:
    assert reason_of(kind, claim, *cited) is not None, family  # type: ignore[arg-type]
