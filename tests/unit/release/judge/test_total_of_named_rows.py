"""A number that is the total of a column over the rows the claim names ("33 of the 40
lookups of mail.internal", 7 + 33 over its two rows) is grounded by that total even when
another row happens to hold it as a cell (the 40 lookups of api.example.org); a number of
another row, or of no rows, is still refused.

The cited call is of an incident of its own: DNS lookups grouped by name and answer code."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

LOOKUPS = sql_result(
    "SELECT name, rcode, COUNT(id) AS lookups FROM dns_lookups "
    "WHERE looked_up_at >= '2026-10-07 06:00:00' GROUP BY name, rcode ORDER BY name, rcode",
    ["name", "rcode", "lookups"],
    [["api.example.org", "NOERROR", 40], ["mail.internal", "NOERROR", 7],
     ["mail.internal", "SERVFAIL", 33]],
)  # fmt: skip


def test_the_total_of_the_rows_named_is_grounded() -> None:
    claim = "33 of the 40 lookups of mail.internal got SERVFAIL."
    assert reason_of(SUPPORT, claim, LOOKUPS) is None


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param("33 of the 45 lookups of mail.internal got SERVFAIL.", id="no total"),
        pytest.param("api.example.org got SERVFAIL on 33 lookups.", id="another row's cell"),
        pytest.param("7 of the 40 lookups of api.example.org got SERVFAIL.", id="another row"),
    ],
)
def test_a_number_of_other_rows_is_refused(claim: str) -> None:
    assert reason_of(SUPPORT, claim, LOOKUPS) is not None
