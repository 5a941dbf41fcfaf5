"""The root path written on its own, in parentheses or quotes ("the root (/) mount", "the
root filesystem (`/`)"), is a path like ``/srv/pgdata``: an identifier the cited call must
hold, so a claim naming the root mount of a query filtered on another mount is refused.

The cited calls are of an incident of their own: a database host whose disk fills."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result


def _usage(mount: str) -> JsonObject:
    return sql_result(
        "SELECT sampled_at, used_bytes, size_bytes FROM disk_usage WHERE host = 'db-2' AND "
        f"mount = '{mount}' AND sampled_at >= '2026-10-04 03:00:00' ORDER BY sampled_at",
        ["sampled_at", "used_bytes", "size_bytes"],
        [["2026-10-04 03:00:00", 20401094656, 21474836480],
         ["2026-10-04 03:10:00", 21474836480, 21474836480]],
    )  # fmt: skip


ROOT = _usage("/")
DATA = _usage("/srv/pgdata")

HONEST = [
    pytest.param("The disk that filled on db-2 is the root (/) mount.", ROOT, id="(/) of '/'"),
    pytest.param("The disk that filled on db-2 is the /srv/pgdata mount.", DATA, id="a path"),
]

TWINS = [
    pytest.param("The disk that filled on db-2 is the root (/) mount.", DATA, id="(/) of another"),
    pytest.param("The disk that filled on db-2 is the root filesystem (`/`).", DATA,
                 id="`/` of another"),
    pytest.param("The disk that filled on db-2 is the /srv/pgdata mount.", ROOT,
                 id="a path of the root's query"),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_the_mount_the_query_filtered_is_grounded(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_the_root_path_of_a_query_on_another_mount_is_refused(
    claim: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, claim, cited) is not None
