"""``EvidenceTool``: the one abstract class every evidence tool subclasses.

A tool declares a typed input (a strict pydantic model for the ``input`` of the usual
envelope), a name and a description the model reads, the keys of its result the model sees,
and the analysis kinds its results may back; it implements how to run its backend (behind a
port of its own), how to project the raw result into a bounded one, the evidence-status rule
that result obeys, a one-line summary and its sources. Everything else — strict parsing, the
boundary and its budgets, the interceptor's protocol and duplicate checks, the progress
bookkeeping, the guards and the judge — is the harness's and the same for every tool.

The built-in tools (runbooks, logs, SQL) are written with this class too.
"""

from __future__ import annotations

import unicodedata
from abc import abstractmethod
from functools import partial
from typing import ClassVar, Generic, TypeVar

from pydantic import BaseModel, create_model
from returns.result import Result

from factledger.application.contracts.envelope import Envelope, PreviousObservationModel
from factledger.application.contracts.parse import EnvelopeError, parse_envelope
from factledger.application.tool_api.spec import PreparedCall, RunWindow, ToolSpec
from factledger.domain.codec import canonical_json, sha256_hex
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.progress.decisions import PreviousObservation
from factledger.domain.progress.policy import Evaluation
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import BackendFailure, ProjectedToolResult, ProjectionFailure

__all__ = ["EvidenceTool", "normalize_text"]

I = TypeVar("I", bound=BaseModel)  # noqa: E741 - the tool's input model


def normalize_text(text: str) -> str:
    """NFKC, case-folded, white space collapsed: two spellings of one scope compare equal."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _normalized(value: JsonValue) -> JsonValue:
    if isinstance(value, str):
        return normalize_text(value)
    if isinstance(value, list):
        return [_normalized(item) for item in value]
    if isinstance(value, dict):
        return {key: _normalized(item) for key, item in value.items()}
    return value


class EvidenceTool(ToolSpec, Generic[I]):
    """One evidence tool over the typed input ``I`` (see the module docstring).

    Set ``name``, ``description`` and ``input_model`` (and ``content_keys``, the result keys
    the model sees); implement ``scope``, ``run``, ``project``, ``evidence_status``,
    ``summarize`` and ``sources``."""

    input_model: ClassVar[type[BaseModel]]
    """The strict pydantic model of the envelope's ``input`` (``extra="forbid"``,
    ``strict=True`` as ``factledger.tools.StrictModel`` sets them)."""

    # -- what a tool implements ---------------------------------------------------------

    @abstractmethod
    def scope(self, request: I) -> JsonObject:
        """What this request asks for, as the model may be shown it again."""

    @abstractmethod
    def run(self, request: I, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        """Call the backend once (through the tool's own port) and return its raw JSON text;
        give up by itself after ``timeout_seconds``. A failure is a ``BackendFailure`` with
        a safe reason code; an exception is caught by the boundary as BACKEND_ERROR."""

    @abstractmethod
    def project(
        self, request: I, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        """Turn the raw text into a bounded, redacted agent result with its evidence status
        (pure: no I/O, no clock). The result carries ``scope`` and ``truncated``."""

    @abstractmethod
    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        """The evidence-status rule: the status a bounded result's content implies (None when
        the content has no valid shape). The harness recomputes it from every stored result
        and refuses one whose recorded status differs."""

    # -- what a tool may refine -----------------------------------------------------------

    def normalized_scope(self, request: I) -> JsonObject:
        """The scope with spelling differences removed: two requests with equal normalised
        scopes are one duplicate (default: every text of ``scope`` NFKC-folded)."""
        normalized = _normalized(self.scope(request))
        assert isinstance(normalized, dict)
        return normalized

    def refuse(self, request: I) -> str | None:
        """A reason code to refuse a well-formed request (e.g. an empty window); None to
        accept it. A refusal is INVALID_ENVELOPE with that reason; nothing runs."""
        return None

    def refuse_in_window(self, request: I, window: RunWindow) -> str | None:
        """A reason code to refuse a request its run's window does not allow (e.g. a time
        range outside the window); None to accept it. Checked once the run is known, before
        the call is admitted; a refusal is INVALID_ENVELOPE with that reason."""
        return None

    # -- what the harness provides ----------------------------------------------------------

    def envelope_model(self) -> type[BaseModel]:
        """The strict envelope around ``input_model`` (made once per tool class)."""
        return _envelope(type(self).__name__, self.input_model)

    def prepare(self, arguments_json: str) -> PreparedCall | EnvelopeError:
        """Parse strictly and bind the backend and the projector; nothing runs yet."""
        parsed = parse_envelope(self.envelope_model(), arguments_json)
        if isinstance(parsed, EnvelopeError):
            return parsed
        request: I = getattr(parsed, "input")  # noqa: B009 - the envelope's typed field
        refused = self.refuse(request)
        if refused is not None:
            return EnvelopeError(refused)
        evaluations = _evaluations(getattr(parsed, "previous_observation", None))
        if len({item.tool_call_id for item in evaluations}) < len(evaluations):
            return EnvelopeError("DUPLICATE_EVALUATION")
        identity = sha256_hex(
            canonical_json({"tool": self.name, "scope": self.normalized_scope(request)})
        )
        return PreparedCall(
            arguments_json=arguments_json,
            evaluations=evaluations,
            scope=self.scope(request),
            scope_identity=identity,
            executor=partial(self.run, request),
            projector=partial(self.project, request),
            arguments_digest=_arguments_digest(self.name, parsed, evaluations),
            window_check=partial(self.refuse_in_window, request),
        )


_ENVELOPES: dict[tuple[str, type[BaseModel]], type[BaseModel]] = {}


def _envelope(tool_class: str, input_model: type[BaseModel]) -> type[BaseModel]:
    key = (tool_class, input_model)
    made = _ENVELOPES.get(key)
    if made is None:
        name = tool_class.removesuffix("Tool").removesuffix("Spec") + "Envelope"
        base = Envelope[input_model]  # type: ignore[valid-type]  # parametrised at run time
        made = create_model(name, __base__=base, __doc__=f"{tool_class} arguments.")
        _ENVELOPES[key] = made
    return made


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
