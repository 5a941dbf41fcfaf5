"""A claim that puts its own word where the evidence always names one thing ("the eastgate
bucket" of ``bucket=westgate``, "the thumbnail worker" of ``resize worker crashed``) names
something else; the evidence's own name, or a word that only describes, passes.

The cited calls are of an incident of their own: image uploads failing on a storage bucket."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

UPLOADS = log_result(
    "upload-api",
    "PUT failed",
    [
        ("PUT object failed bucket=<*> status=<*>", 64, "ERROR",
         ["PUT object failed bucket=westgate status=503"]),
    ],
)  # fmt: skip
WORKERS = log_result(
    "media-worker",
    "worker crashed",
    [
        ("resize worker crashed after <*> jobs", 12, "ERROR",
         ["resize worker crashed after 400 jobs"]),
    ],
)  # fmt: skip


def test_the_evidences_name_in_its_slot_passes() -> None:
    assert (
        reason_of(SUPPORT, "upload-api failed to PUT objects to the westgate bucket.", UPLOADS)
        is None
    )
    assert reason_of(SUPPORT, "The resize worker crashed 12 times.", WORKERS) is None


def test_another_name_in_a_key_slot_is_refused() -> None:
    twin = "upload-api failed to PUT objects to the eastgate bucket."
    assert reason_of(SUPPORT, twin, UPLOADS) == "UNGROUNDED_ENTITY"


def test_another_name_before_the_noun_is_refused() -> None:
    twin = "The thumbnail worker crashed 12 times."
    assert reason_of(SUPPORT, twin, WORKERS) == "UNGROUNDED_ENTITY"


def test_a_describing_word_in_the_slot_passes() -> None:
    assert reason_of(SUPPORT, "The busy worker crashed 12 times.", WORKERS) is None


DEADLOCKS = log_result(
    "ledger-db",
    "lock timeout",
    [
        ("lock timeout after <*> ms (table entries)", 9, "ERROR",
         ["lock timeout after 5000 ms (table entries)"]),
    ],
)  # fmt: skip


def test_a_name_in_parentheses_is_a_slot() -> None:
    assert (
        reason_of(SUPPORT, "ledger-db hit 9 lock timeouts on the entries table.", DEADLOCKS) is None
    )
    twin = "ledger-db hit 9 lock timeouts on the balances table."
    assert reason_of(SUPPORT, twin, DEADLOCKS) == "UNGROUNDED_ENTITY"
