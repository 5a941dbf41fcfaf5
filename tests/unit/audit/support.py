"""Helpers of the audit tests: migrated audit databases, appending events, reading rows."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from returns.result import Success

from factledger.adapters.audit.database import open_audit_database
from factledger.adapters.audit.store import SqlAuditStore, dump_rows
from factledger.application.projections.projector import AuditRowsBatches, Projector
from factledger.domain.chain import ChainHead, StoredEvent
from factledger.domain.event_catalog import default_codec
from factledger.domain.events import Event
from factledger.ports.event_store import Appended, AppendRequest, EventStore

__all__ = [
    "AuditFiles",
    "append_events",
    "audit_projector",
    "dump_rows",
    "migrated_template",
    "open_store",
]


class AuditFiles:
    """Migrated audit databases in ``folder``, copied from one migrated template (migrating
    is the slow part; a copy of the file is the same schema)."""

    def __init__(self, folder: Path, template: Path) -> None:
        self.folder = folder
        self.template = template
        self._count = 0

    def fresh(self) -> Path:
        self._count += 1
        path = self.folder / f"audit-{self._count}.db"
        shutil.copyfile(self.template, path)
        return path


def migrated_template(folder: Path) -> Path:
    """A freshly migrated audit database file."""
    path = folder / "template.db"
    open_store(path).close()
    return path


def open_store(path: Path) -> SqlAuditStore:
    """An audit store on a SQLite file (migrated on open, as the projector's start-up does)."""
    opened = open_audit_database(f"sqlite:///{path.as_posix()}")
    assert isinstance(opened, Success), opened
    return SqlAuditStore(opened.unwrap())


def audit_projector(events: EventStore, store: SqlAuditStore, batch_size: int = 2000) -> Projector:
    return Projector(events, store, AuditRowsBatches(store, default_codec()), batch_size=batch_size)


def append_events(
    store: EventStore,
    run_id: str,
    head: ChainHead,
    events: Sequence[Event],
    at: datetime,
    command_id: str,
) -> ChainHead:
    """Seal ``events`` after ``head`` and append them; returns the new head."""
    sealed = default_codec().seal(run_id, head.sequence + 1, head.hash, at, events)
    stored = tuple(StoredEvent(e.run_id, e.sequence, e.data, e.hash) for e in sealed)
    outcome = store.append(
        AppendRequest(
            run_id, head, command_id, stored, started_at=at if head.sequence == 0 else None
        )
    )
    assert isinstance(outcome, Appended), outcome
    return outcome.head
