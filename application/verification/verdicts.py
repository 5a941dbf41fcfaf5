"""What verifying a run finds: values, and their JSON for every transport."""

from __future__ import annotations

from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.chain import ChainBreak, ChainHead, StoredEvent
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.ports.payload_vault import PayloadPart

__all__ = [
    "LogAbsent",
    "LogBroken",
    "LogIntact",
    "LogUnreadable",
    "LogVerdict",
    "ProblemReason",
    "RunVerdict",
    "VerifyError",
    "VerifyProblem",
]

ProblemReason: TypeAlias = ChainBreak | Literal["UNDECODABLE", "BODY_TAMPERED", "BODY_MISSING"]
"""A chain break, an event whose bytes are not an event this code reads, a body that does not
match its recorded digest, or a body gone before its expiry."""

VerifyError: TypeAlias = Literal["NOT_FOUND", "STORE_UNAVAILABLE"]
"""Why a run could not be verified at all."""


@frozen
class VerifyProblem:
    """A place where a run does not verify."""

    sequence: int
    """The event that is bad, or whose recorded digest a body does not match."""
    reason: ProblemReason
    """What is wrong there."""
    tool_call_id: str | None = None
    """The call, for a body."""
    part: PayloadPart | None = None
    """Which body."""

    def to_json(self) -> JsonObject:
        return {
            "sequence": self.sequence,
            "reason": self.reason,
            "tool_call_id": self.tool_call_id,
            "part": None if self.part is None else self.part.value,
        }

    def describe(self) -> str:
        """``event 6: HASH_MISMATCH`` (with the call and body for a body)."""
        where = f"event {self.sequence}: {self.reason}"
        if self.tool_call_id is not None and self.part is not None:
            where += f" ({self.tool_call_id} {self.part.value})"
        return where


@frozen
class RunVerdict:
    """What verifying one run found."""

    run_id: str
    """The run."""
    error: VerifyError | None
    """Set when the run could not be verified at all."""
    events: int = 0
    """Events read."""
    head: ChainHead | None = None
    """The head kept outside the stream."""
    bodies_verified: int = 0
    """Bodies whose digest matches their event."""
    bodies_expired: int = 0
    """Bodies past their expiry (absent as they should be)."""
    problems: tuple[VerifyProblem, ...] = ()
    """Every problem found, first bad event first."""

    @property
    def ok(self) -> bool:
        """True when the run verified completely."""
        return self.error is None and not self.problems

    def to_json(self) -> JsonObject:
        """``{"run_id", "ok", "error", "events", "head", "bodies", "first_bad_event",
        "problems"}``."""
        problems: list[JsonValue] = [problem.to_json() for problem in self.problems]
        return {
            "run_id": self.run_id,
            "ok": self.ok,
            "error": self.error,
            "events": self.events,
            "head": None
            if self.head is None
            else {"sequence": self.head.sequence, "hash": self.head.hash},
            "bodies": {"verified": self.bodies_verified, "expired": self.bodies_expired},
            "first_bad_event": problems[0] if problems else None,
            "problems": problems,
        }


@frozen
class LogIntact:
    """Every stored event chains from the first to the head kept outside the stream."""

    head: ChainHead
    """The verified head."""
    events: tuple[StoredEvent, ...]
    """The verified events, in order."""


@frozen
class LogBroken:
    """The chain breaks; nothing from this log may be published."""

    problem: VerifyProblem
    """The first bad event."""


@frozen
class LogUnreadable:
    """The store could not be read."""


@frozen
class LogAbsent:
    """No run with this id in the store."""


LogVerdict: TypeAlias = LogIntact | LogBroken | LogUnreadable | LogAbsent
"""What verifying a run's log (its chain only) found."""
