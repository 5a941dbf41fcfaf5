"""A plural folds like its singular: "workers" and the column ``worker``, "servers" and
"server" are one word to the judge, so an honest claim in the plural covers its evidence."""

from __future__ import annotations

import pytest

from factledger.domain.release.judge.words import stem
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result


@pytest.mark.parametrize(
    ("plural", "singular"),
    [("workers", "worker"), ("servers", "server"), ("orders", "order"), ("users", "user")],
)
def test_a_plural_folds_like_its_singular(plural: str, singular: str) -> None:
    assert stem(plural) == stem(singular)


def test_a_claim_in_the_plural_covers_a_column_in_the_singular() -> None:
    cited = sql_result(
        "SELECT worker, COUNT(id) AS resent FROM resends GROUP BY worker",
        ["worker", "resent"],
        [["relay-w1", 640], ["relay-w2", 640]],
    )
    assert reason_of(SUPPORT, "Both workers resent 640.", cited) is None
    assert reason_of(SUPPORT, "Both workers resent 460.", cited) is not None
