"""Rule families of the judge for values that belong to one record, log levels named as
levels, measurements read in another unit, and offsets between two of a claim's own times:
for each, an honest claim that must be grounded and a twin one edit away that must be refused.

The cited calls are of an incident of their own (a job scheduler and its queue workers), not
of the paired-claims corpus."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of, sql_result

SCHEDULE_CHANGES = sql_result(
    "SELECT job, setting, old_value, new_value, changed_at FROM schedule_changes"
    " WHERE changed_at >= '2026-11-28 14:00:00' ORDER BY changed_at",
    ["job", "setting", "old_value", "new_value", "changed_at"],
    [["nightly-export", "export.batch_size", "500", "5000", "2026-11-28 14:10:00"],
     ["invoice-sync", "sync.max_retries", "3", "0", "2026-11-28 14:25:00"]],
)  # fmt: skip
"""Two schedule changes, each one job's setting."""

WORKER_LOGS = log_result(
    "queue-worker",
    "lease",
    [("lease lost on <*> after <*>", 42, "WARN",
      ["lease lost on q-exports by w-7 after 9000ms"]),
     ("lease renewed on <*> in <*>", 300, "INFO",
      ["lease renewed on q-invoices by w-3 in 12ms"])],
)  # fmt: skip
"""Two patterns: 42 lost leases on q-exports (WARN), 300 renewals on q-invoices (INFO)."""

TIMEOUTS = log_result(
    "queue-worker",
    "visibility timeout",
    [("visibility timeout expired for job=<*> after <*>", 7, "ERROR",
      ["visibility timeout expired for job=nightly-export after 120s"])],
)  # fmt: skip

FAMILIES: list[tuple[str, str, str, tuple[JsonObject, ...], str]] = [
    # (family, honest, twin, cited, twin's reason)
    ("values of one row",
     "At 14:10 the schedule change raised nightly-export's export.batch_size.",
     "At 14:10 the schedule change raised invoice-sync's export.batch_size.",
     (SCHEDULE_CHANGES,), "RECORD_MISMATCH"),
    ("a setting of another row",
     "invoice-sync had its sync.max_retries changed.",
     "invoice-sync had its export.batch_size changed.",
     (SCHEDULE_CHANGES,), "RECORD_MISMATCH"),
    ("values of one pattern",
     "Worker w-7 lost leases on q-exports.",
     "Worker w-7 lost leases on q-invoices.",
     (WORKER_LOGS,), "RECORD_MISMATCH"),
    ("a level named as a level",
     "The 7 visibility timeouts were logged at ERROR level.",
     "The 7 visibility timeouts were logged at WARN level.",
     (TIMEOUTS,), "UNGROUNDED_ENTITY"),
    ("a level written in capitals",
     "queue-worker logged 7 ERROR lines for expired visibility timeouts.",
     "queue-worker logged 7 FATAL lines for expired visibility timeouts.",
     (TIMEOUTS,), "UNGROUNDED_ENTITY"),
    ("a measurement read in another unit",
     "The visibility timeout of nightly-export expired after 2 minutes.",
     "The visibility timeout of nightly-export expired after 120 minutes.",
     (TIMEOUTS,), "UNIT_MISMATCH"),
    ("milliseconds read as seconds",
     "Leases on q-exports were lost after 9 seconds.",
     "Leases on q-exports were lost after 9 minutes.",
     (WORKER_LOGS,), "UNIT_MISMATCH"),
    ("an offset between two of the claim's times",
     "Retries were turned off at 14:25, fifteen minutes after the first change at 14:10.",
     "Retries were turned off at 14:25, fifteen minutes before the first change at 14:10.",
     (SCHEDULE_CHANGES,), "TIME_MISMATCH"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("family", "honest", "twin", "cited", "reason"), FAMILIES, ids=[f[0] for f in FAMILIES]
)
def test_each_family_grounds_the_honest_claim_and_refuses_its_twin(
    family: str, honest: str, twin: str, cited: tuple[JsonObject, ...], reason: str
) -> None:
    assert reason_of(SUPPORT, honest, *cited) is None, family
    assert reason_of(SUPPORT, twin, *cited) == reason, family


HONEST_ACROSS_RECORDS: list[tuple[str, tuple[JsonObject, ...]]] = [
    ("Two jobs changed: nightly-export at 14:10 and invoice-sync at 14:25.", (SCHEDULE_CHANGES,)),
    ("export.batch_size rose to 5000 while sync.max_retries fell to 0.", (SCHEDULE_CHANGES,)),
    ("queue-worker lost 42 leases on q-exports and renewed 300 on q-invoices.", (WORKER_LOGS,)),
    ("Leases were lost 42 times (WARN) and renewed 300 times (INFO).", (WORKER_LOGS,)),
    ("Between 14:32 and 14:58 leases were lost after 9000 ms, where renewals took 12 ms "
     "before 14:32.", (WORKER_LOGS,)),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST_ACROSS_RECORDS)
def test_a_claim_about_several_records_or_a_dated_measurement_is_not_held_to_one(
    claim: str, cited: tuple[JsonObject, ...]
) -> None:
    assert reason_of(AnalysisKind.SUPPORTING_EVIDENCE, claim, *cited) is None
