"""A zero cell denies its column, for its row: "fra1 had no 5xx" of a row whose
``SUM(errors_5xx) AS errors`` is 0; a non-zero cell of the same column affirms it for its own
row, so "ams2 had no 5xx" of a row holding 14 is refused. The column is read by its alias and
by the column the query aggregated. Incidents of their own: CDN PoPs, a batch of importers."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

POPS = sql_result(
    "SELECT pop, SUM(requests) AS requests, SUM(errors_5xx) AS errors FROM edge_minutes "
    "WHERE minute >= '2026-10-03 12:00:00' GROUP BY pop",
    ["pop", "requests", "errors"],
    [["fra1", 9120, 0], ["ams2", 8433, 14]],
)
IMPORTERS = sql_result(
    "SELECT importer, COUNT(id) AS batches, SUM(rejected_rows) AS rejected FROM import_batches "
    "WHERE started_at >= '2026-10-03 00:00:00' GROUP BY importer",
    ["importer", "batches", "rejected"],
    [["csv-orders", 41, 0], ["edi-invoices", 12, 230]],
)

_GAP_SOURCE = pytest.mark.xfail(
    strict=True, reason="a column's source words are not yet evidence words: 5xx is ungrounded"
)
_GAP_PHRASE = pytest.mark.xfail(
    strict=True,
    reason="a phrase denied by another row's clause still counts as denied (_denies_phrase)",
)

HONEST = [
    pytest.param("fra1 served 9120 requests with no 5xx.", POPS, id="zero, aggregated column"),
    pytest.param("fra1 had no errors in its 9120 requests.", POPS, id="zero by the alias"),
    pytest.param("fra1 answered 9120 requests without a single 5xx.", POPS, id="without one"),
    pytest.param("ams2 returned 14 5xx responses.", POPS, id="non-zero", marks=_GAP_SOURCE),
    pytest.param("csv-orders ran 41 batches and none of its rows were rejected.", IMPORTERS,
                 id="zero rows rejected"),
]  # fmt: skip

TWINS = [
    pytest.param("ams2 served 8433 requests with no 5xx.", POPS, id="another row's zero"),
    pytest.param("ams2 had no errors in its 8433 requests.", POPS, id="another row's zero, alias"),
    pytest.param("fra1 still returned 5xx errors in its 9120 requests.", POPS, id="zero affirmed"),
    pytest.param("edi-invoices ran 12 batches without a rejected row.", IMPORTERS,
                 id="another importer's zero", marks=_GAP_PHRASE),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "cited"), HONEST)
def test_a_zero_cell_denies_its_column_for_its_row(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is None


@pytest.mark.parametrize(("claim", "cited"), TWINS)
def test_a_denial_of_another_row_is_refused(claim: str, cited: JsonObject) -> None:
    assert reason_of(SUPPORT, claim, cited) is not None
