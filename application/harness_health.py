"""What ``/healthz`` asks the facade: can the store and the audit be reached, and how are the
workers doing.

``Health.healthy`` is what a probe acts on: the store and the audit both answer. The workers
are a line of their own (OK, DEGRADED or DOWN with their problems): a stopped worker does not
stop this process from serving runs, but it stops the promises the workers keep (the audit
caught up, bodies purged on time), so operators alert on that line.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

from attrs import frozen
from returns.result import Success

from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.harness_parts import FacadeCore
from factledger.application.worker.health import HealthStatus, WorkerHealth
from factledger.domain.json_types import JsonObject

__all__ = ["Health", "HealthLine", "HealthOperations", "Reachability"]

_PROBE_RUN = "healthz-probe"
"""A run id no run has: reading its head is the store's cheapest round trip."""


HealthLine: TypeAlias = Literal["ok", "degraded", "unavailable"]
"""The probe's one word: ``ok``, ``degraded`` (serving, but the workers are not OK) or
``unavailable`` (the store or the audit does not answer)."""


class Reachability(StrEnum):
    """Whether a dependency answered."""

    OK = "OK"
    UNAVAILABLE = "UNAVAILABLE"
    NOT_CONFIGURED = "NOT_CONFIGURED"


@frozen
class Health:
    """The facade's dependencies at one moment."""

    store: Reachability
    """The event store (and its vault)."""
    audit: Reachability
    """The audit database."""
    workers: WorkerHealth | None
    """The workers' health from their records (None when the audit cannot be read)."""

    @property
    def healthy(self) -> bool:
        """True when the store answers and the audit answers or is not configured."""
        return self.store is Reachability.OK and self.audit is not Reachability.UNAVAILABLE

    @property
    def status(self) -> HealthLine:
        """The probe's one word (see ``HealthLine``)."""
        if not self.healthy:
            return "unavailable"
        if self.workers is None or self.workers.status is not HealthStatus.OK:
            return "degraded"
        return "ok"

    def to_json(self) -> JsonObject:
        """``{"status", "store", "audit", "workers"}`` (codes, counts and times only)."""
        return {
            "status": self.status,
            "store": self.store.value,
            "audit": self.audit.value,
            "workers": None if self.workers is None else self.workers.to_json(),
        }


class HealthOperations(FacadeCore):
    """The facade's health probe."""

    def health(self) -> Health:
        """Reach the store and the audit (each within its own timeout) and read the workers'
        health records; never raises for an unreachable dependency, says so instead."""
        head = self._parts.runs.store.read_head(_PROBE_RUN)
        store = Reachability.OK if isinstance(head, Success) else Reachability.UNAVAILABLE
        try:
            workers = self._audit_views().worker_health()
        except HarnessError as failed:
            configured = failed.code is not HarnessErrorCode.NOT_CONFIGURED
            audit = Reachability.UNAVAILABLE if configured else Reachability.NOT_CONFIGURED
            return Health(store, audit, None)
        except ConnectionError:
            return Health(store, Reachability.UNAVAILABLE, None)
        return Health(store, Reachability.OK, workers)
