"""A trouble word of a claim matched by the evidence's own spelling of that trouble: HTTP 429
or "Too Many Requests" is a throttled or rejected request, a ``throttled > 0`` filter is named
by "rate-limited", HTTP 504 is a timeout. Another trouble stays another.

The cited calls are of an incident of their own: a CI farm whose artifact uploads are
throttled by the artifact store."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.draft import AnalysisKind
from tests.unit.release.judge.incidents import (
    NEGATIVE,
    SUPPORT,
    log_result,
    reason_of,
    sql_result,
)

UPLOADS_429 = log_result(
    "ci-runner",
    "artifact upload",
    [("artifact upload of <*> answered 429 Too Many Requests by artifact-store", 64, "WARN",
      ["artifact upload of build-8812.tar answered 429 Too Many Requests by artifact-store"])],
)  # fmt: skip
"""64 uploads answered HTTP 429."""

NO_THROTTLED = sql_result(
    "SELECT minute, throttled FROM upload_minutes WHERE store = 'artifact-cache' AND "
    "throttled > 0 AND minute >= '2026-11-28 14:00:00' AND minute < '2026-11-28 15:00:00'",
    ["minute", "throttled"],
    [],
)
"""No minute of the hour with a throttled upload to artifact-cache."""

CASES = [
    (
        "429 is a throttled request",
        SUPPORT,
        "artifact-store throttled 64 artifact uploads of ci-runner.",
        "artifact-store timed out 64 artifact uploads of ci-runner.",
        UPLOADS_429,
    ),
    (
        "Too Many Requests is a rejection",
        SUPPORT,
        "ci-runner's artifact uploads were rejected by artifact-store, 64 of them.",
        "ci-runner's artifact uploads were refused a connection by artifact-store, 64 of them.",
        UPLOADS_429,
    ),
    (
        "a throttled > 0 filter named by rate-limited",
        NEGATIVE,
        "No upload to artifact-cache was rate-limited between 14:00 and 15:00.",
        "No upload to artifact-cache timed out between 14:00 and 15:00.",
        NO_THROTTLED,
    ),
]


@pytest.mark.parametrize(("family", "kind", "honest", "twin", "cited"), CASES)
def test_a_trouble_is_matched_by_the_evidence_spelling_of_it(
    family: str, kind: AnalysisKind, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(kind, honest, cited) is None, family
    assert reason_of(kind, twin, cited) is not None, family
