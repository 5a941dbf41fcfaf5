"""The envelope every evidence tool takes, and the inputs of the built-in tools.

``{"previous_observation": {"tool_call_id": str, "evaluation": "GAINED"|"NO_GAIN"} | null,
"input": {...}}``. Parsing is strict: unknown fields, trailing tokens, duplicate keys and type
coercion are refused (``parse.py``).
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

__all__ = [
    "Envelope",
    "KnowledgeEnvelope",
    "KnowledgeInput",
    "LogsEnvelope",
    "LogsInput",
    "PreviousObservationModel",
    "SqlEnvelope",
    "SqlInput",
    "StrictModel",
]


class StrictModel(BaseModel):
    """No unknown fields, no coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PreviousObservationModel(StrictModel):
    """The model's evaluation of the previous EVIDENCE_FOUND result."""

    tool_call_id: str = Field(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.:\-]+$",
        description="The tool_call_id of the previous result that found evidence.",
    )
    evaluation: Literal["GAINED", "NO_GAIN"] = Field(
        description="GAINED if that result moved the diagnosis forward, else NO_GAIN."
    )


_PREVIOUS = (
    "Required after a result with evidence_status EVIDENCE_FOUND: name that call and say "
    "whether it moved the diagnosis forward. null otherwise."
)

I = TypeVar("I", bound=BaseModel)  # noqa: E741 - the input model


class Envelope(StrictModel, Generic[I]):
    """The envelope of every evidence tool, around the tool's own ``input`` model (the one
    definition: a built-in tool names its subclass, a team's tool gets one made for it)."""

    previous_observation: PreviousObservationModel | None = Field(
        default=None, description=_PREVIOUS
    )
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

    service: str = Field(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.\-]+$",
        description="The service whose logs to search.",
    )
    query: str = Field(
        max_length=500, description="Text the log lines must contain; empty for every line."
    )
    start: AwareDatetime = Field(description="Start of the window, ISO-8601 with a time zone.")
    end: AwareDatetime = Field(description="End of the window, ISO-8601 with a time zone.")
    limit: int | None = Field(
        default=None, ge=1, le=10_000, description="Most lines to match; null for the default."
    )


class LogsEnvelope(Envelope[LogsInput]):
    """``query_logs`` arguments."""


class SqlInput(StrictModel):
    """One read-only query against one configured datasource."""

    datasource: str = Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.\-]+$",
        description="The configured datasource to query.",
    )
    sql: str = Field(
        min_length=1,
        max_length=8000,
        description="One SELECT over the allowed tables and columns; no comments, no '*'.",
    )


class SqlEnvelope(Envelope[SqlInput]):
    """``query_sql`` arguments."""
