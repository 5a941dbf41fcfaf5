"""A string filter of the cited SQL written in camel case (``reason = 'OOMKilled'``,
``'CrashLoopBackOff'``) is named by the words of its parts: "4 OOM kills", "in a crash loop
back-off". A claim that names another reason, or only part of the name, still counts
something the query did not filter.

The cited calls are of an incident of their own: container restarts by reason."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result


def _restarts(reason: str, count: int) -> JsonObject:
    return sql_result(
        "SELECT service, COUNT(id) AS restarts FROM container_restarts "
        f"WHERE reason = '{reason}' AND restarted_at >= '2026-10-08 00:00:00' GROUP BY service",
        ["service", "restarts"],
        [["ledger-api", count]],
    )


OOM = _restarts("OOMKilled", 4)
CRASH_LOOP = _restarts("CrashLoopBackOff", 9)

HONEST = [
    pytest.param("ledger-api had 4 OOM kills since midnight.", OOM, id="OOMKilled"),
    pytest.param("ledger-api restarted 9 times in a crash loop back-off.", CRASH_LOOP,
                 id="CrashLoopBackOff"),
]  # fmt: skip

TWINS = [
    pytest.param("ledger-api had 4 evictions since midnight.", OOM, id="another reason"),
    pytest.param("ledger-api restarted 9 times after OOM kills.", CRASH_LOOP,
                 id="the other filter's words"),
    pytest.param("ledger-api restarted 9 times in a crash.", CRASH_LOOP, id="a part of the name"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_a_camel_case_filter_is_named_by_its_parts(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_another_reason_or_a_part_is_refused(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) == "FILTER_MISMATCH"
