"""What the release's steps return besides their own results: closed unions, no exceptions."""

from __future__ import annotations

from typing import TypeAlias

from attrs import frozen

from factledger.domain.release.events import ReleaseDecided
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.status import FailureCode

__all__ = [
    "AlreadyReleased",
    "Interruption",
    "ReleaseOutcomeValue",
    "RunLeft",
    "StoreDown",
    "UnknownRun",
]


@frozen
class AlreadyReleased:
    """The run was released before; a run completes once."""

    run_id: str
    """The run."""
    decision: ReleaseDecided
    """The recorded decision."""


@frozen
class UnknownRun:
    """No run with this id exists."""

    run_id: str
    """The id asked for."""


ReleaseOutcomeValue: TypeAlias = ReleaseResult | AlreadyReleased | UnknownRun
"""What ``release`` returns."""


@frozen
class StoreDown:
    """A step could not read or record: the release fails closed with ``code``."""

    code: FailureCode
    """STORE_UNAVAILABLE, LOG_CORRUPTED or STORE_DIVERGED."""


@frozen
class RunLeft:
    """The run left RUNNING during the step (a cancel, a deadline, a spent model budget)."""


Interruption: TypeAlias = StoreDown | RunLeft
"""Why a step stopped before its end."""
