"""What a person could do next, per fallback type: fixed, reviewed wording (no model)."""

from __future__ import annotations

from factledger.domain.status import FallbackType, StopReason

__all__ = ["OUTAGE_STEP", "next_steps"]

OUTAGE_STEP = "A model the run needed could not be reached: check [model] and run it again."
"""The step added when a model outage cut the diagnosis or its checks short."""

_STEPS: dict[FallbackType, tuple[str, ...]] = {
    FallbackType.MISSING_REQUIRED_CONTEXT: (
        "Provide the service to diagnose.",
        "Provide the time window to look at: a start and an end, ISO-8601 with a time zone.",
    ),
    FallbackType.INSUFFICIENT_EVIDENCE: (
        "Review the observed facts below; they are verified but do not settle the question.",
        "Widen the time window or look at upstream and downstream services.",
        "Check the runbooks named in the sources for the next diagnostic step.",
    ),
    FallbackType.EVIDENCE_VALIDATION_FAILED: (
        "The proposed answer cited evidence that could not be verified; do not rely on it.",
        "Use the verified facts below, or run the diagnosis again.",
    ),
    FallbackType.SEMANTIC_UNSUPPORTED: (
        "The proposed answer says more than its verified evidence supports; do not rely on it.",
        "Use the verified facts below as the starting point of a manual diagnosis.",
    ),
    FallbackType.SEMANTIC_UNAVAILABLE: (
        "The evidence could not be checked against the answer (the judge was unavailable).",
        "Use the verified facts below, or release again when the judge is back.",
    ),
}

_STOP_STEPS: dict[StopReason, str] = {
    StopReason.INFORMATION_SATURATED: (
        "Collection stopped after repeated calls gained nothing new: change the hypothesis "
        "rather than repeating the same searches."
    ),
    StopReason.BUDGET_LIMIT_REACHED: (
        "Collection stopped at the run's budget: raise [budget] limits if the question needs "
        "more evidence."
    ),
    StopReason.PROGRESS_PROTOCOL_VIOLATED: (
        "Collection stopped because the agent broke the progress protocol: check its tool use."
    ),
}


def next_steps(kind: FallbackType, stop_reason: StopReason | None) -> tuple[str, ...]:
    """The next steps of a fallback."""
    steps = _STEPS[kind]
    if stop_reason is not None and kind is not FallbackType.MISSING_REQUIRED_CONTEXT:
        steps = (*steps, _STOP_STEPS[stop_reason])
    return steps
