"""Draft repairers without a model: recorded repairs (transcripts) and none at all."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable

from factledger.domain.json_types import JsonObject
from factledger.ports.draft_repair import RepairRequest, RepairUnavailable

__all__ = ["NoRepair", "RecordedRepairs"]


class NoRepair:
    """Repair is unavailable: the guard's re-check decides on the draft as it is."""

    uses_model = False

    def repair(self, request: RepairRequest) -> str | RepairUnavailable:
        return RepairUnavailable("NO_REPAIRER")


class RecordedRepairs:
    """Returns recorded repaired drafts in order, one per attempt; then none."""

    uses_model = False

    def __init__(self, drafts: Iterable[JsonObject | str]) -> None:
        self._drafts = [d if isinstance(d, str) else json.dumps(d) for d in drafts]
        self._lock = threading.Lock()

    def repair(self, request: RepairRequest) -> str | RepairUnavailable:
        with self._lock:
            if not self._drafts:
                return RepairUnavailable("NO_RECORDED_REPAIR")
            return self._drafts.pop(0)
