"""The event catalog, the release's step events and their type names say the same thing."""

from __future__ import annotations

from typing import get_args

from factledger.domain.event_catalog import EVENT_CLASSES
from factledger.domain.release.events import (
    RELEASE_STEP_EVENTS,
    DraftChecked,
    ReleaseEvent,
    ReleaseStepType,
)


def test_the_step_names_are_the_step_events_types_in_order() -> None:
    assert tuple(cls.TYPE for cls in RELEASE_STEP_EVENTS) == get_args(ReleaseStepType)


def test_every_release_event_is_a_step_but_the_draft_check() -> None:
    assert set(get_args(ReleaseEvent)) == {DraftChecked, *RELEASE_STEP_EVENTS}


def test_the_codec_knows_every_step_event() -> None:
    assert set(RELEASE_STEP_EVENTS) <= set(EVENT_CLASSES)
    assert len(EVENT_CLASSES) == len(set(EVENT_CLASSES))


def test_the_catalog_is_every_member_of_the_event_union_with_a_unique_type() -> None:
    types = [cls.TYPE for cls in EVENT_CLASSES]  # type: ignore[attr-defined]  # every event class has one
    assert len(types) == len(set(types)) == 22
    assert {"RUN_STARTED", "OBSERVATION_EVALUATED", "DRAFT_CHECK", "RELEASE_DECISION"} <= set(types)
