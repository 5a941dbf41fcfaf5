"""Refusals the progress tracker records, as a retry of the refused call needs them.

A refused call began nothing, but its refusal is in the log (a protocol violation, a
duplicate scope, or a stop that came with it). Its tool_call_id is then taken in the run, and
a retry of it — the same id with the same arguments — is answered with the same refusal,
rebuilt from these values, without being decided again.
"""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from factledger.domain.progress.policy import ViolationType
from factledger.domain.status import StopReason

__all__ = ["DuplicateRefused", "RecordedRefusal", "StopRefused", "ViolationRefused"]


@frozen
class ViolationRefused:
    """Refused PROTOCOL_VIOLATION."""

    arguments_digest: str
    """The refused call's arguments digest."""
    violation: ViolationType
    """How it broke the protocol."""
    expected_tool_call_ids: tuple[str, ...]
    """The calls it should have evaluated."""
    step: int | None
    """Its agent step (calls with a step are told every expected id)."""


@frozen
class DuplicateRefused:
    """Refused DUPLICATE_SCOPE."""

    arguments_digest: str
    """The refused call's arguments digest."""
    first_tool_call_id: str
    """The call that checked (or was checking) the same scope."""


@frozen
class StopRefused:
    """Refused while collection stopped with it: STOP_REQUIRED when its evaluations saturated
    collection, BUDGET_EXHAUSTED when the boundary found a run budget spent."""

    arguments_digest: str
    """The refused call's arguments digest."""
    reason: StopReason
    """The stop that came with the refusal."""


RecordedRefusal: TypeAlias = ViolationRefused | DuplicateRefused | StopRefused
"""A refusal recorded in the log, by refused tool_call_id."""
