"""The canonical encoding round-trips, and the hash chain catches every kind of tampering."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Failure, Success

from factledger.domain.budget import RunBudget
from factledger.domain.chain import (
    GENESIS,
    ChainBroken,
    ChainHead,
    ChainIntact,
    StoredEvent,
    verify_chain,
)
from factledger.domain.codec import canonical_json, chain_hash, encode_datetime
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import GENESIS_HASH, Event, RecordedEvent
from factledger.domain.progress.events import ObservationRejected
from factledger.domain.progress.policy import RejectionReason
from factledger.domain.run_events import (
    DiagnosisContext,
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallPurpose,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
    ToolGrant,
)
from factledger.domain.status import EvidenceStatus, FailureCode, RunState

T0 = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)

EVERY_EVENT: list[Event] = [
    RunStarted(
        run_id="run-1",
        budget=RunBudget(tool_calls=3),
        tools=(ToolGrant("query_logs", True),),
        context=DiagnosisContext("payments", T0, T0 + timedelta(hours=1), "ab" * 32, 12),
        deadline=T0 + timedelta(minutes=5),
    ),
    ToolCallReserved("call-1", "query_logs", 42),
    InvocationBegan("call-1", "query_logs", 3, 42, "cd" * 32, T0 + timedelta(hours=2)),
    InvocationReady("call-1", EvidenceStatus.NO_EVIDENCE, 10, "ef" * 32, 5, "01" * 32, True),
    InvocationFailed("call-2", ToolBoundaryErrorCode.BACKEND_TIMEOUT, None, None),
    ModelCallReserved(ModelCallPurpose.SEMANTIC_JUDGE, None),
    ModelUsageRecorded(ModelCallPurpose.AGENT_TURN, 100, 20),
    RunEnded(RunState.CANCELLED, FailureCode.RUN_CANCELLED),
]


def _sealed(events: list[Event] = EVERY_EVENT) -> tuple[RecordedEvent, ...]:
    return default_codec().seal("run-1", 1, GENESIS_HASH, T0, events)


def _stored(recorded: tuple[RecordedEvent, ...]) -> list[StoredEvent]:
    return [StoredEvent(r.run_id, r.sequence, r.data, r.hash) for r in recorded]


def test_every_event_round_trips_through_its_stored_bytes() -> None:
    for recorded in _sealed():
        decoded = default_codec().decode(recorded.data, recorded.hash)
        assert isinstance(decoded, Success)
        assert decoded.unwrap() == recorded


def test_the_encoding_is_sorted_compact_utf8_json_without_the_hash() -> None:
    recorded = _sealed()[1]
    envelope = json.loads(recorded.data)
    assert list(envelope) == sorted(envelope)
    assert set(envelope) == {
        "run_id", "sequence", "type", "schema_version", "occurred_at", "payload", "prev_hash"
    }  # fmt: skip
    assert b" " not in recorded.data
    assert (
        recorded.data
        == json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )


def test_each_hash_chains_the_previous_hash_and_the_stored_bytes() -> None:
    sealed = _sealed()
    prev = GENESIS_HASH
    for recorded in sealed:
        assert recorded.prev_hash == prev
        assert recorded.hash == chain_hash(prev, recorded.data)
        prev = recorded.hash


def test_datetimes_are_utc_with_microseconds_whatever_zone_they_came_in() -> None:
    tokyo = timezone(timedelta(hours=9))
    assert encode_datetime(T0.astimezone(tokyo)) == "2026-03-01T12:00:00.123456Z"
    with pytest.raises(ValueError, match="timezone-aware"):
        encode_datetime(datetime(2026, 1, 1))


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (lambda d: d[:-1], "NOT_JSON"),
        (lambda d: b"[]", "BAD_ENVELOPE"),
        (lambda d: d.replace(b'"TOOL_CALL_RESERVED"', b'"NO_SUCH_EVENT"'), "UNKNOWN_TYPE"),
        (lambda d: d.replace(b'"request_bytes":42', b'"request_bytes":"42"'), "BAD_PAYLOAD"),
        (lambda d: d.replace(b'"request_bytes":42', b'"request_bytes":true'), "BAD_PAYLOAD"),
        (lambda d: d.replace(b'"request_bytes":42,', b""), "BAD_PAYLOAD"),
    ],
)
def test_bytes_that_are_not_a_known_event_decode_to_an_error_value(
    mangle: object, reason: str
) -> None:
    recorded = _sealed()[1]
    data = mangle(recorded.data)  # type: ignore[operator]  # the parametrized callables
    decoded = default_codec().decode(data, recorded.hash)
    assert isinstance(decoded, Failure)
    assert decoded.failure().reason == reason


def test_an_intact_chain_verifies_up_to_the_head_kept_outside_the_stream() -> None:
    sealed = _sealed()
    head = ChainHead(sealed[-1].sequence, sealed[-1].hash)
    verdict = verify_chain(_stored(sealed), head, deep=True)
    assert verdict == ChainIntact(head, len(sealed))
    assert verify_chain([], GENESIS) == ChainIntact(GENESIS, 0)


def test_a_modified_event_is_named() -> None:
    stored = _stored(_sealed())
    stored[3] = evolve(stored[3], data=stored[3].data.replace(b'"raw_bytes":10', b'"raw_bytes":11'))
    assert verify_chain(stored) == ChainBroken(4, "HASH_MISMATCH")


def test_a_deleted_event_in_the_middle_is_named() -> None:
    stored = _stored(_sealed())
    del stored[2]
    assert verify_chain(stored) == ChainBroken(3, "SEQUENCE_GAP")


def test_a_deleted_tail_is_caught_by_the_head_kept_outside() -> None:
    sealed = _sealed()
    head = ChainHead(sealed[-1].sequence, sealed[-1].hash)
    stored = _stored(sealed)[:-2]
    assert verify_chain(stored) == ChainIntact(ChainHead(6, sealed[5].hash), 6)
    assert verify_chain(stored, head) == ChainBroken(7, "TAIL_MISSING")


def test_reordered_events_are_named() -> None:
    stored = _stored(_sealed())
    a, b = stored[2], stored[3]
    stored[2] = evolve(b, sequence=3)
    stored[3] = evolve(a, sequence=4)
    assert verify_chain(stored) == ChainBroken(3, "HASH_MISMATCH")


def test_an_inserted_event_is_named() -> None:
    sealed = _sealed()
    stored = _stored(sealed)
    forged = default_codec().seal("run-1", 4, sealed[2].hash, T0, [EVERY_EVENT[4]])[0]
    stored.insert(3, StoredEvent("run-1", 4, forged.data, forged.hash))
    renumbered = [evolve(item, sequence=i + 1) for i, item in enumerate(stored)]
    assert verify_chain(renumbered) == ChainBroken(5, "HASH_MISMATCH")


def test_a_rewritten_tail_with_fresh_hashes_differs_from_the_kept_head() -> None:
    sealed = _sealed()
    head = ChainHead(sealed[-1].sequence, sealed[-1].hash)
    forged = default_codec().seal(
        "run-1", 8, sealed[6].hash, T0, [RunEnded(RunState.SUCCESS, None)]
    )[0]
    stored = [*_stored(sealed)[:-1], StoredEvent("run-1", 8, forged.data, forged.hash)]
    assert verify_chain(stored, head) == ChainBroken(8, "HEAD_MISMATCH")


def test_deep_verification_catches_bytes_whose_envelope_disagrees_with_the_chain() -> None:
    sealed = _sealed()
    other_run = default_codec().seal("run-2", 1, GENESIS_HASH, T0, [EVERY_EVENT[0]])[0]
    stored = [StoredEvent("run-1", 1, other_run.data, other_run.hash)]
    assert isinstance(verify_chain(stored), ChainIntact)
    assert verify_chain(stored, deep=True) == ChainBroken(1, "ENVELOPE_MISMATCH")
    assert isinstance(verify_chain(_stored(sealed), deep=True), ChainIntact)


def test_flipping_any_single_bit_of_any_stored_event_is_detected() -> None:
    sealed = _sealed()
    head = ChainHead(sealed[-1].sequence, sealed[-1].hash)
    pristine = _stored(sealed)
    for index, event in enumerate(pristine):
        for position in range(len(event.data)):
            data = bytearray(event.data)
            data[position] ^= 0x20
            tampered = [*pristine]
            tampered[index] = evolve(event, data=bytes(data))
            verdict = verify_chain(tampered, head)
            assert verdict == ChainBroken(index + 1, "HASH_MISMATCH"), (index, position)


@given(st.text(min_size=1, max_size=20), st.text(max_size=30))
def test_sealed_bytes_are_the_canonical_json_of_their_envelope_for_any_ids(
    run_id: str, tool_call_id: str
) -> None:
    event = ToolCallReserved(tool_call_id, "query_logs", 1)
    recorded = default_codec().seal(run_id, 1, GENESIS_HASH, T0, [event])[0]
    envelope = json.loads(recorded.data)
    assert (
        recorded.data
        == json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )
    assert envelope["run_id"] == run_id
    decoded = default_codec().decode(recorded.data, recorded.hash)
    assert isinstance(decoded, Success)
    assert decoded.unwrap().event == event


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@given(_JSON_VALUES)
def test_canonical_json_is_sorted_compact_utf8_json(value: object) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_json(value) == expected.encode()  # type: ignore[arg-type]


def test_canonical_json_refuses_a_value_that_refers_to_itself_with_a_value_error() -> None:
    looped: dict[str, object] = {}
    looped["self"] = looped
    with pytest.raises(ValueError, match="refers to itself"):
        canonical_json(looped)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        canonical_json({"not json": object()})  # type: ignore[dict-item]


def test_a_rejected_observation_decodes_only_a_reason_the_progress_protocol_names() -> None:
    rejected = ObservationRejected("call-1", RejectionReason.OBSERVATION_CONTRACT_MISMATCH)
    recorded = _sealed([rejected])[0]
    assert b'"reason":"OBSERVATION_CONTRACT_MISMATCH"' in recorded.data
    decoded = default_codec().decode(recorded.data, recorded.hash)
    assert isinstance(decoded, Success)
    event = decoded.unwrap().event
    assert isinstance(event, ObservationRejected)
    assert event.reason is RejectionReason.OBSERVATION_CONTRACT_MISMATCH
    unknown = recorded.data.replace(b'"OBSERVATION_CONTRACT_MISMATCH"', b'"SOMETHING_ELSE"')
    refused = default_codec().decode(unknown, recorded.hash)
    assert isinstance(refused, Failure)
    assert refused.failure().reason == "BAD_PAYLOAD"
