"""An audit outage on the real MariaDB (the grant revoked and the projector's connections
killed mid-run) changes no tool result; when the grant is back, catching up loses and
duplicates nothing."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator

import pytest
from returns.result import Success

from factledger.adapters.audit.database import open_audit_database
from factledger.adapters.audit.store import SqlAuditStore, dump_rows
from factledger.adapters.bootstrap import build_runtime
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.application.projections.projector import (
    AuditRowsBatches,
    CatchUpReport,
    Projector,
)
from factledger.application.run_service import StartedRun
from factledger.domain.budget import RunBudget
from factledger.domain.event_catalog import default_codec
from factledger.domain.run_events import DiagnosisContext, ToolGrant
from factledger.ports.audit import AuditUnavailable
from tests.support.mariadb_server import MariaDbAddress
from tests.support.workers import call_once

pytestmark = pytest.mark.integration


class AuditAccount:
    """A database and an account that owns it, both dropped afterwards."""

    def __init__(self, address: MariaDbAddress) -> None:
        suffix = uuid.uuid4().hex[:12]
        self.address = address
        self.database = f"fl_audit_{suffix}"
        self.user = f"fl_audit_{suffix}"
        self.password = secrets.token_hex(16)
        self.root = address.engine()

    @property
    def account(self) -> str:
        return f"'{self.user}'@'127.0.0.1'"

    @property
    def url(self) -> str:
        return (
            f"mysql+pymysql://{self.user}:{self.password}@{self.address.host}:"
            f"{self.address.port}/{self.database}"
        )

    def root_url(self, database: str) -> str:
        return f"mysql+pymysql://root@{self.address.host}:{self.address.port}/{database}"

    def sql(self, statement: str, *params: object) -> list[tuple[object, ...]]:
        with self.root.connect() as connection:
            result = connection.exec_driver_sql(statement, tuple(params) or None)
            return [tuple(row) for row in result] if result.returns_rows else []

    def grant(self) -> None:
        self.sql(f"GRANT ALL PRIVILEGES ON `{self.database}`.* TO {self.account}")

    def revoke_and_disconnect(self) -> None:
        self.sql(f"REVOKE ALL PRIVILEGES ON `{self.database}`.* FROM {self.account}")
        for (connection_id,) in self.sql(
            "SELECT id FROM information_schema.processlist WHERE user = %s", self.user
        ):
            self.sql(f"KILL {int(str(connection_id))}")


@pytest.fixture
def account(mariadb: MariaDbAddress) -> Iterator[AuditAccount]:
    created = AuditAccount(mariadb)
    try:
        created.sql(f"CREATE DATABASE `{created.database}` CHARACTER SET utf8mb4")
        created.sql(f"CREATE USER {created.account} IDENTIFIED BY %s", created.password)
        created.grant()
        yield created
    finally:
        created.sql(f"DROP USER IF EXISTS {created.account}")
        created.sql(f"DROP DATABASE IF EXISTS `{created.database}`")
        created.root.dispose()


def _store(url: str) -> SqlAuditStore:
    opened = open_audit_database(url)
    assert isinstance(opened, Success), opened
    return SqlAuditStore(opened.unwrap())


def test_an_audit_outage_changes_no_tool_result_and_catch_up_loses_and_duplicates_nothing(
    account: AuditAccount,
) -> None:
    runtime = build_runtime(Settings(store=StoreSettings(kind="memory", partitions=4)))
    audit = _store(account.url)
    projector = Projector(
        runtime.store, audit, AuditRowsBatches(audit, default_codec()), batch_size=5
    )
    grants = (ToolGrant("lookup_knowledge", True),)
    results: list[str] = []
    runs: list[str] = []
    try:
        for round_ in range(3):
            for _ in range(2):
                started = runtime.run_service.start(
                    budget=RunBudget(), tools=grants, context=DiagnosisContext("payments")
                )
                assert isinstance(started, StartedRun)
                runs.append(started.run_id)
                for n in range(3):
                    results.append(call_once(runtime, started.run_id, f"call-{n}"))
                runtime.releases.release(started.run_id, None)
            if round_ == 0:
                assert isinstance(projector.catch_up(), CatchUpReport)
                account.revoke_and_disconnect()  # the audit database goes away mid-run
            elif round_ == 1:
                assert isinstance(projector.catch_up(), AuditUnavailable)
        assert results == ["READY"] * 18  # the outage changed no tool result
        account.grant()
        assert isinstance(projector.catch_up(), CatchUpReport)
        live = dump_rows(audit)
        assert sorted(str(row[0]) for row in live["audit_runs"]) == sorted(runs)
        assert len(live["audit_invocations"]) == 18
        for run_id in runs:
            head = runtime.store.read_head(run_id).unwrap()
            held = audit.read_run(run_id).unwrap()
            assert head is not None
            assert held is not None
            assert (held.run.last_sequence, held.run.head_hash) == (head.sequence, head.hash)
            assert (held.run.tool_calls, held.run.invocations_ready) == (3, 3)  # applied once
        # The same rows as a projection of the same log into a database that never failed.
        fresh_name = f"{account.database}_b"
        account.sql(f"CREATE DATABASE `{fresh_name}` CHARACTER SET utf8mb4")
        try:
            fresh = _store(account.root_url(fresh_name))
            again = Projector(runtime.store, fresh, AuditRowsBatches(fresh, default_codec()))
            assert isinstance(again.catch_up(), CatchUpReport)
            assert dump_rows(fresh) == live
            fresh.close()
        finally:
            account.sql(f"DROP DATABASE IF EXISTS `{fresh_name}`")
    finally:
        audit.close()
        runtime.close()
