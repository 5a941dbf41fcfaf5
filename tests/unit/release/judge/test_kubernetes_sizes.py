"""A size written as Kubernetes writes it (``512Mi``, ``2Gi``) is a binary multiple of bytes:
a claim of "512 MiB" or "512 MB" agrees with ``512Mi``, a claim in another multiple does not.

The cited calls are of an incident of their own: a search indexer killed at its memory
limit."""

from __future__ import annotations

import pytest

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

KILLED = log_result(
    "search-indexer",
    "OOMKilled",
    [
        ("container indexer terminated: OOMKilled, memory limit 512Mi, restarts <*>", 6, "WARN",
         ["container indexer terminated: OOMKilled, memory limit 512Mi, restarts 4"]),
    ],
)  # fmt: skip


@pytest.mark.parametrize("size", ["512 MiB", "512 MB", "512Mi", "0.5 GiB"])
def test_the_limit_in_any_spelling_of_its_multiple_passes(size: str) -> None:
    honest = f"The indexer container was OOMKilled at its memory limit of {size}."
    assert reason_of(SUPPORT, honest, KILLED) is None


@pytest.mark.parametrize("size", ["512 KiB", "512 GiB", "512 GB"])
def test_the_limit_in_another_multiple_is_refused(size: str) -> None:
    twin = f"The indexer container was OOMKilled at its memory limit of {size}."
    assert reason_of(SUPPORT, twin, KILLED) == "UNIT_MISMATCH"
