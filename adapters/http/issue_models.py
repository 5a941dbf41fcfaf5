"""Response body of run verification (strict pydantic, mirroring the verdict's JSON field for
field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "BodyCounts",
    "StoredHead",
    "Verification",
    "VerificationProblem",
]


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


class StoredHead(_Strict):
    """A chain head: last sequence and its hash."""

    sequence: int
    """The last sequence number."""
    hash: str
    """The hash of that event."""


class BodyCounts(_Strict):
    """Vault bodies checked against their digests."""

    verified: int
    """Bodies that match."""
    expired: int
    """Bodies gone at their expiry (as they should be)."""


class VerificationProblem(_Strict):
    """A place where the run does not verify."""

    sequence: int
    """The bad event, or the event whose digest a body does not match."""
    reason: Literal[
        "SEQUENCE_GAP", "HASH_MISMATCH", "ENVELOPE_MISMATCH", "TAIL_MISSING", "HEAD_MISMATCH",
        "EXTRA_EVENTS", "UNDECODABLE", "BODY_TAMPERED", "BODY_MISSING",
    ]  # fmt: skip
    """What is wrong there."""
    tool_call_id: str | None
    """The call, for a body."""
    part: Literal["request", "raw", "result", "release"] | None
    """Which body."""


class Verification(_Strict):
    """``GET /runs/{run_id}/verification``: the run's hash chain and vault bodies."""

    run_id: str
    """The run."""
    ok: bool
    """True when everything verified."""
    error: Literal["NOT_FOUND", "STORE_UNAVAILABLE"] | None
    """Set when the run could not be verified at all (never in a 200 answer)."""
    events: int
    """Events read."""
    head: StoredHead | None
    """The head kept outside the stream."""
    bodies: BodyCounts
    """Bodies checked."""
    first_bad_event: VerificationProblem | None
    """The first problem, when there is one."""
    problems: list[VerificationProblem]
    """Every problem, first bad event first."""
