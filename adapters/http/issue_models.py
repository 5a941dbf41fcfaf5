"""Response bodies of the draft check and of run verification, and the validation issue they
share with the release result (strict pydantic, mirroring the facade's JSON field for field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from factledger.domain.release.events import FailureStage, SemanticVerdict
from factledger.domain.release.issues import IssueCode

__all__ = [
    "BodyCounts",
    "CheckResult",
    "StoredHead",
    "ValidationIssue",
    "Verification",
    "VerificationProblem",
]


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


class ValidationIssue(_Strict):
    """Why a draft was not (or would not be) released as it was."""

    code: IssueCode
    """The violation."""
    tool_call_id: str | None
    """The citation concerned."""
    analysis_index: int | None
    """The analysis concerned (0-based; null for the conclusion or the whole draft)."""
    reason: str | None = None
    """Why, as a stable code (``NOT_IN_RUN``, ``CONTENT_EXPIRED``, ``UNGROUNDED_NUMBER``...)."""
    token: str | None = None
    """The words of the claim at fault, when that helps mend the draft (never evidence)."""


class CheckResult(_Strict):
    """What checking a draft found; nothing was published and the run goes on."""

    run_id: str
    """The run."""
    passed: bool
    """True when the release would publish the draft as it is."""
    attempt: int
    """Which check of the run this was (1, 2, …)."""
    attempts_left: int
    """How many more drafts the run may have checked (``[release] check_attempts``)."""
    failure_stage: FailureStage | None
    """Where it failed, when it did."""
    semantic_verdict: SemanticVerdict | None
    """The judge's verdict, when it was asked."""
    validation_issues: list[ValidationIssue]
    """What to mend."""


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
