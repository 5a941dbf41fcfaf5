"""The API for an evidence tool of one's own: ``from factledger.tools import EvidenceTool``.

Subclass ``EvidenceTool[YourInput]`` (``YourInput`` a ``StrictModel``), put its backend behind
a port (``EvidenceBackend`` or one of your own), and give the tool to ``build_harness(tools=[...])``
— or a ``ToolProvider`` that builds it from its ``[tools.<section>]`` settings. The tool's calls
then pass the same strict parsing, boundary, budgets, interceptor, progress protocol, guards
and judge as the built-in tools. ``factledger.testing.EvidenceToolContract`` is the contract
suite to run against it. The README's "Your own evidence tool" section is a complete example.
"""

from __future__ import annotations

from factledger.application.contracts.envelope import StrictModel
from factledger.application.contracts.instant import Instant
from factledger.application.tool_api.provider import (
    BUILT_IN_TOOL_NAMES,
    ToolProvider,
    ToolRegistrationError,
    ToolRegistrationFailure,
    ToolSettings,
    ToolSource,
)
from factledger.application.tool_api.spec import PreparedCall, RunWindow, ToolSpec
from factledger.application.tool_api.tool import EvidenceTool, normalize_text
from factledger.domain.evidence import Source
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import (
    BackendFailure,
    BackendFailureKind,
    ProjectedToolResult,
    ProjectionFailure,
)
from factledger.ports.evidence_backend import EvidenceBackend

__all__ = [
    "BUILT_IN_TOOL_NAMES",
    "AnalysisKind",
    "BackendFailure",
    "BackendFailureKind",
    "EvidenceBackend",
    "EvidenceStatus",
    "EvidenceTool",
    "Instant",
    "JsonObject",
    "JsonValue",
    "PreparedCall",
    "ProjectedToolResult",
    "ProjectionFailure",
    "RunWindow",
    "Source",
    "StrictModel",
    "ToolProvider",
    "ToolRegistrationError",
    "ToolRegistrationFailure",
    "ToolSettings",
    "ToolSource",
    "ToolSpec",
    "normalize_text",
]
