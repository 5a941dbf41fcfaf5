"""Identifiers the domain checks but never makes (ids come in as arguments)."""

from __future__ import annotations

import re
import zlib

__all__ = ["check_partitions", "is_valid_tool_call_id", "is_valid_run_id", "partition_of"]

_TOOL_CALL_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
_RUN_ID = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


def is_valid_tool_call_id(value: str) -> bool:
    """1–128 characters of ``[A-Za-z0-9_.:-]``."""
    return _TOOL_CALL_ID.fullmatch(value) is not None


def is_valid_run_id(value: str) -> bool:
    """1–64 characters of ``[A-Za-z0-9_.-]``: safe inside store keys and URLs."""
    return _RUN_ID.fullmatch(value) is not None


def partition_of(run_id: str, partitions: int) -> int:
    """The partition a run belongs to: a stable hash of its id, the same in every process."""
    check_partitions(partitions)
    return zlib.crc32(run_id.encode("utf-8")) % partitions


def check_partitions(partitions: int) -> None:
    """A store has at least one partition: a smaller count is a programming error."""
    if partitions < 1:
        raise ValueError(f"partitions must be at least 1, got {partitions!r}")
