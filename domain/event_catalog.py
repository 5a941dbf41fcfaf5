"""The one list of event classes a run stream may hold, and the codec built over it."""

from __future__ import annotations

from factledger.domain.codec import EventCodec
from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationEvaluated,
    ObservationRejected,
    ProtocolViolationRecorded,
)
from factledger.domain.release.events import RELEASE_STEP_EVENTS, DraftChecked
from factledger.domain.run_events import (
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallFailed,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
)

__all__ = ["EVENT_CLASSES", "default_codec"]

EVENT_CLASSES: tuple[type, ...] = (
    RunStarted,
    ToolCallReserved,
    InvocationBegan,
    InvocationReady,
    InvocationFailed,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    ObservationEvaluated,
    ProtocolViolationRecorded,
    DuplicateScopeRecorded,
    CallOutcomeRecorded,
    ObservationRejected,
    CollectionStopped,
    *RELEASE_STEP_EVENTS,
    ModelCallFailed,
    DraftChecked,
)
"""Every event class, each with a unique ``TYPE``."""

_CODEC = EventCodec(EVENT_CLASSES)


def default_codec() -> EventCodec:
    """The codec over every event class (built once; it holds no state but caches)."""
    return _CODEC
