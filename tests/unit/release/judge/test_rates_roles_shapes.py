"""Rule families of the judge for numbers computed across rows and spans, measurements, the
role of a word (quantifier, dating, source, cause order) and paraphrase: for each, an honest
claim that must be grounded and a twin one edit away that must be refused.

The cited calls are of an incident of their own (an image thumbnailer and its object store),
not of the paired-claims corpus."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.judge import ClaimEvidence, ground
from tests.unit.release.judge.incidents import (
    NEGATIVE,
    SUPPORT,
    knowledge_result,
    log_result,
    reason_of,
    sql_result,
)

RESIZE_ERRORS = log_result(
    "thumbnailer",
    "upload failed",
    [("upload failed for <*>: bucket quota exceeded", 240, "ERROR",
      ["upload failed for img_88: bucket quota exceeded"])],
    start="2026-11-28T14:00:00.000Z",
    end="2026-11-28T14:40:00.000Z",
)  # fmt: skip
"""240 errors, one pattern, one level, in a 40-minute search."""

JOBS_BY_STATE = sql_result(
    "SELECT state, COUNT(id) AS jobs FROM resize_jobs WHERE created_at >= '2026-11-28 14:00:00'"
    " AND created_at < '2026-11-28 14:20:00' GROUP BY state",
    ["state", "jobs"],
    [["done", 130], ["failed", 90], ["queued", 30]],
)
"""250 jobs in 20 minutes over three states."""

BUCKET_USAGE = sql_result(
    "SELECT sampled_at, used_bytes, quota_bytes FROM bucket_usage WHERE bucket = 'thumbs-eu'"
    " ORDER BY sampled_at",
    ["sampled_at", "used_bytes", "quota_bytes"],
    [["2026-11-28 13:50:00", 10200547328, 10737418240],
     ["2026-11-28 14:00:00", 10737418240, 10737418240]],
)  # fmt: skip
"""A 10 GiB quota, full at 14:00; 512 MiB free at 13:50."""

SLOW_PUTS = log_result(
    "object-store",
    "slow PUT",
    [("slow PUT <*> took <*>", 12, "WARN",
      ["slow PUT thumbs-eu/img_12 took 1840ms", "slow PUT thumbs-eu/img_40 took 1790ms"])],
)  # fmt: skip

RUNBOOK = knowledge_result(
    "thumbnailer quota",
    [("thumbnailer: bucket quota",
      "When the thumbs bucket reaches its quota, uploads fail with bucket quota exceeded. "
      "Never raise the quota without pruning old renditions first. The pruner deletes "
      "about 300 objects a second. Requests to /v1/resize are retried 3 times.")],
)  # fmt: skip


def _twin_reason(claim: str, *cited: JsonObject, kind: AnalysisKind = SUPPORT) -> str | None:
    return reason_of(kind, claim, *cited)


FAMILIES: list[tuple[str, str, str, tuple[JsonObject, ...], str]] = [
    # (family, honest, twin, cited, twin's reason)
    ("rate over the search window",
     "thumbnailer logged 240 upload failures in 40 minutes, 6 a minute.",
     "thumbnailer logged 240 upload failures in 40 minutes, 60 a minute.",
     (RESIZE_ERRORS,), "UNGROUNDED_NUMBER"),
    ("rate over the claim's own times",
     "250 resize jobs were created between 14:00 and 14:20, 12.5 per minute.",
     "250 resize jobs were created between 14:00 and 14:20, 25 per minute.",
     (JOBS_BY_STATE,), "UNGROUNDED_NUMBER"),
    ("period: a span over a count",
     "The 240 upload failures in the 40-minute search came one every 10 seconds.",
     "The 240 upload failures in the 40-minute search came one every 10 minutes.",
     (RESIZE_ERRORS,), "UNGROUNDED_NUMBER"),
    ("total of a column over every row",
     "250 resize jobs were created from 14:00 to 14:20.",
     "205 resize jobs were created from 14:00 to 14:20.",
     (JOBS_BY_STATE,), "UNGROUNDED_NUMBER"),
    ("sum the claim writes",
     "Of the jobs since 14:00, 120 did not finish (90 failed and 30 queued).",
     "Of the jobs since 14:00, 150 did not finish (90 failed and 30 queued).",
     (JOBS_BY_STATE,), "UNGROUNDED_NUMBER"),
    ("free space from raw bytes, in MiB",
     "At 13:50 the thumbs-eu bucket had about 512 MiB left under its quota.",
     "At 13:50 the thumbs-eu bucket had about 512 GiB left under its quota.",
     (BUCKET_USAGE,), "UNGROUNDED_NUMBER"),
    ("percentage of two sizes",
     "At 13:50 the thumbs-eu bucket was 95% full.",
     "At 13:50 the thumbs-eu bucket was 59% full.",
     (BUCKET_USAGE,), "UNGROUNDED_NUMBER"),
    ("a measurement is no ratio or series total",
     "The slowest PUT to the object store took 1.84 seconds.",
     "The slowest PUT to the object store took 1.84 minutes.",
     (SLOW_PUTS,), "UNIT_MISMATCH"),
    ("a count per another unit than the evidence's",
     "The runbook says the pruner deletes about 300 objects a second.",
     "The runbook says the pruner deletes about 300 objects a minute.",
     (RUNBOOK,), "UNIT_MISMATCH"),
    ("codes are never computed",
     "Requests to /v1/resize are retried 3 times, per the runbook.",
     "Requests to /v1/upload are retried 3 times, per the runbook.",
     (RUNBOOK,), "UNGROUNDED_ENTITY"),
    ("partial quantifier against an unsplit result",
     "Every one of the 240 upload failures is at ERROR level.",
     "Only some of the 240 upload failures are at ERROR level.",
     (RESIZE_ERRORS,), "QUANTIFIER_UNSUPPORTED"),
    ("dating words are not findings",
     "Before the outage the bucket had 10200547328 of 10737418240 bytes in use.",
     "Before the outage the bucket had 10200547328 of 10737418240 bytes in use and failing.",
     (BUCKET_USAGE,), "UNGROUNDED_TERMS"),
    ("a source must be the cited call's",
     "The bucket quota exceeded errors were logged by thumbnailer.",
     "The bucket quota exceeded errors were logged by image-proxy.",
     (RESIZE_ERRORS,), "UNGROUNDED_ENTITY"),
    ("a named thing before a naming noun",
     "The upload failures come from the thumbnailer service.",
     "The upload failures come from the image-proxy service.",
     (RESIZE_ERRORS,), "UNGROUNDED_ENTITY"),
    ("double negation affirms",
     "The runbook says never to raise the quota without pruning old renditions first.",
     "The runbook says to raise the quota without pruning old renditions first.",
     (RUNBOOK,), "POLARITY_MISMATCH"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("family", "honest", "twin", "cited", "reason"), FAMILIES, ids=[f[0] for f in FAMILIES]
)
def test_each_family_grounds_the_honest_claim_and_refuses_its_twin(
    family: str, honest: str, twin: str, cited: tuple[JsonObject, ...], reason: str
) -> None:
    assert reason_of(SUPPORT, honest, *cited) is None, family
    assert _twin_reason(twin, *cited) == reason, family


def test_a_cause_dated_after_its_effect_is_refused() -> None:
    honest = "The bucket was full at 14:00 and uploads failed from 14:32."
    twin = "The bucket was full at 14:00 because uploads failed from 14:32."
    cited = (BUCKET_USAGE, RESIZE_ERRORS)
    assert reason_of(SUPPORT, honest, *cited) is None
    assert reason_of(SUPPORT, twin, *cited) == "CAUSAL_UNSUPPORTED"


def test_the_searched_phrase_is_no_negation_of_a_negative_observation() -> None:
    search = log_result("object-store", "No such key", [])
    assert (
        reason_of(NEGATIVE, "object-store logged no No such key from 14:00 to 15:00.", search)
        is None
    )
    assert (
        reason_of(NEGATIVE, "object-store logged No such key from 14:00 to 15:00.", search)
        == "POLARITY_MISMATCH"
    )


def test_a_conclusion_may_say_most_when_a_claim_says_n_of_m() -> None:
    claims = [ClaimEvidence(SUPPORT, "90 of the 120 unfinished jobs failed.", (JOBS_BY_STATE,),
                            (JOBS_BY_STATE["scope"],))]  # fmt: skip
    assert ground("Most unfinished jobs failed.", claims).conclusion is None
    thin = [ClaimEvidence(SUPPORT, "90 jobs failed.", (JOBS_BY_STATE,), (JOBS_BY_STATE["scope"],))]
    assert ground("Most unfinished jobs failed.", thin).conclusion is not None


def test_a_hyphenated_spelling_of_evidence_words_is_no_name() -> None:
    assert (
        reason_of(SUPPORT, "thumbnailer's uploads hit the bucket-quota limit.", RESIZE_ERRORS)
        is None
    )
    twin = "thumbnailer's uploads hit the bucket-quota limit of the image-proxy service."
    assert reason_of(SUPPORT, twin, RESIZE_ERRORS) == "UNGROUNDED_ENTITY"


def test_a_paraphrase_with_operations_synonyms_is_covered() -> None:
    claim = "The thumbs-eu storage had no room left under its quota at 14:00."
    assert reason_of(SUPPORT, claim, BUCKET_USAGE) is None


def test_a_negation_before_a_comparator_bounds_the_number_not_the_words() -> None:
    assert reason_of(SUPPORT, "Slow PUTs never took more than 1840 ms.", SLOW_PUTS) is None
    assert reason_of(SUPPORT, "Slow PUTs never took more than 1480 ms.", SLOW_PUTS) is not None


CHANGES = sql_result(
    "SELECT changed_at, component FROM changes WHERE changed_at >= '2026-11-28 13:00:00'",
    ["changed_at", "component"],
    [["2026-11-28 13:55:00", "thumbnailer"]],
)
"""Exactly one change recorded."""


def test_several_over_a_single_record_is_refused() -> None:
    assert reason_of(SUPPORT, "One change is recorded since 13:00: thumbnailer's.", CHANGES) is None
    assert (
        reason_of(
            SUPPORT, "Several changes are recorded since 13:00, thumbnailer's among them.", CHANGES
        )
        == "QUANTIFIER_UNSUPPORTED"
    )


def test_a_measurement_stated_after_the_same_words_binds_the_claim() -> None:
    assert reason_of(SUPPORT, "A slow PUT of thumbs-eu/img_12 took 1840 ms.", SLOW_PUTS) is None
    assert (
        reason_of(SUPPORT, "A slow PUT of thumbs-eu/img_12 took 18 seconds.", SLOW_PUTS)
        == "UNGROUNDED_NUMBER"
    )


def test_a_time_written_to_the_minute_matches_the_instant_it_rounds_to() -> None:
    # the last failure is at 14:58:41: "until 14:59" rounds it, "until 14:57" does not
    assert (
        reason_of(SUPPORT, "thumbnailer logged upload failures until 14:59.", RESIZE_ERRORS) is None
    )
    assert (
        reason_of(SUPPORT, "thumbnailer logged upload failures until 14:57.", RESIZE_ERRORS)
        == "TIME_MISMATCH"
    )
