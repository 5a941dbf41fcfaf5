"""The tools the MCP server adds to the evidence tools: ``start_run``, ``check_draft``,
``release`` and ``verify_run``.

Their arguments are pydantic models (an edge contract); the MCP input schema of each tool is
the model's JSON schema, so what a client is told and what the server accepts never drift.
"""

from __future__ import annotations

import json

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

from factledger.domain.json_types import JsonObject

__all__ = [
    "CHECK_DRAFT",
    "CONTROL_TOOLS",
    "RELEASE",
    "START_RUN",
    "VERIFY_RUN",
    "CheckDraftArguments",
    "ReleaseArguments",
    "StartRunArguments",
    "VerifyRunArguments",
    "control_definitions",
]

START_RUN = "start_run"
"""The tool that starts a run and makes it this session's run."""

RELEASE = "release"
"""The tool that hands the run's draft to the single release point."""

CHECK_DRAFT = "check_draft"
"""The tool that checks a draft as the release would, without releasing it."""

VERIFY_RUN = "verify_run"
"""The tool that verifies the run's log and vault bodies."""

CONTROL_TOOLS = (START_RUN, CHECK_DRAFT, RELEASE, VERIFY_RUN)
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


def _draft_text(draft: dict[str, JsonValue] | str) -> str:
    """A draft sent as an object or as its raw text, as the JSON text the harness reads (raw
    text is passed verbatim, so the harness judges it as the client wrote it)."""
    if isinstance(draft, str):
        return draft
    return json.dumps(draft, ensure_ascii=False)


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
        return None if self.draft is None else _draft_text(self.draft)


class CheckDraftArguments(BaseModel):
    """``check_draft`` arguments: the draft to check."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    draft: dict[str, JsonValue] | str = Field(
        description="The draft: {conclusion, analyses: [{kind, claim, tool_call_ids}]}, or its "
        "raw JSON text."
    )
    """The draft object or its raw text."""

    def draft_json(self) -> str:
        """The draft as the JSON text the harness checks (raw text is passed verbatim)."""
        return _draft_text(self.draft)


class VerifyRunArguments(BaseModel):
    """``verify_run`` arguments: the run to verify, by default the call's run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="The run to verify; without it, the session's run (or _meta's).",
    )
    """The run to verify, when not the call's own."""


def _definition(name: str, description: str, model: type[BaseModel]) -> JsonObject:
    schema: JsonObject = model.model_json_schema()
    return {"name": name, "description": description, "inputSchema": schema}


def control_definitions() -> list[JsonObject]:
    """The MCP definitions of ``start_run``, ``check_draft``, ``release`` and ``verify_run``."""
    return [
        _definition(
            START_RUN,
            "Start a diagnosis run for a question about one service in a time window. The run "
            "becomes this session's run; its run_id can also be sent in a call's _meta as "
            "factledger/run_id.",
            StartRunArguments,
        ),
        _definition(
            CHECK_DRAFT,
            "Check a draft exactly as release would (citations, then claims against their "
            "evidence) without publishing it or ending the run. Returns passed and the "
            "validation issues, each with a reason code and, where it helps, the words of the "
            "claim at fault. A run has a few checks ([release] check_attempts).",
            CheckDraftArguments,
        ),
        _definition(
            RELEASE,
            "Release the run: the draft's citations are checked against the recorded "
            "observations, then its claims against their evidence. Returns the release result "
            "(SUCCESS, or a safe FALLBACK/FAILED without an unverified conclusion).",
            ReleaseArguments,
        ),
        _definition(
            VERIFY_RUN,
            "Verify the run: its hash chain against the head kept outside the stream, then "
            "every stored body against its recorded digest. Names the first bad event.",
            VerifyRunArguments,
        ),
    ]
