"""Idioms a quantifier word stands in without claiming every record: "no 502 at all between
…" (a stressed negative bounded by its own window), "89 in all", "all told", "over the whole
morning" (a window). The same words claiming every record are still held to the evidence.
Incidents of their own: an image proxy's gateway errors, a print queue's jobs."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import NEGATIVE, SUPPORT, log_result, reason_of, sql_result

NO_502 = log_result(
    "image-proxy", "status=502", [],
    start="2026-11-28T14:20:00.000Z", end="2026-11-28T14:50:00.000Z",
)  # fmt: skip
JOBS = sql_result(
    "SELECT printer, COUNT(id) AS jobs FROM print_jobs WHERE state = 'stuck' GROUP BY printer",
    ["printer", "jobs"],
    [["floor2-east", 61], ["floor3-west", 28], ["lobby", 5]],
)

HONEST: list[tuple[str, object, str, JsonObject]] = [
    ("at all, window written", NEGATIVE,
     "image-proxy returned no 502 at all between 14:20 and 14:50 UTC.", NO_502),
    ("at all, window words", NEGATIVE,
     "image-proxy logged no status=502 at all in the searched window.", NO_502),
    ("in all", SUPPORT, "94 jobs were stuck in all, 61 of them on floor2-east.", JOBS),
    ("all told", SUPPORT, "All told 94 jobs were stuck, 61 on floor2-east.", JOBS),
    ("a whole window", SUPPORT, "Over the whole morning 94 print jobs were stuck.", JOBS),
]  # fmt: skip

TWINS: list[tuple[str, object, str, JsonObject]] = [
    ("at all, no window", NEGATIVE, "image-proxy never returned a 502 at all.", NO_502),
    ("at all, wider window", NEGATIVE,
     "image-proxy returned no 502 at all between 13:20 and 14:50 UTC.", NO_502),
    ("all of the records", SUPPORT, "All printers had 61 stuck jobs.", JOBS),
    ("in all of them", SUPPORT, "Jobs were stuck in all printers on floor2-east alone.", JOBS),
]  # fmt: skip


@pytest.mark.parametrize(("case", "kind", "claim", "cited"), HONEST, ids=[h[0] for h in HONEST])
def test_idioms_claim_no_record(case: str, kind: object, claim: str, cited: JsonObject) -> None:
    assert reason_of(kind, claim, cited) is None, case  # type: ignore[arg-type]


@pytest.mark.parametrize(("case", "kind", "claim", "cited"), TWINS, ids=[t[0] for t in TWINS])
def test_quantifiers_still_claim(case: str, kind: object, claim: str, cited: JsonObject) -> None:
    assert reason_of(kind, claim, cited) is not None, case  # type: ignore[arg-type]
