"""The canonical view: a call's events joined with its vault bodies, and when not to trust them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from factledger.adapters.memory.faults import FaultyPayloadVault, VaultOperation
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.application.canonical_view import (
    CanonicalInvocation,
    CanonicalViewReader,
    ContentState,
)
from factledger.application.run_repository import StoreFailed
from factledger.domain.status import EvidenceStatus, InvocationStatus
from factledger.domain.tool_result import BackendFailure, BackendFailureKind
from factledger.ports.payload_vault import PayloadKey, PayloadPart
from tests.support.boundary import Backend, Harness, make_harness


@pytest.fixture
def harness() -> Harness:
    return make_harness()


def _read(harness: Harness, run_id: str, tool_call_id: str = "call-1") -> CanonicalInvocation:
    record = harness.runtime.canonical.read(run_id, tool_call_id)
    assert isinstance(record, CanonicalInvocation), record
    return record


def _vault(harness: Harness) -> MemoryPayloadVault:
    vault = harness.runtime.vault
    assert isinstance(vault, MemoryPayloadVault)
    return vault


def test_a_ready_call_reads_back_with_every_body(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    record = _read(harness, run_id)
    assert record.content is ContentState.AVAILABLE
    assert record.is_citable
    assert record.request is not None
    assert record.raw_response is not None
    assert record.agent_result is not None


def test_an_id_from_another_run_is_simply_absent(harness: Harness) -> None:
    first = harness.start()
    second = harness.start()
    harness.call(first)
    assert harness.runtime.canonical.read(second, "call-1") is None


def test_content_past_its_ttl_is_expired_and_hands_out_nothing(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    harness.clock.advance(timedelta(hours=2))
    record = _read(harness, run_id)
    assert record.status is InvocationStatus.READY
    assert record.content is ContentState.EXPIRED
    assert (record.request, record.raw_response, record.agent_result) == (None, None, None)
    assert not record.is_citable


def test_reading_does_not_renew_the_ttl(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    for _ in range(4):
        harness.clock.advance(timedelta(minutes=29))
        _read(harness, run_id)
    harness.clock.advance(timedelta(minutes=5))
    assert _read(harness, run_id).content is ContentState.EXPIRED


@pytest.mark.parametrize("part", [PayloadPart.REQUEST, PayloadPart.RAW, PayloadPart.RESULT])
def test_a_body_whose_digest_does_not_match_its_event_is_tampered(
    harness: Harness, part: PayloadPart
) -> None:
    run_id = harness.start()
    harness.call(run_id)
    _vault(harness).replace_body(PayloadKey(run_id, "call-1", part), b'{"forged": true}')
    record = _read(harness, run_id)
    assert record.content is ContentState.TAMPERED
    assert record.agent_result is None
    assert not record.is_citable


def test_a_body_gone_before_its_time_is_missing(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    vault = _vault(harness)
    key = PayloadKey(run_id, "call-1", PayloadPart.RESULT)
    vault.replace_body(key, b"x")
    vault._bodies.pop(key)
    assert _read(harness, run_id).content is ContentState.MISSING


def test_an_error_call_has_its_code_and_no_evidence_content(harness: Harness) -> None:
    run_id = harness.start()
    backend = Backend(failure=BackendFailure(BackendFailureKind.BACKEND_TIMEOUT))
    harness.call(run_id, backend=backend)
    record = _read(harness, run_id)
    assert record.status is InvocationStatus.ERROR
    assert record.evidence_status is EvidenceStatus.ERROR
    assert record.raw_response is None
    assert record.agent_result is None
    assert not record.is_citable


def _reader_over(harness: Harness, vault: FaultyPayloadVault) -> CanonicalViewReader:
    return CanonicalViewReader(harness.runtime.runs, vault, harness.clock)


def test_several_calls_read_with_one_event_read_and_one_vault_read(harness: Harness) -> None:
    run_id = harness.start()
    for index in range(5):
        harness.call(run_id, f"call-{index}")
    vault = FaultyPayloadVault(_vault(harness))
    records = _reader_over(harness, vault).read_many(
        run_id, [f"call-{i}" for i in range(5)] + ["nope"]
    )
    assert not isinstance(records, StoreFailed)
    assert vault.calls(VaultOperation.GET_MANY) == 1
    assert records["nope"] is None
    assert all(records[f"call-{i}"] is not None for i in range(5))


def test_a_vault_outage_is_a_store_failure_never_trusted_content(harness: Harness) -> None:
    run_id = harness.start()
    harness.call(run_id)
    vault = FaultyPayloadVault(_vault(harness))
    reader = _reader_over(harness, vault)
    vault.set_down(True, VaultOperation.GET_MANY)
    assert isinstance(reader.read(run_id, "call-1"), StoreFailed)
    vault.set_down(False)
    assert isinstance(reader.read(run_id, "call-1"), CanonicalInvocation)
