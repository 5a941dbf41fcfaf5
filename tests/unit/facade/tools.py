"""Small evidence tools of the tests' own, written with the public tool API."""

from __future__ import annotations

import json
import threading
import time

from pydantic import Field
from returns.result import Result, Success

from factledger.tools import (
    BackendFailure,
    EvidenceStatus,
    EvidenceTool,
    JsonObject,
    ProjectedToolResult,
    ProjectionFailure,
    Source,
    StrictModel,
    ToolProvider,
    ToolSettings,
)


class EchoInput(StrictModel):
    """What to echo."""

    text: str = Field(min_length=1, max_length=200, description="Text to echo back.")


class EchoTool(EvidenceTool[EchoInput]):
    """Echoes its input after ``delay`` seconds; empty when the text is ``nothing``."""

    name = "echo_evidence"
    description = "Echo a text as evidence (tests)."
    input_model = EchoInput
    content_keys = ("echoed",)

    def __init__(self, delay: float = 0.0, *, name: str | None = None) -> None:
        self.delay = delay
        self.calls = 0
        self.threads: set[str] = set()
        self._lock = threading.Lock()
        if name is not None:
            self.name = name

    def scope(self, request: EchoInput) -> JsonObject:
        return {"text": request.text}

    def run(self, request: EchoInput, timeout_seconds: float, /) -> Result[str, BackendFailure]:
        with self._lock:
            self.calls += 1
            self.threads.add(threading.current_thread().name)
        time.sleep(self.delay)
        return Success(json.dumps({"echo": "" if request.text == "nothing" else request.text}))

    def project(
        self, request: EchoInput, raw_json: str, /
    ) -> Result[ProjectedToolResult, ProjectionFailure]:
        echoed = json.loads(raw_json)["echo"]
        result: JsonObject = {"scope": self.scope(request), "echoed": echoed, "truncated": False}
        if echoed:
            return Success(ProjectedToolResult(result, EvidenceStatus.EVIDENCE_FOUND))
        return Success(ProjectedToolResult(result, EvidenceStatus.NO_EVIDENCE))

    def evidence_status(self, agent_result: JsonObject) -> EvidenceStatus | None:
        echoed = agent_result.get("echoed")
        if not isinstance(echoed, str):
            return None
        return EvidenceStatus.EVIDENCE_FOUND if echoed else EvidenceStatus.NO_EVIDENCE

    def summarize(self, agent_result: JsonObject, evidence_status: EvidenceStatus) -> str:
        return f"echoed {agent_result.get('echoed')!r}"

    def sources(self, agent_result: JsonObject) -> tuple[Source, ...]:
        return (Source(self.name, "echo", {}),)


class EchoSettings(ToolSettings):
    """``[tools.echo]``."""

    delay_seconds: float = Field(default=0.0, ge=0, le=10)
    enabled: bool = True


class EchoProvider(ToolProvider[EchoSettings]):
    """Builds the echo tool from ``[tools.echo]``."""

    section = "echo"
    settings_model = EchoSettings

    def build(self, settings: EchoSettings) -> EchoTool | None:
        return EchoTool(settings.delay_seconds) if settings.enabled else None
