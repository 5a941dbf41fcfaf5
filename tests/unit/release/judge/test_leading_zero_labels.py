"""Digits written with a leading zero ("job 0073", "migration 0217") label something: they
are no count or measure, and must be in the cited calls as written, also as the start of a
longer name (``0217_drop_legacy_index``).

The cited calls are of an incident of their own: a schema migration holding a lock."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

MIGRATION = log_result(
    "schema-runner",
    "0217_drop_legacy_index",
    [
        ("migration 0217_drop_legacy_index waiting for lock on carts after <*>", 9, "WARN",
         ["migration 0217_drop_legacy_index waiting for lock on carts after 60s"]),
    ],
)  # fmt: skip


def test_the_label_as_the_evidence_starts_a_name_with_it_passes() -> None:
    honest = "Migration 0217 waited for its lock on carts 9 times."
    assert reason_of(SUPPORT, honest, MIGRATION) is None


def test_another_label_is_refused() -> None:
    twin = "Migration 0218 waited for its lock on carts 9 times."
    assert reason_of(SUPPORT, twin, MIGRATION) == "UNGROUNDED_ENTITY"
