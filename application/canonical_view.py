"""The canonical view of a call: its events joined with its vault bodies.

Keyed by the exact ``(run_id, tool_call_id)``: an id from another run is simply absent. The
view always exists for a call that began; its ``content`` says whether the bodies can be
trusted: AVAILABLE, EXPIRED (past the TTL set when the call began), TAMPERED (a digest does
not match its event, or the agent result is not a JSON object) or MISSING (gone before its
time). Only AVAILABLE content is handed out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import StrEnum

from attrs import fields, frozen
from returns.result import Success

from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.domain.call_record import CallRecord
from factledger.domain.codec import sha256_hex
from factledger.domain.invocation import Failed, Invocation, Projecting, Ready
from factledger.domain.json_shape import JsonRecord
from factledger.domain.json_types import JsonObject
from factledger.domain.run_log import RunLog
from factledger.domain.status import InvocationStatus
from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault

__all__ = ["CanonicalInvocation", "CanonicalView", "CanonicalViewReader", "ContentState"]

_CLOCK_SKEW = timedelta(seconds=5)


class ContentState(StrEnum):
    """Whether a call's bodies can be used."""

    AVAILABLE = "AVAILABLE"
    EXPIRED = "EXPIRED"
    TAMPERED = "TAMPERED"
    MISSING = "MISSING"


@frozen
class CanonicalView(CallRecord, JsonRecord):
    """A call's canonical record as metadata and digests: what any transport may show of it.

    The one definition of an invocation's view: the facade, the HTTP API and the MCP server
    all serve this shape; it adds the digests and the content state to ``CallRecord`` (which
    the audit's ``InvocationRow`` shares), and ``CanonicalInvocation`` adds the bodies."""

    reason: str | None
    """The tool's safe reason code, for ERROR."""
    content_expires_at: datetime
    """When its bodies leave the vault."""
    request_digest: str
    """SHA-256 of the arguments."""
    raw_digest: str | None
    """SHA-256 of the raw response, for READY."""
    result_digest: str | None
    """SHA-256 of the agent result, for READY."""
    truncated: bool
    """True when the projection cut anything."""
    content: ContentState
    """Whether the bodies can be used (the bodies themselves are never part of a view)."""


@frozen
class CanonicalInvocation(CanonicalView):
    """The only source of tool truth for one call: its view and, while usable, its bodies."""

    request: bytes | None
    """The arguments, when content is AVAILABLE."""
    raw_response: bytes | None
    """The raw response, when READY and content is AVAILABLE."""
    agent_result: JsonObject | None
    """The agent result, when READY and content is AVAILABLE."""

    @property
    def is_citable(self) -> bool:
        """READY with trustworthy content."""
        return self.status is InvocationStatus.READY and self.content is ContentState.AVAILABLE

    def view(self) -> CanonicalView:
        """The record without its bodies."""
        names = [field.name for field in fields(CanonicalView)]
        return CanonicalView(**{name: getattr(self, name) for name in names})

    def to_json(self) -> JsonObject:
        """The view's JSON: the bodies never leave as JSON."""
        return self.view().to_json()


def _parts(invocation: Invocation) -> tuple[PayloadPart, ...]:
    if isinstance(invocation, Ready):
        return (PayloadPart.REQUEST, PayloadPart.RAW, PayloadPart.RESULT)
    return (PayloadPart.REQUEST,)


