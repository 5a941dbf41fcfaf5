"""The two tools the MCP server adds to the evidence tools: ``start_run`` and ``release``.

Their arguments are pydantic models (an edge contract); the MCP input schema of each tool is
the model's JSON schema, so what a client is told and what the server accepts never drift.
"""

from __future__ import annotations

import json

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

from factledger.domain.json_types import JsonObject

__all__ = [
    "CONTROL_TOOLS",
    "RELEASE",
    "START_RUN",
    "ReleaseArguments",
    "StartRunArguments",
    "control_definitions",
]

START_RUN = "start_run"
"""The tool that starts a run and makes it this session's run."""

RELEASE = "release"
"""The tool that hands the run's draft to the single release point."""

CONTROL_TOOLS = (START_RUN, RELEASE)
"""Tool names the server serves itself; an evidence tool may not take one of them."""


class StartRunArguments(BaseModel):
    """``start_run`` arguments: the question and the context to diagnose."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str | None = Field(
        default=None, max_length=4000, description="The question the agent is asked."
    )
    """The question the agent is asked."""
    service: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="The service to diagnose. Without it the run is released as "
        "MISSING_REQUIRED_CONTEXT.",
    )
    """The service to diagnose."""
    start: AwareDatetime | None = Field(
        default=None, description="Window start, ISO-8601 with a time zone."
    )
    """Window start."""
    end: AwareDatetime | None = Field(
        default=None, description="Window end, ISO-8601 with a time zone."
    )
    """Window end."""


class ReleaseArguments(BaseModel):
    """``release`` arguments: the agent's draft, or null when it stopped without one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    draft: dict[str, JsonValue] | str | None = Field(
        description="The draft: {conclusion, analyses: [{kind, claim, tool_call_ids}]}, citing "
        "the tool_call_id of each observation it rests on. A string is taken as the draft's raw "
        "JSON text; null means the agent stopped without a draft."
    )
    """The draft object, its raw text, or ``None``."""

    def draft_json(self) -> str | None:
        """The draft as the JSON text the harness releases (raw text is passed verbatim)."""
        if self.draft is None or isinstance(self.draft, str):
            return self.draft
        return json.dumps(self.draft, ensure_ascii=False)


def _definition(name: str, description: str, model: type[BaseModel]) -> JsonObject:
    schema: JsonObject = model.model_json_schema()
    return {"name": name, "description": description, "inputSchema": schema}


def control_definitions() -> list[JsonObject]:
    """The MCP definitions of ``start_run`` and ``release``."""
    return [
        _definition(
            START_RUN,
            "Start a diagnosis run for a question about one service in a time window. The run "
            "becomes this session's run; its run_id can also be sent in a call's _meta as "
            "factledger/run_id.",
            StartRunArguments,
        ),
        _definition(
            RELEASE,
            "Release the run: the draft's citations are checked against the recorded "
            "observations, then its claims against their evidence. Returns the release result "
            "(SUCCESS, or a safe FALLBACK/FAILED without an unverified conclusion).",
            ReleaseArguments,
        ),
    ]
