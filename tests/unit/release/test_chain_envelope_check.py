"""The deep chain check reads each envelope's run, sequence and previous hash: exactly, whether
the bytes are canonical (read from their tail) or laid out otherwise (parsed whole)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factledger.domain.chain import ChainBroken, ChainHead, ChainIntact, StoredEvent, verify_chain
from factledger.domain.codec import chain_hash
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import GENESIS_HASH
from factledger.domain.run_events import ModelCallPurpose, ModelUsageRecorded

AT = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def _sealed(run_id: str, count: int) -> list[StoredEvent]:
    events = [ModelUsageRecorded(ModelCallPurpose.AGENT_TURN, n, n) for n in range(count)]
    recorded = default_codec().seal(run_id, 1, GENESIS_HASH, AT, events)
    return [StoredEvent(run_id, item.sequence, item.data, item.hash) for item in recorded]


def _rechained(envelopes: list[bytes], run_id: str) -> tuple[list[StoredEvent], ChainHead]:
    """Events with these exact bytes and hashes recomputed over them (a forger with the head)."""
    stored, prev = [], GENESIS_HASH
    for sequence, data in enumerate(envelopes, start=1):
        prev = chain_hash(prev, data)
        stored.append(StoredEvent(run_id, sequence, data, prev))
    return stored, ChainHead(len(stored), prev)


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=20))
def test_canonical_envelopes_of_any_run_id_verify(run_id: str) -> None:
    stored = _sealed(run_id, 3)
    assert isinstance(verify_chain(stored, ChainHead(3, stored[-1].hash), deep=True), ChainIntact)


@pytest.mark.parametrize(
    ("field", "value"),
    [("sequence", 7), ("run_id", "run-other"), ("prev_hash", "f" * 64)],
)
def test_a_rechained_envelope_naming_another_place_is_caught(field: str, value: object) -> None:
    envelopes = [item.data for item in _sealed("run-1", 3)]
    forged = json.loads(envelopes[1])
    forged[field] = value
    envelopes[1] = json.dumps(forged, sort_keys=True, separators=(",", ":")).encode()
    stored, head = _rechained(envelopes, "run-1")
    assert verify_chain(stored, head, deep=True) == ChainBroken(2, "ENVELOPE_MISMATCH")


def test_a_right_envelope_in_another_layout_is_parsed_whole_and_verifies() -> None:
    stored, prev = [], GENESIS_HASH
    for item in _sealed("r", 3):
        envelope = json.loads(item.data)
        envelope["prev_hash"] = prev
        data = json.dumps(envelope, indent=1).encode()  # keys unsorted, white space
        prev = chain_hash(prev, data)
        stored.append(StoredEvent("r", item.sequence, data, prev))
    assert isinstance(verify_chain(stored, ChainHead(3, prev), deep=True), ChainIntact)


def test_a_fake_tail_hidden_after_the_real_one_is_not_trusted() -> None:
    envelopes = [item.data for item in _sealed("run-1", 2)]
    real = json.loads(envelopes[1])
    real["prev_hash"] = "e" * 64  # wrong, and a right-looking tail appended after it
    body = json.dumps(real, sort_keys=True, separators=(",", ":"))
    right = envelopes[0]
    fake = (
        body[:-1] + f',"zz":{{"prev_hash":"{chain_hash(GENESIS_HASH, right)}","run_id":"run-1"}}}}'
    )
    stored, head = _rechained([right, fake.encode()], "run-1")
    assert verify_chain(stored, head, deep=True) == ChainBroken(2, "ENVELOPE_MISMATCH")
