"""Any event sequence gives the same audit rows whether it is applied live, in batches of any
size, with crashes, outages and restarts in between and runs rebuilt on the way, or rebuilt
from scratch in one go."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from returns.result import Result

from factledger.adapters.audit.store import SqlAuditStore
from factledger.adapters.memory.event_store import MemoryEventStore
from factledger.adapters.memory.payload_vault import MemoryPayloadVault
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import (
    AuditRowsBatches,
    CatchUpReport,
    Projector,
    RunRebuilt,
    rebuild_run,
)
from factledger.domain.budget import RunBudget
from factledger.domain.chain import GENESIS, ChainHead, StoredEvent
from factledger.domain.codec import chain_hash
from factledger.domain.error_codes import ToolBoundaryErrorCode
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import Event
from factledger.domain.progress.events import (
    CallOutcomeRecorded,
    CollectionStopped,
    DuplicateScopeRecorded,
    ObservationEvaluated,
    ObservationRejected,
    ProtocolViolationRecorded,
)
from factledger.domain.progress.policy import (
    CallOutcome,
    Evaluation,
    RejectionReason,
    ViolationType,
)
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    EvidenceGuardRechecked,
    EvidenceRepairAttempted,
    FailureStage,
    RecordedIssue,
    ReleaseDecided,
    RepairOutcome,
    SemanticAttempted,
    SemanticDecided,
    SemanticVerdict,
)
from factledger.domain.release.issues import IssueCode
from factledger.domain.run_events import (
    DiagnosisContext,
    InvocationBegan,
    InvocationFailed,
    InvocationReady,
    ModelCallPurpose,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
    ToolGrant,
)
from factledger.domain.status import (
    EvidenceStatus,
    FailureCode,
    FallbackType,
    ReleaseOutcome,
    RunState,
    StopReason,
)
from factledger.ports.audit import (
    AuditChanges,
    AuditCommit,
    AuditUnavailable,
    Checkpoint,
    CommitOutcome,
    Fold,
    RunAudit,
)
from factledger.ports.event_store import Appended, AppendRequest
from tests.unit.audit.support import AuditFiles, append_events, dump_rows, open_store

T0 = datetime(2026, 3, 14, 9, 40, tzinfo=UTC)
RUNS = ("run-a", "run-b", "run-c", "run-d")
CALLS = st.sampled_from(["c1", "c2", "c3"])
DIGEST = "ab" * 32


def _started(run_id: str) -> RunStarted:
    return RunStarted(
        run_id,
        RunBudget(),
        (ToolGrant("query_logs", True),),
        DiagnosisContext("payments", T0, T0 + timedelta(hours=1), DIGEST, 12),
        T0 + timedelta(minutes=5),
    )


EVENTS: st.SearchStrategy[Callable[[str], Event]] = st.one_of(
    st.just(_started),
    st.builds(
        lambda c, n: lambda _: ToolCallReserved(c, "query_logs", n),
        CALLS,
        st.integers(0, 500),
    ),
    st.builds(
        lambda c, step, n: (
            lambda _: InvocationBegan(c, "query_logs", step, n, DIGEST, T0 + timedelta(hours=2))
        ),
        CALLS,
        st.none() | st.integers(1, 9),
        st.integers(0, 500),
    ),
    st.builds(
        lambda c, found, raw, projected, cut: (
            lambda _: InvocationReady(
                c,
                EvidenceStatus.EVIDENCE_FOUND if found else EvidenceStatus.NO_EVIDENCE,
                raw,
                DIGEST,
                projected,
                DIGEST,
                cut,
            )
        ),
        CALLS,
        st.booleans(),
        st.integers(0, 10_000),
        st.integers(0, 5_000),
        st.booleans(),
    ),
    st.builds(
        lambda c, code, reason, raw: lambda _: InvocationFailed(c, code, reason, raw),
        CALLS,
        st.sampled_from(ToolBoundaryErrorCode),
        st.none() | st.sampled_from(["UNLISTED_COLUMN", "free text, not a code"]),
        st.none() | st.integers(0, 100),
    ),
    st.builds(
        lambda purpose, step: lambda _: ModelCallReserved(purpose, step),
        st.sampled_from(ModelCallPurpose),
        st.none() | st.integers(1, 9),
    ),
    st.builds(
        lambda purpose, p, c: lambda _: ModelUsageRecorded(purpose, p, c),
        st.sampled_from(ModelCallPurpose),
        st.integers(0, 4000),
        st.integers(0, 4000),
    ),
    st.builds(
        lambda state, code: lambda _: RunEnded(state, code),
        st.sampled_from([s for s in RunState if s is not RunState.RUNNING]),
        st.none() | st.sampled_from(FailureCode),
    ),
    st.builds(
        lambda c, e: lambda _: ObservationEvaluated(c, e, "c9"),
        CALLS,
        st.sampled_from(Evaluation),
    ),
    st.builds(
        lambda c, v: lambda _: ProtocolViolationRecorded(c, v, None),
        CALLS,
        st.sampled_from(ViolationType),
    ),
    st.builds(lambda c: lambda _: DuplicateScopeRecorded(c, "query_logs", DIGEST, "c1"), CALLS),
    st.builds(
        lambda c, o: lambda _: CallOutcomeRecorded(c, "query_logs", DIGEST, o),
        CALLS,
        st.sampled_from(CallOutcome),
    ),
    st.builds(
        lambda c, r: lambda _: ObservationRejected(c, r),
        CALLS,
        st.sampled_from(RejectionReason),
    ),
    st.builds(
        lambda r: lambda _: CollectionStopped(r, None),
        st.sampled_from(StopReason),
    ),
    st.builds(
        lambda passed: (
            lambda _: EvidenceGuardInitialChecked(
                passed,
                2,
                1,
                () if passed else (RecordedIssue(IssueCode.UNKNOWN_TOOL_CALL, "c7", 0),),
            )
        ),
        st.booleans(),
    ),
    st.builds(
        lambda n, o: lambda _: EvidenceRepairAttempted(n, o),
        st.integers(1, 3),
        st.sampled_from(RepairOutcome),
    ),
    st.builds(lambda n: lambda _: EvidenceGuardRechecked(n, True, 2, 1, ()), st.integers(1, 3)),
    st.builds(
        lambda n, v: lambda _: SemanticAttempted(n, "grounding", v, None),
        st.integers(1, 3),
        st.sampled_from(SemanticVerdict),
    ),
    st.builds(
        lambda v: lambda _: SemanticDecided(v, 1, ()),
        st.sampled_from(SemanticVerdict),
    ),
    st.builds(
        lambda outcome, fallback, stage: (
            lambda _: ReleaseDecided(
                outcome, RunState.SUCCESS, None, fallback, stage, (), 1, 1, DIGEST
            )
        ),
        st.sampled_from(ReleaseOutcome),
        st.none() | st.sampled_from(FallbackType),
        st.none() | st.sampled_from(FailureStage),
    ),
)
"""One event of any type (built for a run id)."""

GARBAGE = object()
"""Marks an append of bytes that are not an event (a store holding what this code cannot
decode)."""

APPEND = st.tuples(
    st.sampled_from(RUNS),
    st.lists(EVENTS, min_size=1, max_size=4) | st.just(GARBAGE),
    st.integers(0, 3600),
)
"""One append: a run, its events (or undecodable bytes), seconds after T0."""

STEP = st.one_of(
    APPEND.map(lambda append: ("append", append)),
    st.integers(1, 7).map(lambda size: ("catch_up", size)),
    st.just(("crash_mid_batch", 0)),
    st.just(("outage", 0)),
    st.just(("restart", 0)),
    st.sampled_from(RUNS).map(lambda run_id: ("rebuild_run", run_id)),
)


class _Flaky:
    """An audit store whose next commit fails: mid-transaction (after the checkpoint moved)
    or before reaching the database."""

    def __init__(self, inner: SqlAuditStore, mode: str) -> None:
        self._inner = inner
        self.mode = mode

    def checkpoints(
        self, projection: str, partitions: int
    ) -> Result[tuple[Checkpoint, ...], AuditUnavailable]:
        return self._inner.checkpoints(projection, partitions)

    def begin_rebuild(
        self, projection: str, partitions: Sequence[int]
    ) -> Result[None, AuditUnavailable]:
        return self._inner.begin_rebuild(projection, partitions)

    def replace_run(
        self, projection: str, partition: int, run_id: str, changes: AuditChanges
    ) -> Result[int, AuditUnavailable]:
        return self._inner.replace_run(projection, partition, run_id, changes)

    def read_run(self, run_id: str) -> Result[RunAudit | None, AuditUnavailable]:
        return self._inner.read_run(run_id)

    def commit(self, commit: AuditCommit, fold: Fold) -> CommitOutcome:
        mode, self.mode = self.mode, ""
        if mode == "outage":
            return AuditUnavailable("CONNECTION")
        if mode == "crash":

            def crashing(current: Mapping[str, RunAudit]) -> AuditChanges:
                fold(current)  # the fold runs, then the writer dies mid-transaction
                raise sqlite3.OperationalError("disk I/O error")

            return self._inner.commit(commit, crashing)
        return self._inner.commit(commit, fold)


def _append_garbage(events: MemoryEventStore, run_id: str, head: ChainHead, n: int) -> ChainHead:
    data = b'{"not": "an event"}'
    digest = chain_hash(head.hash, data)
    stored = (StoredEvent(run_id, head.sequence + 1, data, digest),)
    outcome = events.append(AppendRequest(run_id, head, f"{run_id}-g{n}", stored))
    assert isinstance(outcome, Appended)
    return outcome.head


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(steps=st.lists(STEP, max_size=30), partitions=st.integers(1, 3))
def test_live_projection_with_crashes_and_restarts_equals_a_rebuild_from_scratch(
    audit_template: Path, steps: list[tuple[str, object]], partitions: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = AuditFiles(Path(folder), audit_template)
        events = MemoryEventStore(MemoryPayloadVault(SystemClock()), partitions=partitions)
        heads = dict.fromkeys(RUNS, GENESIS)
        live_path = files.fresh()
        live = open_store(live_path)
        flaky = _Flaky(live, "")
        projector = Projector(events, flaky, AuditRowsBatches(flaky, default_codec()))
        for number, (kind, value) in enumerate(steps):
            if kind == "append":
                run_id, built, seconds = cast("tuple[str, object, int]", value)
                if built is GARBAGE:
                    heads[run_id] = _append_garbage(events, run_id, heads[run_id], number)
                else:
                    makers = cast("list[Callable[[str], Event]]", built)
                    made = [make(run_id) for make in makers]
                    at = T0 + timedelta(seconds=seconds)
                    heads[run_id] = append_events(
                        events, run_id, heads[run_id], made, at, f"{run_id}-{number}"
                    )
            elif kind == "catch_up":
                projector = Projector(
                    events,
                    flaky,
                    AuditRowsBatches(flaky, default_codec()),
                    batch_size=int(str(value)),
                )
                projector.catch_up()
            elif kind in ("crash_mid_batch", "outage"):
                flaky.mode = "crash" if kind == "crash_mid_batch" else "outage"
                projector.catch_up()
            elif kind == "restart":
                live.close()
                live = open_store(live_path)
                flaky = _Flaky(live, "")
                projector = Projector(events, flaky, AuditRowsBatches(flaky, default_codec()))
            elif kind == "rebuild_run":
                done = rebuild_run(events, live, default_codec(), str(value))
                assert isinstance(done, RunRebuilt) or heads[str(value)] == GENESIS
        flaky.mode = ""
        assert isinstance(projector.catch_up(), CatchUpReport)
        rebuilt = open_store(files.fresh())
        fresh = Projector(events, rebuilt, AuditRowsBatches(rebuilt, default_codec()))
        assert isinstance(fresh.catch_up(), CatchUpReport)
        assert dump_rows(live) == dump_rows(rebuilt)
        # And a rebuild over the live rows (the CLI's ``rebuild``) changes none of them.
        again = Projector(events, live, AuditRowsBatches(live, default_codec()), batch_size=3)
        assert isinstance(again.rebuild(), CatchUpReport)
        assert dump_rows(live) == dump_rows(rebuilt)
        live.close()
        rebuilt.close()
