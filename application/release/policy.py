"""How hard the release and the check try before they fall back or refuse."""

from __future__ import annotations

from datetime import timedelta

from attrs import frozen

__all__ = ["ReleasePolicy"]


@frozen
class ReleasePolicy:
    """Attempts and limits of the release and of ``check``."""

    repair_attempts: int = 1
    """EvidenceRepair attempts (each a metered model call when the repairer is a model)."""
    judge_attempts: int = 2
    """SemanticGuard attempts while the judge is unavailable."""
    judge_timeout_seconds: float = 30.0
    """Time limit of one judge attempt."""
    check_attempts: int = 3
    """Drafts a run may have checked without releasing them (``[release] check_attempts``)."""
    result_ttl: timedelta = timedelta(hours=2)
    """How long the published result's body stays readable in the vault."""
