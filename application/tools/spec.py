"""What a tool brings to the registry: its contract, how to run it, and how to read its result.

Adding a tool means writing its contract (``application/contracts``), its backend adapter, its
projector (domain) and one ``ToolSpec``, and registering it with one line in the composition
root. The boundary, the store, the interceptor and the guards do not change.
"""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from attrs import frozen
from pydantic import BaseModel

from factledger.application.contracts.envelope import PreviousObservationModel
from factledger.application.contracts.parse import EnvelopeError, parse_envelope
from factledger.domain.codec import canonical_json, sha256_hex
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject
from factledger.domain.progress.decisions import PreviousObservation
from factledger.domain.progress.policy import Evaluation
from factledger.domain.status import EvidenceStatus
from factledger.ports.tools import ResultProjector, ToolExecutor

__all__ = ["EnvelopeTool", "PreparedCall", "ToolSpec", "normalize_text"]

E = TypeVar("E", bound=BaseModel)


def normalize_text(text: str) -> str:
    """NFKC, case-folded, white space collapsed: two spellings of one scope compare equal."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


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


class ToolSpec(ABC):
    """One evidence tool, as the registry and the interceptor need it."""

    name: str
    """The name the model calls it by."""
    description: str
    """What it is for, as the model reads it."""
    read_only: bool = True
    """The registration's read-only declaration; a tool that is not read-only is refused."""
    self_bounded: bool = False
    """True when the backend enforces its own time limit (run in the calling thread)."""
    content_keys: tuple[str, ...] = ()
    """Keys of the agent result the model sees at the top level of a READY observation,
    besides ``scope``, ``truncated`` and ``relevance_level``."""
    has_relevance: bool = False
    """True when the tool reports a ``relevance_level``."""

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


class EnvelopeTool(ABC, Generic[E]):
    """A ``ToolSpec`` helper for tools with a pydantic envelope ``E``."""

    name: str

    @abstractmethod
    def envelope_type(self) -> type[E]:
        """The envelope class."""

    @abstractmethod
    def scope_of(self, envelope: E) -> JsonObject:
        """The scope asked for."""

    @abstractmethod
    def normalized_scope(self, envelope: E) -> JsonObject:
        """The scope with spelling differences removed."""

    @abstractmethod
    def bind(self, envelope: E) -> tuple[ToolExecutor, ResultProjector]:
        """The backend call and projector for this envelope."""

    def envelope_model(self) -> type[BaseModel]:
        return self.envelope_type()

    def refuse(self, envelope: E) -> EnvelopeError | None:
        """A reason to refuse a well-formed envelope (e.g. an empty window); None to accept."""
        return None

    def prepare(self, arguments_json: str) -> PreparedCall | EnvelopeError:
        parsed = parse_envelope(self.envelope_type(), arguments_json)
        if isinstance(parsed, EnvelopeError):
            return parsed
        refused = self.refuse(parsed)
        if refused is not None:
            return refused
        evaluations = _evaluations(getattr(parsed, "previous_observation", None))
        if len({item.tool_call_id for item in evaluations}) < len(evaluations):
            return EnvelopeError("DUPLICATE_EVALUATION")
        identity = sha256_hex(
            canonical_json({"tool": self.name, "scope": self.normalized_scope(parsed)})
        )
        executor, projector = self.bind(parsed)
        return PreparedCall(
            arguments_json=arguments_json,
            evaluations=evaluations,
            scope=self.scope_of(parsed),
            scope_identity=identity,
            executor=executor,
            projector=projector,
            arguments_digest=_arguments_digest(self.name, parsed, evaluations),
        )


def _evaluations(value: object) -> tuple[PreviousObservation, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    return tuple(
        PreviousObservation(item.tool_call_id, Evaluation(item.evaluation))
        for item in items
        if isinstance(item, PreviousObservationModel)
    )


def _arguments_digest(
    name: str, parsed: BaseModel, evaluations: tuple[PreviousObservation, ...]
) -> str:
    # The contract's own JSON dump is canonical for a given contract: fields in declaration
    # order, every default spelled out, values in one form each. The evaluations are added as
    # a sorted list, so one object and a list of one are the same.
    arguments = parsed.model_dump_json(exclude={"previous_observation"})
    pairs = sorted(f"{item.tool_call_id}={item.evaluation.value}" for item in evaluations)
    return sha256_hex("\n".join((name, arguments, *pairs)).encode("utf-8"))
