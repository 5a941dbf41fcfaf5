"""What a composition root hands the facade, and the reads every facade operation shares."""

from __future__ import annotations

from collections.abc import Callable

from attrs import define

from factledger.application.audit_views import AuditViews
from factledger.application.canonical_view import CanonicalInvocation, CanonicalViewReader
from factledger.application.harness_errors import HarnessError, HarnessErrorCode
from factledger.application.interceptor import Interceptor
from factledger.application.progress_snapshot import SnapshotBuilder
from factledger.application.release.check_service import CheckService
from factledger.application.release.release_service import ReleaseService
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.application.run_service import RunService
from factledger.application.telemetry import TelemetryHub
from factledger.application.tools.registry import ToolRegistry
from factledger.application.verification.run_verifier import RunVerifier
from factledger.domain.budget import RunBudget
from factledger.domain.progress.policy import ProgressPolicy
from factledger.domain.run_log import RunLog
from factledger.ports.payload_vault import PayloadVault
from factledger.ports.telemetry import Telemetry

__all__ = ["FacadeCore", "HarnessParts", "store_unavailable", "unknown_run"]


@define
class HarnessParts:
    """The application services a composition root hands the facade."""

    runs: RunRepository
    """Loads runs and appends their events."""
    run_service: RunService
    """Starts, ends and meters runs."""
    registry: ToolRegistry
    """The evidence tools."""
    interceptor: Interceptor
    """The path of every tool call."""
    canonical: CanonicalViewReader
    """Canonical records (events joined with vault bodies)."""
    snapshots: SnapshotBuilder
    """Progress snapshots."""
    releases: ReleaseService
    """The single release point."""
    checks: CheckService
    """The release's guards without the release."""
    verifier: RunVerifier
    """Verifies a run's log and bodies."""
    vault: PayloadVault
    """Bodies under their expiry."""
    budget: RunBudget
    """The budget a new run gets unless it is given one."""
    progress: ProgressPolicy
    """The progress thresholds of a new run."""
    close: Callable[[], None]
    """Releases connections and threads."""
    audit: Callable[[], AuditViews] | None = None
    """Opens the audit views on first use (None when no audit is configured)."""
    in_process: bool = False
    """True when the event store and the vault are this process's memory: a call then waits
    on no I/O but its backend's (see ``Harness.call_blocks``)."""


def unknown_run() -> HarnessError:
    """The one error for a run id no run has (every operation, every transport)."""
    return HarnessError(HarnessErrorCode.UNKNOWN_RUN, "no run with this id")


def store_unavailable(what: str = "the store could not be read") -> HarnessError:
    """The store, the vault or the audit database could not be used."""
    return HarnessError(HarnessErrorCode.STORE_UNAVAILABLE, what)


class FacadeCore:
    """The parts and the reads every group of facade operations shares."""

    def __init__(self, parts: HarnessParts) -> None:
        self._parts = parts
        self._audit: AuditViews | None = None
        self._telemetry = TelemetryHub()

    def add_telemetry(self, sink: Telemetry) -> Callable[[], None]:
        """Report every tool call, release, check and budget refusal of this facade to
        ``sink`` (names, statuses, codes and durations only); returns what stops it."""
        return self._telemetry.add(sink)

    @property
    def parts(self) -> HarnessParts:
        """The wired services, for tests and tools that need more than the facade offers
        (transports and the agent loop use the facade's operations only)."""
        return self._parts

    def _require_run(self, run_id: str) -> None:
        """Raise ``UNKNOWN_RUN`` when no run has this id (a store that cannot be read is left to
        the operation itself, which answers it in its own way)."""
        log = self._parts.runs.load(run_id, refresh=False)
        if isinstance(log, StoreFailed) or log.run is not None:
            return
        fresh = self._parts.runs.load(run_id)
        if not isinstance(fresh, StoreFailed) and fresh.run is None:
            raise unknown_run()

    def _log(self, run_id: str, *, refresh: bool = True) -> RunLog:
        log = self._parts.runs.load(run_id, refresh=refresh)
        if isinstance(log, StoreFailed):
            raise store_unavailable()
        if log.run is None:
            if not refresh:  # a run another worker started after this one cached nothing
                return self._log(run_id)
            raise unknown_run()
        return log

    def _record(self, run_id: str, tool_call_id: str) -> CanonicalInvocation:
        log = self._log(run_id)
        records = self._parts.canonical.read_from_log(log, [tool_call_id])
        if isinstance(records, StoreFailed):
            raise store_unavailable()
        record = records.get(tool_call_id)
        if record is None:
            raise HarnessError(
                HarnessErrorCode.UNKNOWN_TOOL_CALL, "no call with this id in this run"
            )
        return record

    def _audit_views(self) -> AuditViews:
        if self._audit is None:
            opener = self._parts.audit
            if opener is None:
                raise HarnessError(HarnessErrorCode.NOT_CONFIGURED, "no audit is configured")
            self._audit = opener()
        return self._audit
