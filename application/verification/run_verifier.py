"""Run verification, the use case behind ``factledger runs verify``, ``Harness.verify``, the
HTTP and MCP verify operations, and the release's first step.

``verify_log`` checks a run's hash chain over the stored bytes: every hash, every envelope's
run, sequence and previous hash, no gap, and the last event against the head kept outside the
stream (so a deleted tail is caught). ``verify`` does that and then checks every vault body
against the digest its event recorded (request in INVOCATION_BEGAN, raw and result in
INVOCATION_READY, the published release result in RELEASE_DECISION). A body past its expiry
is counted as expired, not as tampered.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from attrs import frozen
from returns.result import Success

from factledger.application.verification.chain_read import read_chain
from factledger.application.verification.verdicts import (
    LogAbsent,
    LogBroken,
    LogIntact,
    LogUnreadable,
    LogVerdict,
    ProblemReason,
    RunVerdict,
    VerifyProblem,
)
from factledger.domain.chain import ChainBroken, StoredEvent, verify_chain
from factledger.domain.codec import EventCodec, sha256_hex
from factledger.domain.release.events import ReleaseDecided
from factledger.domain.run_events import InvocationBegan, InvocationReady
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault

__all__ = ["RunVerifier"]

_CLOCK_SKEW: Final = timedelta(seconds=5)


@frozen
class _Expected:
    sequence: int
    key: PayloadKey
    digest: str
    expires_at: datetime | None


class RunVerifier:
    """Verifies runs of one store and vault."""

    def __init__(
        self,
        store: EventStore,
        vault: PayloadVault,
        clock: Clock,
        codec: EventCodec,
        *,
        release_ttl: timedelta,
    ) -> None:
        self._store = store
        self._vault = vault
        self._clock = clock
        self._codec = codec
        self._release_ttl = release_ttl
        """How long release results are kept (``[vault] ttl_seconds``)."""

    def verify_log(self, run_id: str) -> LogVerdict:
        """The run's chain, deep, against the head kept outside the stream."""
        read = read_chain(self._store, run_id)
        if not isinstance(read, Success):
            return LogUnreadable()
        found = read.unwrap()
        if found is None:
            return LogAbsent()
        events = found.events
        chain = verify_chain(events, found.head, deep=True)
        if isinstance(chain, ChainBroken):
            return LogBroken(VerifyProblem(chain.sequence, chain.reason))
        return LogIntact(chain.head, events)

    def verify(self, run_id: str) -> RunVerdict:
        """The chain, then every body of the events that verified (see the module doc)."""
        read = read_chain(self._store, run_id)
        if not isinstance(read, Success):
            return RunVerdict(run_id, "STORE_UNAVAILABLE")
        found = read.unwrap()
        if found is None:
            return RunVerdict(run_id, "NOT_FOUND")
        head, events = found.head, found.events
        chain = verify_chain(events, head, deep=True)
        problems: list[VerifyProblem] = []
        trusted = events
        if isinstance(chain, ChainBroken):
            problems.append(VerifyProblem(chain.sequence, chain.reason))
            trusted = events[: chain.sequence - 1]  # sequences 1 … k-1 verified, in order
        expected, undecodable = self._expected_bodies(run_id, trusted)
        problems += undecodable
        bodies = self._vault.get_many([item.key for item in expected])
        if not isinstance(bodies, Success):
            return RunVerdict(run_id, "STORE_UNAVAILABLE", len(events), head)
        verified, expired, bad = _check_bodies(expected, bodies.unwrap(), self._clock.now())
        problems = sorted(problems + bad, key=lambda problem: problem.sequence)
        return RunVerdict(run_id, None, len(events), head, verified, expired, tuple(problems))

    def _expected_bodies(
        self, run_id: str, events: Sequence[StoredEvent]
    ) -> tuple[list[_Expected], list[VerifyProblem]]:
        expected: list[_Expected] = []
        problems: list[VerifyProblem] = []
        expiry: dict[str, datetime] = {}
        for item in events:
            decoded = self._codec.decode(item.data, item.hash)
            if not isinstance(decoded, Success):
                problems.append(VerifyProblem(item.sequence, "UNDECODABLE"))
                continue
            recorded = decoded.unwrap()
            event = recorded.event
            if isinstance(event, ReleaseDecided):
                # The event does not record the body's expiry: it was set when the release was
                # decided, ``[vault] ttl_seconds`` ahead.
                expires_at = recorded.occurred_at + self._release_ttl
                key = PayloadKey.of_release(run_id)
                expected.append(_Expected(item.sequence, key, event.result_digest, expires_at))
            elif isinstance(event, InvocationBegan):
                expiry[event.tool_call_id] = event.content_expires_at
                key = PayloadKey(run_id, event.tool_call_id, PayloadPart.REQUEST)
                expected.append(
                    _Expected(item.sequence, key, event.request_digest, event.content_expires_at)
                )
            elif isinstance(event, InvocationReady):
                expires = expiry.get(event.tool_call_id)
                for part, digest in (
                    (PayloadPart.RAW, event.raw_digest),
                    (PayloadPart.RESULT, event.result_digest),
                ):
                    key = PayloadKey(run_id, event.tool_call_id, part)
                    expected.append(_Expected(item.sequence, key, digest, expires))
        return expected, problems


def _check_bodies(
    expected: Sequence[_Expected], bodies: Sequence[bytes | None], now: datetime
) -> tuple[int, int, list[VerifyProblem]]:
    verified = expired = 0
    problems: list[VerifyProblem] = []
    for item, body in zip(expected, bodies, strict=True):
        reason: ProblemReason
        if body is None:
            if item.expires_at is not None and now >= item.expires_at - _CLOCK_SKEW:
                expired += 1
                continue
            reason = "BODY_MISSING"
        elif sha256_hex(body) != item.digest:
            reason = "BODY_TAMPERED"
        else:
            verified += 1
            continue
        problems.append(VerifyProblem(item.sequence, reason, item.key.tool_call_id, item.key.part))
    return verified, expired, problems
