"""The envelope every evidence tool takes, and the inputs of the built-in tools.

``{"previous_observation": <evaluation> | [<evaluation>, ...] | null, "input": {...}}`` with
``<evaluation>`` = ``{"tool_call_id": str, "evaluation": "GAINED"|"NO_GAIN"}``. Parsing is
strict: unknown fields, trailing tokens, duplicate keys and type coercion are refused
(``parse.py``).
"""

from __future__ import annotations

from typing import Annotated, Generic, Literal, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from factledger.application.contracts.instant import Instant

__all__ = [
    "Envelope",
    "MAX_EVALUATIONS",
    "KnowledgeEnvelope",
    "KnowledgeInput",
    "LogsEnvelope",
    "LogsInput",
    "PreviousObservationModel",
    "PreviousObservations",
    "SqlEnvelope",
    "SqlInput",
    "StrictModel",
]


class StrictModel(BaseModel):
    """No unknown fields, no coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


_Name: TypeAlias = Annotated[str, StringConstraints(min_length=1, pattern=r"^[A-Za-z0-9_.\-]+$")]
"""A service or datasource name as a tool's input names it (its length is the field's)."""


class PreviousObservationModel(StrictModel):
    """The model's evaluation of one earlier EVIDENCE_FOUND result."""

    tool_call_id: str = Field(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.:\-]+$",
        description="The tool_call_id of an earlier result that found evidence.",
    )
    evaluation: Literal["GAINED", "NO_GAIN"] = Field(
        description="GAINED if that result moved the diagnosis forward, else NO_GAIN."
    )


MAX_EVALUATIONS = 32
"""Most evaluations one call may carry."""

PreviousObservations: TypeAlias = (
    PreviousObservationModel
    | Annotated[list[PreviousObservationModel], Field(max_length=MAX_EVALUATIONS)]
    | None
)
"""One evaluation, a list of them (one per result awaiting evaluation), or null."""

_PREVIOUS = (
    "Required after results with evidence_status EVIDENCE_FOUND: name each such call of your "
    "earlier turns and say whether it moved the diagnosis forward (one object, or a list with "
    "one object per result). Calls made in the same turn never evaluate each other. "
    "null otherwise."
)

I = TypeVar("I", bound=BaseModel)  # noqa: E741 - the input model


class Envelope(StrictModel, Generic[I]):
    """The envelope of every evidence tool, around the tool's own ``input`` model (the one
    definition: a built-in tool names its subclass, a team's tool gets one made for it)."""

    previous_observation: PreviousObservations = Field(default=None, description=_PREVIOUS)
    input: I


class KnowledgeInput(StrictModel):
    """What to look up in the runbooks."""

    query: str = Field(
        min_length=1, max_length=500, description="Free-text question or keywords to look up."
    )


class KnowledgeEnvelope(Envelope[KnowledgeInput]):
    """``lookup_knowledge`` arguments."""


class LogsInput(StrictModel):
    """Which log lines to look at."""

    service: _Name = Field(max_length=128, description="The service whose logs to search.")
    query: str = Field(
        max_length=500, description="Text the log lines must contain; empty for every line."
    )
    start: Instant = Field(description="Start of the window, ISO-8601 with a time zone.")
    end: Instant = Field(description="End of the window, ISO-8601 with a time zone.")
    limit: int | None = Field(
        default=None, ge=1, le=10_000, description="Most lines to match; null for the default."
    )


class LogsEnvelope(Envelope[LogsInput]):
    """``query_logs`` arguments."""


class SqlInput(StrictModel):
    """One read-only query against one configured datasource."""

    datasource: _Name = Field(max_length=64, description="The configured datasource to query.")
    sql: str = Field(
        min_length=1,
        max_length=8000,
        description=(
            "One SELECT over the allowed tables and columns, no '*'; NOW() is the call's start."
        ),
    )


class SqlEnvelope(Envelope[SqlInput]):
    """``query_sql`` arguments."""
