"""A field whose name gives both a unit and a rate (``copy_mb_per_sec``, ``egress_kb_per_s``,
``ingest_gb_per_min``) holds a quantity of that unit per that unit of time: "212.5 MB per
second" is ``copy_mb_per_sec = 212.5``; the same number in GB, or per minute, is not.

The cited calls are of an incident of their own: a cross-region backup copy throttled by an
object store."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge.rate_fields import field_quantity_unit
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

COPY_RATE = sql_result(
    "SELECT bucket, ROUND(AVG(copy_mb_per_sec), 1) AS copy_mb_per_sec FROM copy_minutes "
    "WHERE bucket = 'photos-eu' AND minute >= '2026-11-28 03:00:00'",
    ["bucket", "copy_mb_per_sec"],
    [["photos-eu", 212.5]],
)
"""The photos-eu copy averaged 212.5 MB a second from 03:00."""

EGRESS = sql_result(
    "SELECT minute, egress_kb_per_s FROM edge_minutes WHERE minute >= '2026-11-28 03:10:00' "
    "AND minute < '2026-11-28 03:12:00' ORDER BY minute",
    ["minute", "egress_kb_per_s"],
    [["2026-11-28 03:10:00", 640], ["2026-11-28 03:11:00", 655]],
)
"""The edge sent 640 then 655 kB a second."""

CASES = [
    (
        "MB per second",
        "From 03:00 the photos-eu copy ran at 212.5 MB per second on average.",
        "From 03:00 the photos-eu copy ran at 212.5 GB per second on average.",
        COPY_RATE,
        "UNIT_MISMATCH",
    ),
    (
        "MB/s",
        "The photos-eu copy averaged 212.5 MB/s from 03:00.",
        "The photos-eu copy averaged 212.5 MB/min from 03:00.",
        COPY_RATE,
        "UNIT_MISMATCH",
    ),
    (
        "kB a second",
        "At 03:11 the edge sent 655 kB a second.",
        "At 03:11 the edge sent 655 kB a minute.",
        EGRESS,
        "UNIT_MISMATCH",
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited", "reason"), CASES)
def test_a_size_rate_is_given_in_the_unit_and_per_the_time_of_its_field(
    family: str, honest: str, twin: str, cited: JsonObject, reason: str
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family


def test_a_size_rate_converts_between_multiples() -> None:
    """212.5 MB/s is 0.2 GB/s to the precision written, not 2 GB/s."""
    assert reason_of(SUPPORT, "The photos-eu copy ran at about 0.2 GB/s.", COPY_RATE) is None
    assert reason_of(SUPPORT, "The photos-eu copy ran at about 2 GB/s.", COPY_RATE) is not None


@pytest.mark.parametrize(
    ("name", "unit"),
    [("copy_mb_per_sec", ("MB", 1e3)), ("egress_kb_per_s", ("kB", 1e3)),
     ("ingest_gb_per_min", ("GB", 6e4)), ("read_rps", None), ("wal_received_mb", None)],
)  # fmt: skip
def test_the_size_unit_of_a_rate_field_is_read_from_its_name(
    name: str, unit: tuple[str, float] | None
) -> None:
    assert field_quantity_unit(name) == unit
