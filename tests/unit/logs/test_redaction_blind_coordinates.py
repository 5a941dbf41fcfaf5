"""Coordinates the blind red-team set found whole: a latitude or longitude under its name, a
pair after a word naming a place or in a ``geo:`` URI, and an NMEA sentence's position."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ('{"device":"tracker-7","lat":48.091330,"lon":12.338044,"battery":81}', ["48.0913", "12.3380"]),
    ("fix latitude=52.520008 longitude=13.404954", ["52.5200", "13.4049"]),
    ("location update user=88231 pos=39.21345,-2.46996 acc=12m", ["39.21345"]),
    ('{"coords": [51.50735, -0.12776]}', ["51.50735"]),
    ("intent: geo:43.811907,-71.397086?z=17", ["43.811907"]),
    ("$GPRMC,015712.00,A,5230.4738,N,01324.7900,E,0.02,,041226,,,A*6C", ["5230.4738", "01324.79"]),
    ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", ["4807.038"]),
]

KEPT = [
    "lat=12ms p99",
    "pos=3 of 10",
    "long=1.5 short=0.5",
    "location=eu-west-1",
    "ratio lat=0.5",
    "pos=120.123456,300.123456",
    "version 12.338044 released",
]


@pytest.mark.parametrize(("line", "values"), MASKED)
def test_a_coordinate_named_paired_or_in_a_sentence_goes(line: str, values: list[str]) -> None:
    redacted = Redactor().redact(line)
    assert not [value for value in values if value in redacted]


@pytest.mark.parametrize("line", KEPT)
def test_latencies_counts_regions_and_out_of_range_pairs_stay(line: str) -> None:
    assert Redactor().redact(line) == line
