"""The model observation as a typed value: what one tool call gives back to the model.

One shape for every tool and transport: ``tool_call_id`` and ``status`` (READY, ERROR or
REFUSED). READY adds ``evidence_status``, ``scope``, ``truncated`` and the tool's bounded
content at the top level (``evidence`` and ``relevance_level`` for knowledge, ``patterns`` and
``events`` for logs, ``columns`` and ``rows`` for SQL, whatever keys a team's own tool
declares). ERROR and REFUSED add ``error_code`` and, where the tool gives one, a safe
``reason``. Control fields appear only when the harness must steer the model: ``stop_required``
with ``stop_reason``; ``repair_required`` with ``violation_type``, ``expected_tool_call_id`` and
``instruction``; ``checked_scope``. ``to_json()`` is exactly what the model is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final, TypeVar

from attrs import field, frozen

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.progress.policy import ViolationType
from factledger.domain.status import EvidenceStatus, StopReason

__all__ = ["Observation", "ObservationError", "ObservationStatus", "RepairRequest"]

E = TypeVar("E", bound=StrEnum)


class ObservationStatus(StrEnum):
    """How a call ended, as the model sees it."""

    READY = "READY"
    """The call finished into a citable record."""
    ERROR = "ERROR"
    """The call began and failed."""
    REFUSED = "REFUSED"
    """Nothing began: the backend did not run."""


class ObservationError(ValueError):
    """A JSON object that is not an observation (the message names the key, never a value)."""


@frozen
class RepairRequest:
    """What the model must do to repair a progress-protocol violation."""

    violation_type: ViolationType
    """Which rule the call broke."""
    expected_tool_call_id: str | None
    """The call whose evaluation is awaited (None when nothing awaits one)."""
    instruction: str
    """How to repair, in words the model reads."""


_FIXED: Final = frozenset(
    {
        "tool_call_id", "status", "evidence_status", "scope", "truncated", "error_code",
        "reason", "stop_required", "stop_reason", "repair_required", "violation_type",
        "expected_tool_call_id", "instruction", "checked_scope",
    }
)  # fmt: skip


@frozen
class Observation:
    """One call's observation (see the module docstring)."""

    tool_call_id: str
    """The call, as the model named it."""
    status: ObservationStatus
    """READY, ERROR or REFUSED."""
    evidence_status: EvidenceStatus | None = None
    """READY: whether the result holds candidate evidence."""
    scope: JsonValue = None
    """READY: the scope actually searched."""
    truncated: bool | None = None
    """READY: whether the bounded content was cut."""
    content: JsonObject = field(factory=dict)
    """READY: the tool's bounded content, sent at the top level of the JSON."""
    error_code: str | None = None
    """ERROR and REFUSED: a stable code."""
    reason: str | None = None
    """ERROR and REFUSED: the tool's safe reason code, where it gives one."""
    stop_reason: StopReason | None = None
    """Set when the model must stop collecting evidence (``stop_required`` in the JSON)."""
    repair: RepairRequest | None = None
    """Set when the model must repair a protocol violation (``repair_required``)."""
    checked_scope: JsonValue = None
    """Set when the call repeated a scope already checked: that scope."""

    @property
    def stop_required(self) -> bool:
        """True when the model must stop collecting evidence."""
        return self.stop_reason is not None

    @property
    def repair_required(self) -> bool:
        """True when the model must repair a protocol violation before going on."""
        return self.repair is not None

    @property
    def is_ready(self) -> bool:
        """True for a READY observation (citable by its ``tool_call_id``)."""
        return self.status is ObservationStatus.READY

    @property
    def relevance_level(self) -> JsonValue:
        """READY, for tools that report one: how relevant the best evidence is."""
        return self.content.get("relevance_level")

    def to_json(self) -> JsonObject:
        """The observation exactly as the model receives it (absent keys stay absent)."""
        out: JsonObject = {"tool_call_id": self.tool_call_id, "status": self.status.value}
        if self.status is ObservationStatus.READY:
            status = self.evidence_status
            out["evidence_status"] = None if status is None else status.value
            out["scope"] = self.scope
            out["truncated"] = bool(self.truncated)
        if self.error_code is not None:
            out["error_code"] = self.error_code
        if self.reason is not None:
            out["reason"] = self.reason
        out.update(self.content)
        if self.stop_reason is not None:
            out["stop_required"] = True
            out["stop_reason"] = self.stop_reason.value
        if self.repair is not None:
            out["repair_required"] = True
            out["violation_type"] = self.repair.violation_type.value
            out["expected_tool_call_id"] = self.repair.expected_tool_call_id
            out["instruction"] = self.repair.instruction
        if self.checked_scope is not None:
            out["checked_scope"] = self.checked_scope
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JsonValue]) -> Observation:
        """Read an observation's JSON (``ObservationError`` when it is not one)."""
        status = _enum(ObservationStatus, data.get("status"), "status")
        tool_call_id = data.get("tool_call_id")
        if not isinstance(tool_call_id, str):
            raise ObservationError("tool_call_id: expected a string")
        return cls(
            tool_call_id=tool_call_id,
            status=status,
            evidence_status=_optional_enum(EvidenceStatus, data, "evidence_status"),
            scope=data.get("scope"),
            truncated=_optional_bool(data, "truncated"),
            content={key: value for key, value in data.items() if key not in _FIXED},
            error_code=_optional_text(data, "error_code"),
            reason=_optional_text(data, "reason"),
            stop_reason=_optional_enum(StopReason, data, "stop_reason")
            if data.get("stop_required") is True
            else None,
            repair=_repair(data) if data.get("repair_required") is True else None,
            checked_scope=data.get("checked_scope"),
        )


def _repair(data: Mapping[str, JsonValue]) -> RepairRequest:
    violation = _enum(ViolationType, data.get("violation_type"), "violation_type")
    instruction = data.get("instruction")
    if not isinstance(instruction, str):
        raise ObservationError("instruction: expected a string")
    return RepairRequest(violation, _optional_text(data, "expected_tool_call_id"), instruction)


def _enum(kind: type[E], value: JsonValue, key: str) -> E:
    if not isinstance(value, str):
        raise ObservationError(f"{key}: not a {kind.__name__}")
    try:
        return kind(value)
    except ValueError:
        raise ObservationError(f"{key}: not a {kind.__name__}") from None


def _optional_enum(kind: type[E], data: Mapping[str, JsonValue], key: str) -> E | None:
    value = data.get(key)
    return None if value is None else _enum(kind, value, key)


def _optional_text(data: Mapping[str, JsonValue], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ObservationError(f"{key}: expected a string")
    return value


def _optional_bool(data: Mapping[str, JsonValue], key: str) -> bool | None:
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise ObservationError(f"{key}: expected a boolean")
    return value
