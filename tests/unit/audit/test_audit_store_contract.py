"""The audit store on a SQLite file passes the audit store contract."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from factledger.adapters.audit.database import AuditDatabase, open_audit_database
from factledger.adapters.audit.store import SqlAuditStore
from tests.contracts.audit_store_contract import AuditStoreContract, LockHolder, StoreOpener
from tests.support.locks import sqlite_lock_held
from tests.unit.audit.support import AuditFiles


class TestSqliteAuditStore(AuditStoreContract):
    @pytest.fixture
    def path(self, tmp_path: Path, audit_template: Path) -> Path:
        return AuditFiles(tmp_path, audit_template).fresh()

    @pytest.fixture
    def open_store(self, path: Path) -> Iterator[StoreOpener]:
        opened: list[AuditDatabase] = []

        def open_one() -> SqlAuditStore:
            database = open_audit_database(f"sqlite:///{path.as_posix()}", timeout=0.5).unwrap()
            opened.append(database)
            return SqlAuditStore(database)

        yield open_one
        for database in opened:
            database.close()

    @pytest.fixture
    def held_lock(self, path: Path) -> LockHolder:
        def hold() -> AbstractContextManager[None]:
            return sqlite_lock_held(path)

        return hold
