"""A duration written in two parts ("an hour and 5 minutes", "1 h 5 min") or with a half
("about 64 and a half minutes") is one duration, grounded as the span between the times the
claim writes; the part after "and" alone is not read as the duration.

The cited call is of an incident of its own: a storefront left in maintenance mode."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

TOGGLES = sql_result(
    "SELECT setting, new_value, changed_at FROM settings_changes "
    "WHERE setting = 'maintenance_mode' ORDER BY changed_at",
    ["setting", "new_value", "changed_at"],
    [
        ["maintenance_mode", "on", "2026-11-28 12:57:30"],
        ["maintenance_mode", "off", "2026-11-28 14:02:10"],
    ],
)
"""On for 64 minutes and 40 seconds."""


@pytest.mark.parametrize(
    "span",
    [
        "about an hour and 5 minutes",
        "1 h 5 min",
        "one hour 5 minutes",
        "about 64 and a half minutes",
    ],
)
def test_a_span_in_two_parts_passes(span: str) -> None:
    honest = f"maintenance_mode stayed on for {span}, from 12:57:30 to 14:02:10 UTC."
    assert reason_of(SUPPORT, honest, TOGGLES) is None


@pytest.mark.parametrize(
    "span", ["about 5 minutes", "about two hours and 5 minutes", "about 54 and a half minutes"]
)
def test_a_span_of_another_length_is_refused(span: str) -> None:
    twin = f"maintenance_mode stayed on for {span}, from 12:57:30 to 14:02:10 UTC."
    assert reason_of(SUPPORT, twin, TOGGLES) is not None
