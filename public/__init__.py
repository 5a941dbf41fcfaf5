"""factledger: a deterministic, event-sourced control boundary around an LLM diagnosis agent.

Everything a user imports is named here::

    from factledger import Harness, AsyncHarness, build_harness, load_settings

The facade (``Harness`` and its async twin ``AsyncHarness``), its error and codes, the typed
results it returns, the API for adding an evidence tool of your own (also as
``factledger.tools``), settings loading and ``build_harness``. Names are imported on first
use, so ``import factledger`` (and importing any of its layers) stays cheap and loads no
adapter, database driver or web framework until one is asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from factledger.adapters.bootstrap import build_harness
    from factledger.adapters.config.settings import Settings, SettingsError, load_settings
    from factledger.application.async_harness import AsyncHarness
    from factledger.application.audit_views import AuditRows, RebuildReport
    from factledger.application.canonical_view import CanonicalView, ContentState
    from factledger.application.check_result import CheckResult
    from factledger.application.contracts.draft import AnalysisModel, DraftModel
    from factledger.application.harness import Harness
    from factledger.application.harness_errors import HarnessError, HarnessErrorCode
    from factledger.application.observation import Observation, ObservationStatus, RepairRequest
    from factledger.application.progress_snapshot import ProgressSnapshot
    from factledger.application.run_access import Caller, token_principal
    from factledger.application.run_inspection import (
        CallSummary,
        CitationCheck,
        RunInspection,
        TimelineEvent,
    )
    from factledger.application.run_listing import RunListItem, RunPage
    from factledger.application.run_views import CancelResult, ModelUsage, ReleaseStep, RunSummary
    from factledger.application.statuses import StatusChange
    from factledger.application.tool_api.provider import ToolProvider, ToolSettings
    from factledger.application.tool_api.tool import EvidenceTool
    from factledger.application.tools.registry import ToolFormat
    from factledger.application.views import ControlView
    from factledger.domain.budget import RunBudget
    from factledger.domain.evidence import ObservedFact, Source
    from factledger.domain.release.draft import Analysis, AnalysisKind
    from factledger.domain.release.events import FailureStage
    from factledger.domain.release.fallback import PublishedResult, ReleaseResult, SafeFallback
    from factledger.domain.release.issues import IssueCode, ValidationIssue
    from factledger.domain.status import (
        ApplicationStatus,
        EvidenceStatus,
        FailureCode,
        FallbackType,
        InvocationStatus,
        ReleaseOutcome,
        RunState,
        StopReason,
    )

_HOMES: Final[dict[str, tuple[str, ...]]] = {
    "factledger.application.harness": ("Harness",),
    "factledger.application.async_harness": ("AsyncHarness",),
    "factledger.application.harness_errors": ("HarnessError", "HarnessErrorCode"),
    "factledger.application.observation": ("Observation", "ObservationStatus", "RepairRequest"),
    "factledger.domain.release.fallback": ("PublishedResult", "ReleaseResult", "SafeFallback"),
    "factledger.domain.release.draft": ("Analysis", "AnalysisKind"),
    "factledger.domain.release.issues": ("IssueCode", "ValidationIssue"),
    "factledger.domain.release.events": ("FailureStage",),
    "factledger.domain.evidence": ("ObservedFact", "Source"),
    "factledger.application.check_result": ("CheckResult",),
    "factledger.application.contracts.draft": ("AnalysisModel", "DraftModel"),
    "factledger.application.canonical_view": ("CanonicalView", "ContentState"),
    "factledger.application.views": ("ControlView",),
    "factledger.application.progress_snapshot": ("ProgressSnapshot",),
    "factledger.application.run_views": ("CancelResult", "ModelUsage", "ReleaseStep", "RunSummary"),
    "factledger.application.statuses": ("StatusChange",),
    "factledger.application.run_access": ("Caller", "token_principal"),
    "factledger.application.run_listing": ("RunListItem", "RunPage"),
    "factledger.application.run_inspection": (
        "CallSummary", "CitationCheck", "RunInspection", "TimelineEvent",
    ),
    "factledger.application.audit_views": ("AuditRows", "RebuildReport"),
    "factledger.domain.status": (
        "ApplicationStatus", "EvidenceStatus", "FailureCode", "FallbackType",
        "InvocationStatus", "ReleaseOutcome", "RunState", "StopReason",
    ),
    "factledger.domain.budget": ("RunBudget",),
    "factledger.application.tools.registry": ("ToolFormat",),
    "factledger.application.tool_api.tool": ("EvidenceTool",),
    "factledger.application.tool_api.provider": ("ToolProvider", "ToolSettings"),
    "factledger.adapters.config.settings": ("Settings", "SettingsError", "load_settings"),
    "factledger.adapters.bootstrap": ("build_harness",),
}  # fmt: skip
"""Where each public name is defined (imported from there on first use)."""

_HOME_OF: Final = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    # the facade
    "Harness",
    "AsyncHarness",
    "HarnessError",
    "HarnessErrorCode",
    "build_harness",
    "Settings",
    "SettingsError",
    "load_settings",
    "RunBudget",
    "ToolFormat",
    "Caller",
    "token_principal",
    # what a tool call gives back
    "Observation",
    "ObservationStatus",
    "RepairRequest",
    # what a release gives back
    "ReleaseResult",
    "PublishedResult",
    "SafeFallback",
    "Analysis",
    "AnalysisKind",
    "Source",
    "ObservedFact",
    "ValidationIssue",
    "IssueCode",
    "FailureStage",
    "CheckResult",
    "DraftModel",
    "AnalysisModel",
    # views
    "RunSummary",
    "CancelResult",
    "ModelUsage",
    "ReleaseStep",
    "CanonicalView",
    "ContentState",
    "ControlView",
    "ProgressSnapshot",
    "StatusChange",
    "AuditRows",
    "RebuildReport",
    "RunPage",
    "RunListItem",
    "RunInspection",
    "CallSummary",
    "CitationCheck",
    "TimelineEvent",
    # your own evidence tool (the whole API: factledger.tools)
    "EvidenceTool",
    "ToolProvider",
    "ToolSettings",
    # states
    "RunState",
    "ReleaseOutcome",
    "FallbackType",
    "FailureCode",
    "StopReason",
    "EvidenceStatus",
    "InvocationStatus",
    "ApplicationStatus",
]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        module = _HOME_OF.get(name)
        if module is None:
            raise AttributeError(f"module 'factledger' has no attribute {name!r}")
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
