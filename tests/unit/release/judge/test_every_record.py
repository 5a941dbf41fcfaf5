"""A quantified claim ("both", "all", "every", "each") about the rows or patterns of a cited
call holds only when what it says is in each of them.

The cited calls are of an incident of their own: a video transcoding farm whose workers fail
segment uploads."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.claims import parse_claim
from factledger.domain.release.judge.every_record import check_every_record
from factledger.domain.release.judge.evidence import view_of
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of, sql_result

FAILED_BY_NODE = sql_result(
    "SELECT worker, codec, COUNT(id) AS failed_jobs FROM transcode_jobs WHERE state = 'failed'"
    " AND queued_at >= '2026-11-28 14:00:00' AND queued_at < '2026-11-28 15:00:00'"
    " GROUP BY worker, codec",
    ["worker", "codec", "failed_jobs"],
    [["tx-node-1", "av1", 52], ["tx-node-2", "av1", 17]],
)
"""Two workers, both failing av1 jobs, 52 and 17 of them."""

UPLOAD_FAILURES = log_result(
    "transcoder",
    "segment upload failed",
    [
        ("segment upload failed codec=av1 bucket=<*>: SlowDown", 310, "ERROR",
         ["segment upload failed codec=av1 bucket=vod-eu: SlowDown"]),
        ("segment upload failed codec=h264 bucket=<*>: SlowDown", 45, "ERROR",
         ["segment upload failed codec=h264 bucket=vod-eu: SlowDown"]),
    ],
)  # fmt: skip
"""Two patterns, one per codec, both at ERROR with the same cause."""

CASES = [
    (
        "a name one row holds",
        "Both workers' failed jobs were av1 transcodes.",
        "Both workers' failed jobs were on tx-node-1.",
        FAILED_BY_NODE,
    ),
    (
        "a number one row holds",
        "Both workers had failed av1 jobs after 14:00.",
        "Both workers had 52 failed av1 jobs after 14:00.",
        FAILED_BY_NODE,
    ),
    (
        "a window is no pair of things named",
        "Both workers' failed jobs between 14:00 and 15:00 were av1 transcodes.",
        "Both workers' failed jobs between 14:00 and 15:00 were on tx-node-2.",
        FAILED_BY_NODE,
    ),
    (
        "a word one pattern holds",
        "All of the segment upload failures were SlowDown errors.",
        "All of the segment upload failures were for codec h264.",
        UPLOAD_FAILURES,
    ),
    (
        "each, a word one pattern holds",
        "Each segment upload failure was answered SlowDown by the vod-eu bucket.",
        "Each segment upload failure was an av1 segment for the vod-eu bucket.",
        UPLOAD_FAILURES,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_quantified_claim_says_only_what_every_record_holds(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) == "QUANTIFIER_UNSUPPORTED", family


def test_a_claim_that_names_a_term_for_every_record_enumerates_them() -> None:
    claim = "Both tx-node-1 and tx-node-2 had failed av1 jobs."
    assert reason_of(SUPPORT, claim, FAILED_BY_NODE) is None
    codecs = "Both codecs, av1 and h264, failed with SlowDown."
    assert reason_of(SUPPORT, codecs, UPLOAD_FAILURES) is None


def test_a_claim_without_a_quantifier_may_name_one_record() -> None:
    one = "One of the two workers, tx-node-1, had 52 failed jobs."
    assert reason_of(SUPPORT, one, FAILED_BY_NODE) is None
    assert reason_of(SUPPORT, "Uploads of h264 segments failed 45 times.", UPLOAD_FAILURES) is None


def test_a_quantifier_over_other_things_than_the_records_is_left_to_the_other_rules() -> None:
    claim = parse_claim("Every retry of a segment upload waits, and tx-node-1 failed 52 jobs.")
    view = view_of(FAILED_BY_NODE, FAILED_BY_NODE["scope"])
    assert check_every_record(claim, [view]) is None
