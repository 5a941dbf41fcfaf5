"""Audit benchmark: rebuild throughput from Redis partition logs into audit rows (MariaDB and
SQLite), and hash-chain verification, for reference.

    .venv/bin/python bench/audit_rebuild.py [--events N] [--batch N] [--redis-url URL]
        [--mariadb-url URL] [--out FILE]

Fills a Redis (a throwaway redis-server unless ``--redis-url``) with runs shaped like real ones
(start, reserved and finished tool calls, model usage, guard steps, release, end; 33
events each) through the event store's own atomic append, then times ``Projector.rebuild()``
— read every partition log, decode, fold, write batched upserts and checkpoints — into a
fresh SQLite audit file and into a fresh MariaDB database (created on the server of
``--mariadb-url``, root by default, and dropped afterwards). Chain verification reads every
run's stream back and verifies it against its head; the rate counts verification alone, and
the read is reported beside it. Nothing here asserts a target; it prints what it measured.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, make_url
from sqlalchemy.pool import NullPool

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._redis import redis_for_bench
from factledger.adapters.audit.wiring import open_audit
from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.system import SystemClock
from factledger.application.projections.projector import CatchUpReport
from factledger.domain.budget import RunBudget
from factledger.domain.chain import GENESIS, ChainHead, ChainIntact, StoredEvent, verify_chain
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import Event
from factledger.domain.progress.events import CallOutcomeRecorded, ObservationEvaluated
from factledger.domain.progress.policy import CallOutcome, Evaluation
from factledger.domain.release.events import (
    EvidenceGuardInitialChecked,
    ReleaseDecided,
    SemanticAttempted,
    SemanticDecided,
    SemanticVerdict,
)
from factledger.domain.run_events import (
    DiagnosisContext,
    InvocationBegan,
    InvocationReady,
    ModelCallPurpose,
    ModelCallReserved,
    ModelUsageRecorded,
    RunEnded,
    RunStarted,
    ToolCallReserved,
    ToolGrant,
)
from factledger.domain.status import EvidenceStatus, ReleaseOutcome, RunState
from factledger.ports.event_store import Appended, AppendRequest, EventStore

PARTITIONS = 8
CALLS_PER_RUN = 4
T0 = datetime(2026, 3, 14, 9, 40, tzinfo=UTC)
DIGEST = "ab" * 32


def _appends(run_id: str) -> list[list[Event]]:
    """One run as the appends the application makes (33 events in 16 appends)."""
    appends: list[list[Event]] = [
        [
            RunStarted(
                run_id,
                RunBudget(),
                (ToolGrant("query_logs", True),),
                DiagnosisContext("payments", T0, T0 + timedelta(hours=1), DIGEST, 40),
                T0 + timedelta(minutes=5),
            )
        ]
    ]
    for n in range(1, CALLS_PER_RUN + 1):
        call = f"call-{n}"
        appends.append(
            [
                ModelCallReserved(ModelCallPurpose.AGENT_TURN, n),
                ModelUsageRecorded(ModelCallPurpose.AGENT_TURN, 900, 120),
            ]
        )
        begin: list[Event] = [
            ToolCallReserved(call, "query_logs", 180),
            InvocationBegan(call, "query_logs", n, 180, DIGEST, T0 + timedelta(hours=2)),
        ]
        if n > 1:
            begin.insert(0, ObservationEvaluated(f"call-{n - 1}", Evaluation.GAINED, call))
        appends.append(begin)
        appends.append(
            [
                InvocationReady(
                    call, EvidenceStatus.EVIDENCE_FOUND, 40_000, DIGEST, 3_000, DIGEST, False
                ),
                CallOutcomeRecorded(call, "query_logs", DIGEST, CallOutcome.AWAITING_EVALUATION),
            ]
        )
    appends.append([EvidenceGuardInitialChecked(True, 2, 2, ())])
    appends.append(
        [
            SemanticAttempted(1, "grounding", SemanticVerdict.SUPPORTED, None),
            SemanticDecided(SemanticVerdict.SUPPORTED, 1, ()),
        ]
    )
    appends.append(
        [
            ReleaseDecided(
                ReleaseOutcome.SUCCESS, RunState.SUCCESS, None, None, None, (), 0, 2, DIGEST
            ),
            RunEnded(RunState.SUCCESS, None),
        ]
    )
    return appends


def fill(events: EventStore, wanted: int) -> tuple[list[str], int]:
    """Append runs until at least ``wanted`` events are stored; returns run ids and events."""
    codec = default_codec()
    run_ids: list[str] = []
    total = 0
    while total < wanted:
        run_id = f"run-{uuid.uuid4().hex}"
        head: ChainHead = GENESIS
        at = T0
        for number, batch in enumerate(_appends(run_id)):
            at += timedelta(milliseconds=150)
            sealed = codec.seal(run_id, head.sequence + 1, head.hash, at, batch)
            stored = tuple(StoredEvent(e.run_id, e.sequence, e.data, e.hash) for e in sealed)
            outcome = events.append(
                AppendRequest(
                    run_id,
                    head,
                    f"{run_id}:{number}",
                    stored,
                    started_at=at if number == 0 else None,
                )
            )
            assert isinstance(outcome, Appended), outcome
            head = outcome.head
            total += len(stored)
        run_ids.append(run_id)
    return run_ids, total


def rebuild_into(settings: Settings, events: EventStore, url: str, batch: int) -> tuple[int, float]:
    """Rebuild the audit rows into ``url``; returns events applied and seconds."""
    audit = open_audit(settings, events, SystemClock(), url=url, batch_size=batch).unwrap()
    try:
        started = time.perf_counter()
        report = audit.audit.rebuild()
        seconds = time.perf_counter() - started
        assert isinstance(report, CatchUpReport), report
        return report.events, seconds
    finally:
        audit.close()


def verify_all(events: EventStore, run_ids: list[str]) -> tuple[int, float, float]:
    """Read and verify every run; returns events, seconds reading, seconds verifying."""
    read = verifying = 0.0
    total = 0
    for run_id in run_ids:
        started = time.perf_counter()
        stored = events.read_run(run_id).unwrap()
        head = events.read_head(run_id).unwrap()
        read += time.perf_counter() - started
        started = time.perf_counter()
        verdict = verify_chain(stored, head)
        verifying += time.perf_counter() - started
        assert isinstance(verdict, ChainIntact), verdict
        total += verdict.events
    return total, read, verifying


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--redis-url")
    parser.add_argument("--mariadb-url", default="mysql+pymysql://root@127.0.0.1:3306")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines: list[str] = []
    with redis_for_bench(args.redis_url) as url:
        prefix = f"bench{uuid.uuid4().hex[:8]}"
        settings = Settings(
            store=StoreSettings(kind="redis", url=url, key_prefix=prefix, partitions=PARTITIONS)
        )
        events, _, close = build_stores(settings, SystemClock())
        try:
            started = time.perf_counter()
            run_ids, total = fill(events, args.events)
            filled = time.perf_counter() - started
            lines.append(
                f"filled {total:,} events ({len(run_ids):,} runs, {PARTITIONS} partitions) "
                f"in {filled:.1f} s"
            )
            with tempfile.TemporaryDirectory() as folder:
                sqlite_url = f"sqlite:///{Path(folder) / 'audit.db'}"
                applied, seconds = rebuild_into(settings, events, sqlite_url, args.batch)
                lines.append(
                    f"rebuild Redis → SQLite audit: {applied:,} events in {seconds:.2f} s = "
                    f"{applied / seconds:,.0f} events/s"
                )
            root = make_url(args.mariadb_url)
            database = f"fl_bench_audit_{uuid.uuid4().hex[:8]}"
            admin = create_engine(root, poolclass=NullPool, isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.exec_driver_sql(f"CREATE DATABASE `{database}` CHARACTER SET utf8mb4")
            try:
                mariadb_url = root.set(database=database).render_as_string(hide_password=False)
                applied, seconds = rebuild_into(settings, events, mariadb_url, args.batch)
                lines.append(
                    f"rebuild Redis → MariaDB audit: {applied:,} events in {seconds:.2f} s = "
                    f"{applied / seconds:,.0f} events/s"
                )
            finally:
                with admin.connect() as connection:
                    connection.exec_driver_sql(f"DROP DATABASE IF EXISTS `{database}`")
                admin.dispose()
            verified, reading, verifying = verify_all(events, run_ids)
            lines.append(
                f"chain verification: {verified:,} events in {verifying:.2f} s = "
                f"{verified / verifying:,.0f} events/s (reading them from Redis: "
                f"{reading:.2f} s = {verified / reading:,.0f} events/s)"
            )
        finally:
            close()
    command = " ".join(["python", "bench/audit_rebuild.py", *sys.argv[1:]])
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    )
    print(f"$ {command}\n{machine}")
    for line in lines:
        print(line)
    if args.out is not None:
        args.out.write_text(
            "# Audit rebuild and chain verification\n\n"
            f"Measured with `{command}` ({machine}, batch {args.batch}).\n\n"
            + "".join(f"- {line}\n" for line in lines),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
