"""A quantifier over the rows of one name is shown when every row naming it also holds the
cell word the claim gives them ("every nightly-etl job was killed" of rows whose
``outcome`` is ``killed`` wherever the job is nightly-etl); a name with a row holding
another cell is refused.

The cited calls are of an incident of their own: batch jobs evicted from a node pool."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

JOBS = sql_result(
    "SELECT job, outcome, COUNT(id) AS runs FROM job_runs WHERE pool = 'batch' "
    "GROUP BY job, outcome",
    ["job", "outcome", "runs"],
    [["nightly-etl", "killed", 14], ["report-gen", "killed", 3], ["report-gen", "finished", 9]],
)


def test_every_row_of_the_name_holding_the_cell_passes() -> None:
    honest = "Every nightly-etl run in the batch pool was killed, 14 of them."
    assert reason_of(SUPPORT, honest, JOBS) is None


def test_a_name_with_another_cell_in_a_row_is_refused() -> None:
    twin = "Every report-gen run in the batch pool was killed, 3 of them."
    assert reason_of(SUPPORT, twin, JOBS) == "QUANTIFIER_UNSUPPORTED"
