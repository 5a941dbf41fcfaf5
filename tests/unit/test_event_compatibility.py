"""Events recorded before a field with a default was added still decode (the field takes its
default); an unknown field, or a missing field without a default, is still refused."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime

from attrs import evolve
from returns.result import Failure, Success

from factledger.domain.codec import canonical_json, chain_hash
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import GENESIS_HASH
from factledger.domain.progress.events import ProtocolViolationRecorded
from factledger.domain.run_events import InvocationBegan, RunStarted

AT = "2026-03-01T12:00:00.000000Z"


def _stored(event_type: str, payload: Mapping[str, object]) -> tuple[bytes, str]:
    envelope = {
        "run_id": "run-1",
        "sequence": 2,
        "type": event_type,
        "schema_version": 1,
        "occurred_at": AT,
        "payload": dict(payload),
        "prev_hash": GENESIS_HASH,
    }
    data = canonical_json(envelope)  # type: ignore[arg-type]  # plain JSON values
    return data, chain_hash(GENESIS_HASH, data)


BEGAN_BEFORE = {
    "tool_call_id": "call-1",
    "tool_name": "lookup_knowledge",
    "step": 1,
    "request_bytes": 10,
    "request_digest": "a" * 64,
    "content_expires_at": AT,
}


def test_an_invocation_began_recorded_before_the_digest_fields_decodes() -> None:
    data, digest = _stored("INVOCATION_BEGAN", BEGAN_BEFORE)
    decoded = default_codec().decode(data, digest)
    assert isinstance(decoded, Success), decoded
    event = decoded.unwrap().event
    assert isinstance(event, InvocationBegan)
    assert (event.arguments_digest, event.scope_identity, event.abandon_at) == (None, None, None)
    assert event.content_expires_at == datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_a_violation_recorded_before_steps_decodes_as_counted() -> None:
    payload = {
        "tool_call_id": "call-2",
        "violation": "MISSING_EVALUATION",
        "expected_tool_call_id": "call-1",
    }
    data, digest = _stored("PROTOCOL_VIOLATION_RECORDED", payload)
    decoded = default_codec().decode(data, digest)
    assert isinstance(decoded, Success), decoded
    event = decoded.unwrap().event
    assert isinstance(event, ProtocolViolationRecorded)
    assert event.counted is True
    assert event.step is None
    assert event.arguments_digest is None


def test_an_unknown_or_a_missing_required_field_is_still_refused() -> None:
    codec = default_codec()
    unknown = _stored("INVOCATION_BEGAN", {**BEGAN_BEFORE, "extra": 1})
    assert isinstance(codec.decode(*unknown), Failure)
    missing = {key: value for key, value in BEGAN_BEFORE.items() if key != "request_digest"}
    assert isinstance(codec.decode(*_stored("INVOCATION_BEGAN", missing)), Failure)


def test_the_new_fields_round_trip() -> None:
    codec = default_codec()
    event = InvocationBegan(
        "call-1",
        "lookup_knowledge",
        2,
        10,
        "a" * 64,
        datetime(2026, 3, 1, 14, tzinfo=UTC),
        arguments_digest="b" * 64,
        scope_identity="c" * 64,
        abandon_at=datetime(2026, 3, 1, 12, 1, tzinfo=UTC),
    )
    sealed = codec.seal("run-1", 1, GENESIS_HASH, datetime(2026, 3, 1, 12, tzinfo=UTC), [event])
    decoded = codec.decode(sealed[0].data, sealed[0].hash)
    assert isinstance(decoded, Success)
    assert decoded.unwrap().event == event
    assert json.loads(sealed[0].data)["payload"]["abandon_at"] == "2026-03-01T12:01:00.000000Z"


STARTED_BEFORE_OWNERS = {
    "run_id": "run-1",
    "budget": {"tool_calls": 8, "model_calls": 16},
    "tools": [],
    "context": {
        "service": "card-gateway",
        "start": None,
        "end": None,
        "question_digest": None,
        "question_bytes": 0,
    },
    "deadline": AT,
}


def test_a_run_started_before_owners_were_recorded_decodes_as_unowned() -> None:
    data, digest = _stored("RUN_STARTED", STARTED_BEFORE_OWNERS)
    decoded = default_codec().decode(data, digest)
    assert isinstance(decoded, Success), decoded
    event = decoded.unwrap().event
    assert isinstance(event, RunStarted)
    assert event.context.service == "card-gateway"
    assert event.context.owner is None
    owned = evolve(event, context=evolve(event.context, owner="d" * 64))
    sealed = default_codec().seal(
        "run-1", 1, GENESIS_HASH, datetime(2026, 3, 1, tzinfo=UTC), [owned]
    )
    again = default_codec().decode(sealed[0].data, sealed[0].hash)
    assert isinstance(again, Success)
    assert again.unwrap().event == owned