class CanonicalViewReader:
    """Reads canonical records with one event read and one vault read per request."""

    def __init__(self, runs: RunRepository, vault: PayloadVault, clock: Clock) -> None:
        self._runs = runs
        self._vault = vault
        self._clock = clock

    def read(self, run_id: str, tool_call_id: str) -> CanonicalInvocation | StoreFailed | None:
        """One call's record; ``None`` when no call with this exact id began in this run."""
        many = self.read_many(run_id, (tool_call_id,))
        if isinstance(many, StoreFailed):
            return many
        return many[tool_call_id]

    def read_many(
        self, run_id: str, tool_call_ids: Sequence[str]
    ) -> dict[str, CanonicalInvocation | None] | StoreFailed:
        """Several calls of one run: the run's events read fresh, all bodies in one read."""
        log = self._runs.load(run_id)
        if isinstance(log, StoreFailed):
            return log
        return self.read_from_log(log, tool_call_ids)

    def read_from_log(
        self, log: RunLog, tool_call_ids: Sequence[str]
    ) -> dict[str, CanonicalInvocation | None] | StoreFailed:
        """Like ``read_many`` on a log the caller has already loaded."""
        found = {
            tool_call_id: log.invocation(tool_call_id)
            for tool_call_id in dict.fromkeys(tool_call_ids)
        }
        keys: list[PayloadKey] = []
        for tool_call_id, invocation in found.items():
            if invocation is not None:
                keys += [PayloadKey(log.run_id, tool_call_id, p) for p in _parts(invocation)]
        bodies = self._vault.get_many(keys)
        if not isinstance(bodies, Success):
            return StoreFailed("UNAVAILABLE")
        by_key = dict(zip(keys, bodies.unwrap(), strict=True))
        now = self._clock.now()
        return {
            tool_call_id: None
            if invocation is None
            else _assemble(log.run_id, invocation, by_key, now)
            for tool_call_id, invocation in found.items()
        }


def _assemble(
    run_id: str,
    invocation: Invocation,
    bodies: dict[PayloadKey, bytes | None],
    now: datetime,
) -> CanonicalInvocation:
    info = invocation.info
    request = bodies.get(PayloadKey(run_id, info.tool_call_id, PayloadPart.REQUEST))
    raw = bodies.get(PayloadKey(run_id, info.tool_call_id, PayloadPart.RAW))
    result = bodies.get(PayloadKey(run_id, info.tool_call_id, PayloadPart.RESULT))
    expected: list[tuple[bytes | None, str]] = [(request, info.request_digest)]
    if isinstance(invocation, Ready):
        expected += [(raw, invocation.raw_digest), (result, invocation.result_digest)]
    content = _content_state(expected, info.content_expires_at, now)
    agent_result: JsonObject | None = None
    if content is ContentState.AVAILABLE and isinstance(invocation, Ready):
        agent_result = _strict_object(result)
        if agent_result is None:
            content = ContentState.TAMPERED
    available = content is ContentState.AVAILABLE
    return CanonicalInvocation(
        run_id=run_id,
        tool_call_id=info.tool_call_id,
        tool_name=info.tool_name,
        step=info.step,
        status=invocation.status,
        evidence_status=invocation.evidence_status,
        error_code=invocation.error_code if isinstance(invocation, Failed) else None,
        reason=invocation.reason if isinstance(invocation, Failed) else None,
        started_at=info.started_at,
        completed_at=None if isinstance(invocation, Projecting) else invocation.completed_at,
        content_expires_at=info.content_expires_at,
        request_bytes=info.request_bytes,
        raw_bytes=None if isinstance(invocation, Projecting) else invocation.raw_bytes,
        projection_bytes=invocation.projection_bytes if isinstance(invocation, Ready) else None,
        request_digest=info.request_digest,
        raw_digest=invocation.raw_digest if isinstance(invocation, Ready) else None,
        result_digest=invocation.result_digest if isinstance(invocation, Ready) else None,
        truncated=invocation.truncated if isinstance(invocation, Ready) else False,
        content=content,
        request=request if available else None,
        raw_response=raw if available and isinstance(invocation, Ready) else None,
        agent_result=agent_result if available else None,
    )


def _content_state(
    expected: list[tuple[bytes | None, str]], expires_at: datetime, now: datetime
) -> ContentState:
    if now >= expires_at:
        return ContentState.EXPIRED
    for body, digest in expected:
        if body is None:
            # The vault's clock may run a little ahead of ours: gone at the edge is expiry.
            return ContentState.EXPIRED if now >= expires_at - _CLOCK_SKEW else ContentState.MISSING
        if sha256_hex(body) != digest:
            return ContentState.TAMPERED
    return ContentState.AVAILABLE


def _strict_object(body: bytes | None) -> JsonObject | None:
    if body is None:
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
