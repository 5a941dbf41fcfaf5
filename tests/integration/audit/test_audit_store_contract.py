"""The audit store on MariaDB passes the audit store contract."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest

from factledger.adapters.audit.database import AuditDatabase, open_audit_database
from factledger.adapters.audit.store import SqlAuditStore
from tests.contracts.audit_store_contract import AuditStoreContract, LockHolder, StoreOpener
from tests.support.locks import mariadb_tables_locked

pytestmark = pytest.mark.integration


class TestMariaDbAuditStore(AuditStoreContract):
    @pytest.fixture
    def open_store(self, mariadb_audit_url: str) -> Iterator[StoreOpener]:
        opened: list[AuditDatabase] = []

        def open_one() -> SqlAuditStore:
            database = open_audit_database(mariadb_audit_url, timeout=0.5).unwrap()
            opened.append(database)
            return SqlAuditStore(database)

        yield open_one
        for database in opened:
            database.close()

    @pytest.fixture
    def held_lock(self, mariadb_audit_url: str, store: SqlAuditStore) -> LockHolder:

        def hold() -> AbstractContextManager[None]:
            return mariadb_tables_locked(
                mariadb_audit_url,
                "audit_checkpoints",
            )

        return hold
