"""``AsyncHarness``: the facade for event loops, every operation of ``Harness`` awaitable.

Each operation runs the synchronous facade on a bounded pool of threads (``WorkerPool``) and
awaits it, so the loop never waits on the store, the vault or a backend: other tasks run
meanwhile, and a slow backend delays only its own call. A tool call that waits on nothing (an
in-process store and a tool whose backend computes from memory, ``Harness.call_blocks``) runs
on the loop itself: a hand-off to a thread and back would cost more than the call (ADR 0035).
The rules are the synchronous facade's, not a copy of them (one path through the interceptor,
the boundary and the release). A host's own ``passthrough`` handler may be a coroutine
function: it is awaited on the caller's loop. Results, errors and codes are the same typed
values as ``Harness``'s.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial
from typing import TypeVar, cast, overload

from factledger.application.audit_views import AuditRows, RebuildReport
from factledger.application.canonical_view import CanonicalView
from factledger.application.check_result import CheckResult
from factledger.application.harness import Harness
from factledger.application.harness_health import Health
from factledger.application.observation import Observation
from factledger.application.progress_snapshot import ProgressSnapshot
from factledger.application.run_access import Caller
from factledger.application.run_inspection import RunInspection
from factledger.application.run_listing import RunPage
from factledger.application.run_timeline import TimelineEntry
from factledger.application.run_views import CancelResult, ModelUsage, ReleaseStep, RunSummary
from factledger.application.statuses import StatusChange
from factledger.application.tools.registry import ToolFormat
from factledger.application.verification.verdicts import RunVerdict
from factledger.application.views import ControlView
from factledger.application.worker_pool import WorkerPool
from factledger.domain.budget import RunBudget
from factledger.domain.json_types import JsonObject
from factledger.domain.release.fallback import ReleaseResult
from factledger.domain.run_events import ToolGrant
from factledger.domain.status import ReleaseOutcome
from factledger.ports.draft_repair import DraftRepairer
from factledger.ports.telemetry import Telemetry

__all__ = ["AsyncHarness"]

R = TypeVar("R")
T = TypeVar("T")


class AsyncHarness:
    """The facade for event loops; see the module docstring."""

    def __init__(self, harness: Harness, *, workers: int = 8) -> None:
        self._harness = harness
        self._pool = WorkerPool(workers)

    @classmethod
    def embedded(cls, *, workers: int = 8) -> AsyncHarness:
        """An async harness on the settings the lookup order finds (see ``Harness.embedded``)."""
        return cls(Harness.embedded(), workers=workers)

    @property
    def sync(self) -> Harness:
        """The synchronous facade underneath (the same runs, stores and tools)."""
        return self._harness

    async def _run(self, call: Callable[[], T]) -> T:
        return await self._pool.run(call)

    async def aclose(self) -> None:
        """Release connections and threads."""
        await self._run(self._harness.close)
        self._pool.shutdown()

    async def __aenter__(self) -> AsyncHarness:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # -- runs -----------------------------------------------------------------------------

    async def start_run(
        self,
        *,
        question: str | None = None,
        service: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        run_id: str | None = None,
        budget: RunBudget | None = None,
        principal: str | None = None,
    ) -> str:
        """Start a run with every registered tool granted; returns its id."""
        return await self._run(
            partial(
                self._harness.start_run,
                question=question,
                service=service,
                start=start,
                end=end,
                run_id=run_id,
                budget=budget,
                principal=principal,
            )
        )

    async def cancel(self, run_id: str) -> CancelResult:
        """Cancel a running run (every worker sees it through the log)."""
        return await self._run(partial(self._harness.cancel, run_id))

    async def enforce_deadline(self, run_id: str) -> RunSummary:
        """End a running run as TIMED_OUT once its deadline has passed; the run's summary."""
        return await self._run(partial(self._harness.enforce_deadline, run_id))

    async def record_model_failure(self, run_id: str, code: str, *, step: int | None = None) -> str:
        """Record that a model call of the host's gave no usable answer."""
        return await self._run(partial(self._harness.record_model_failure, run_id, code, step=step))

    async def record_model_usage(
        self,
        run_id: str,
        calls: int,
        input_tokens: int,
        output_tokens: int,
        *,
        step: int | None = None,
    ) -> ModelUsage:
        """Meter a host's model calls and tokens against the run's budgets (see
        ``Harness.record_model_usage``)."""
        return await self._run(
            partial(
                self._harness.record_model_usage,
                run_id,
                calls,
                input_tokens,
                output_tokens,
                step=step,
            )
        )

    # -- tools ----------------------------------------------------------------------------

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The registered evidence tools' names (held in memory: nothing to await)."""
        return self._harness.tool_names

    @property
    def grants(self) -> tuple[ToolGrant, ...]:
        """Every registered tool as granted to a new run."""
        return self._harness.grants

    def call_blocks(self, tool_name: str) -> bool:
        """See ``Harness.call_blocks`` (held in memory: nothing to await)."""
        return self._harness.call_blocks(tool_name)

    async def tool_definitions(
        self, run_id: str | None = None, fmt: ToolFormat = "openai"
    ) -> list[JsonObject]:
        """The evidence tools' definitions (``NO_EVIDENCE_TOOLS`` when there are none)."""
        return await self._run(partial(self._harness.tool_definitions, run_id, fmt))

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: None = None,
    ) -> Observation: ...

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], Awaitable[R]],
    ) -> Observation | R: ...

    @overload
    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], R],
    ) -> Observation | R: ...

    async def call_tool(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
        passthrough: Callable[[str, str], object] | None = None,
    ) -> object:
        """One tool call: the model observation, or what the host's ``passthrough`` handler
        gave for a tool that is not an evidence tool (awaited when it is awaitable)."""
        if passthrough is None:
            return await self.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        if not self._harness.call_blocks(tool_name):  # an evidence tool: never passed through
            return self._harness.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        handled: object = await self._run(
            partial(
                self._harness.call_tool,
                run_id,
                tool_call_id,
                tool_name,
                arguments_json,
                step=step,
                passthrough=passthrough,
            )
        )
        if not isinstance(handled, Observation) and inspect.isawaitable(handled):
            return await cast("Awaitable[object]", handled)
        return handled

    async def observe(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        arguments_json: str,
        *,
        step: int | None = None,
    ) -> Observation:
        """Like ``call_tool`` without a passthrough: always the observation."""
        if not self._harness.call_blocks(tool_name):
            return self._harness.observe(run_id, tool_call_id, tool_name, arguments_json, step=step)
        return await self._run(
            partial(
                self._harness.observe, run_id, tool_call_id, tool_name, arguments_json, step=step
            )
        )

    # -- release --------------------------------------------------------------------------

    async def release(
        self, run_id: str, draft_json: str | None, *, repairer: DraftRepairer | None = None
    ) -> ReleaseResult:
        """Run the guards over the draft and publish; releasing again returns the record."""
        return await self._run(
            partial(self._harness.release, run_id, draft_json, repairer=repairer)
        )

    async def released(self, run_id: str) -> ReleaseResult:
        """The recorded release result of a released run."""
        return await self._run(partial(self._harness.released, run_id))

    async def check(self, run_id: str, draft_json: str) -> CheckResult:
        """Check a draft as the release would, without publishing it or ending the run."""
        return await self._run(partial(self._harness.check, run_id, draft_json))

    # -- views ----------------------------------------------------------------------------

    async def list_runs(
        self,
        *,
        limit: int = 20,
        cursor: str | None = None,
        outcome: ReleaseOutcome | None = None,
        service: str | None = None,
        caller: Caller | None = None,
    ) -> RunPage:
        """See ``Harness.list_runs``."""
        return await self._run(
            partial(
                self._harness.list_runs,
                limit=limit,
                cursor=cursor,
                outcome=outcome,
                service=service,
                caller=caller,
            )
        )

    async def require_access(self, run_id: str, caller: Caller) -> None:
        """See ``Harness.require_access``."""
        await self._run(partial(self._harness.require_access, run_id, caller))

    async def inspect_run(self, run_id: str) -> RunInspection:
        """See ``Harness.inspect_run``."""
        return await self._run(partial(self._harness.inspect_run, run_id))

    async def run_summary(self, run_id: str) -> RunSummary:
        """The run's state, context, budget use and release decision."""
        return await self._run(partial(self._harness.run_summary, run_id))

    async def canonical_view(self, run_id: str, tool_call_id: str) -> CanonicalView:
        """A call's canonical record as metadata and digests."""
        return await self._run(partial(self._harness.canonical_view, run_id, tool_call_id))

    async def control_view(self, run_id: str, tool_call_id: str) -> ControlView:
        """The harness's control view of a call."""
        return await self._run(partial(self._harness.control_view, run_id, tool_call_id))

    async def progress_snapshot(self, run_id: str) -> ProgressSnapshot:
        """What the run verifiably observed so far."""
        return await self._run(partial(self._harness.progress_snapshot, run_id))

    async def statuses(self, run_id: str) -> tuple[StatusChange, ...]:
        """The ApplicationStatus changes so far, in order."""
        return await self._run(partial(self._harness.statuses, run_id))

    async def timeline(self, run_id: str) -> tuple[TimelineEntry, ...]:
        """The status changes and every call's transitions so far, in event order."""
        return await self._run(partial(self._harness.timeline, run_id))

    async def health(self) -> Health:
        """Whether the store and the audit answer, and the workers' health."""
        return await self._run(self._harness.health)

    async def add_telemetry(self, sink: Telemetry) -> Callable[[], None]:
        """Report this facade's measurements to ``sink``; returns what stops it."""
        return self._harness.add_telemetry(sink)

    async def release_steps(self, run_id: str) -> tuple[ReleaseStep, ...]:
        """The steps the release recorded, in order."""
        return await self._run(partial(self._harness.release_steps, run_id))

    async def verify(self, run_id: str) -> RunVerdict:
        """Verify the run's hash chain and every vault body against its digest."""
        return await self._run(partial(self._harness.verify, run_id))

    async def audit(self, run_id: str) -> AuditRows:
        """The run's durable audit rows (caught up from the log first)."""
        return await self._run(partial(self._harness.audit, run_id))

    async def rebuild(self) -> RebuildReport:
        """Drop and rebuild the audit rows from the event log."""
        return await self._run(self._harness.rebuild)
