"""The sweep's rule for how far a partition log may go, shared by every event store."""

from __future__ import annotations

from factledger.ports.retention import lowest_checkpoint


def test_the_lowest_checkpoint_in_the_store_s_own_order_is_the_limit() -> None:
    assert lowest_checkpoint(("10", "9", "11"), int) == "9"
    assert lowest_checkpoint(("10", "9", "11"), str) == "10"


def test_a_partition_without_checkpoints_or_with_a_missing_one_keeps_all() -> None:
    assert lowest_checkpoint((), int) is None
    assert lowest_checkpoint(("3", None), int) is None
