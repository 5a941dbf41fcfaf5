"""A size column named for its multiple (``used_mib``, ``quota_gib``) holds sizes: a claim may
read its cells in another multiple, subtract two of them, or subtract a cell of one cited
query from a cell of another, and a claim in the wrong multiple is refused.

The cited calls are of an incident of their own: build runners whose cache volume filled."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result


def _usage(at: str, rows: list[list[object]]) -> JsonObject:
    return sql_result(
        f"SELECT runner, used_mib, size_mib FROM cache_usage WHERE sampled_at = '2026-11-20 {at}' "
        "ORDER BY runner",
        ["runner", "used_mib", "size_mib"],
        rows,
    )


MORNING = _usage("08:00:00", [["builder-1", 9216, 20480], ["builder-2", 11264, 20480]])
NOON = _usage("12:00:00", [["builder-1", 16896, 20480], ["builder-2", 20480, 20480]])


def test_a_cell_read_in_a_larger_multiple_passes() -> None:
    honest = "At 12:00 builder-2 had used 20,480 MiB of its cache volume, all 20 GiB of it."
    assert reason_of(SUPPORT, honest, NOON) is None


def test_a_cell_read_in_a_multiple_a_thousand_times_too_large_is_refused() -> None:
    twin = "At 12:00 builder-2 had used 20,480 MiB of its cache volume, all 20 TiB of it."
    assert reason_of(SUPPORT, twin, NOON) == "UNIT_MISMATCH"


@pytest.mark.parametrize("free", ["about 3.5 GiB", "3,584 MiB"])
def test_the_difference_of_two_cells_passes(free: str) -> None:
    honest = (
        f"At 12:00 builder-1 still had {free} free on its cache volume (20,480 minus 16,896 MiB)."
    )
    assert reason_of(SUPPORT, honest, NOON) is None


def test_the_difference_in_the_wrong_multiple_is_refused() -> None:
    twin = (
        "At 12:00 builder-1 still had about 3.5 MiB free on its cache volume "
        "(20,480 minus 16,896 MiB)."
    )
    assert reason_of(SUPPORT, twin, NOON) is not None


def test_growth_between_two_queries_passes() -> None:
    honest = (
        "builder-1's cache grew from 9,216 MiB at 08:00 to 16,896 MiB at 12:00, 7,680 MiB more."
    )
    assert reason_of(SUPPORT, honest, MORNING, NOON) is None


@pytest.mark.parametrize("more", ["8,680 MiB", "7,680 GiB"])
def test_growth_miscomputed_or_in_another_multiple_is_refused(more: str) -> None:
    twin = f"builder-1's cache grew from 9,216 MiB at 08:00 to 16,896 MiB at 12:00, {more} more."
    assert reason_of(SUPPORT, twin, MORNING, NOON) is not None
