"""What the registry, the interceptor, the views and the guards need of an evidence tool.

``ToolSpec`` is the interface they call; ``EvidenceTool`` (``tool.py``) is the one abstract
class that implements it and that every tool subclasses. A prepared call is parsed, bound to
its backend and projector, and not yet run.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime

from attrs import frozen
from pydantic import BaseModel

from factledger.application.contracts.parse import EnvelopeError
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.progress.decisions import PreviousObservation
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.status import EvidenceStatus
from factledger.ports.tools import ResultProjector, ToolExecutor

__all__ = ["PreparedCall", "RunWindow", "ToolSpec", "WindowCheck"]


@frozen
class RunWindow:
    """The time window a run diagnoses, as a tool's window check is given it."""

    start: datetime
    """Start of the window (time-zone aware)."""
    end: datetime
    """End of the window (time-zone aware)."""


WindowCheck = Callable[[RunWindow], "str | None"]
"""A prepared call's check against its run's window: a reason code to refuse it, or None."""


def _accept(_: RunWindow) -> str | None:
    return None


@frozen
class PreparedCall:
    """A parsed call, bound to its backend and projector, not yet run."""

    arguments_json: str
    """The arguments exactly as received."""
    evaluations: tuple[PreviousObservation, ...]
    """The evaluations it carries (none, one, or several)."""
    scope: JsonObject
    """The scope it asks for, as the model may see it again (``checked_scope``)."""
    scope_identity: str
    """SHA-256 of the tool name and the normalised scope (duplicate identity)."""
    executor: ToolExecutor
    """Runs the backend."""
    projector: ResultProjector
    """Projects the raw result."""
    arguments_digest: str
    """SHA-256 of the canonical form of the parsed envelope with the tool's name: two
    spellings of the same call (key order, white space, a default left out, one evaluation as
    an object or as a list of one) have the same digest."""
    window_check: WindowCheck = _accept
    """Refuses the call when its run's window does not allow it (checked once the run is
    known, before the call is admitted; INVALID_ENVELOPE with the reason code)."""


class ToolSpec(ABC):
    """One evidence tool as the harness calls it (implemented by ``EvidenceTool``)."""

    name: str
    """The name the model calls it by."""
    description: str
    """What it is for, as the model reads it."""
    read_only: bool = True
    """The registration's read-only declaration; a tool that is not read-only is refused."""
    self_bounded: bool = False
    """True when the backend enforces its own time limit (run in the calling thread)."""
    blocking: bool = True
    """False when the backend and the projector compute from memory and return promptly,
    never waiting on I/O (run in the calling thread, like a self-bounded one). On an
    in-process store such a call waits on nothing, so ``AsyncHarness`` runs it on its event
    loop instead of handing it to a thread (ADR 0035)."""
    content_keys: tuple[str, ...] = ()
    """Keys of the agent result the model sees at the top level of a READY observation,
    besides ``scope``, ``truncated`` and ``relevance_level``."""
    has_relevance: bool = False
    """True when the tool reports a ``relevance_level``."""
    analysis_kinds: frozenset[AnalysisKind] = frozenset(AnalysisKind)
    """The analysis kinds its results may back (a citation of another kind is refused as
    EVIDENCE_KIND_MISMATCH)."""

    @abstractmethod
    def envelope_model(self) -> type[BaseModel]:
        """The pydantic envelope, for the exported schemas."""

    @abstractmethod
    def prepare(self, arguments_json: str) -> PreparedCall | EnvelopeError:
        """Parse strictly and bind the backend; nothing runs yet."""

    @abstractmethod
    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        """The evidence status the content implies (None when it has no valid shape)."""

    @abstractmethod
    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        """One factual sentence built from the content (trimmed by the caller)."""

    @abstractmethod
    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        """The sources this result verifies."""

    def judge_scope(self, agent_result: JsonObject) -> JsonValue:
        """What the result searched, as the semantic judge weighs a claim against it (the
        result's ``scope`` unless the tool says otherwise)."""
        return agent_result.get("scope")

    def supports(self, kind: AnalysisKind) -> bool:
        """True when a result of this tool may back an analysis of ``kind``."""
        return kind in self.analysis_kinds

    def close(self) -> None:
        """Release what the tool holds (connections, files); called when the harness closes."""
        return
