"""Database cells become JSON scalars the same way on every engine."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from factledger.adapters.sql.values import to_json_scalar
from factledger.domain.json_types import JsonScalar


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        (True, True),
        (7, 7),
        (1.5, 1.5),
        (float("inf"), "inf"),
        ("text", "text"),
        (Decimal("12"), 12),
        (Decimal("12.50"), 12.5),
        (Decimal("12345678901234567890.123456789"), "12345678901234567890.123456789"),
        (datetime.datetime(2024, 5, 1, 10, 2, 3), "2024-05-01 10:02:03"),
        (datetime.datetime(2024, 5, 1, 10, 2, 3, 500), "2024-05-01 10:02:03.000500"),
        (datetime.date(2024, 5, 1), "2024-05-01"),
        (datetime.time(10, 2, 3), "10:02:03"),
        (datetime.timedelta(hours=30, minutes=1, seconds=2), "30:01:02"),
        (-datetime.timedelta(seconds=61), "-00:01:01"),
        (b"paid", "paid"),
        (b"\xff\x00", "0xff00"),
    ],
)
def test_a_cell_value_becomes_a_json_scalar(value: object, expected: JsonScalar) -> None:
    assert to_json_scalar(value) == expected
    assert type(to_json_scalar(value)) is type(expected)
