"""What only a file-backed store has to get right: opening and reopening the file, the write
lock held by someone else, a failure in the middle of a transaction or in its COMMIT, and
purging expired bodies."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from returns.result import Failure, Success
from sqlalchemy import Connection, Engine, event

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings, SettingsError
from factledger.adapters.memory.clock import ManualClock
from factledger.adapters.sqlite.database import OpenFailure, OpenFailureReason
from factledger.adapters.sqlite.event_store import SqliteEventStore
from factledger.adapters.sqlite.stores import SqliteStores, open_sqlite_stores
from factledger.domain.chain import GENESIS, ChainHead
from factledger.ports.event_store import Appended, AppendRequest, UnknownOutcome
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadWrite, VaultPurged
from factledger.ports.store_errors import StoreUnavailable
from tests.contracts.store_contract import events_after, request_after

T0 = datetime(2026, 5, 1, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "deeper" / "still" / "store.db"


@pytest.fixture
def stores(path: Path, clock: ManualClock) -> Iterator[SqliteStores]:
    opened = open_sqlite_stores(path, clock, partitions=2, busy_timeout=0.2)
    assert isinstance(opened, Success), opened
    yield opened.unwrap()
    opened.unwrap().close()


@contextmanager
def write_lock_held_elsewhere(path: Path) -> Iterator[None]:
    """Another connection (as another process would) holds the file's write lock."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")


@contextmanager
def failing_commits() -> Iterator[None]:
    """Every COMMIT in this process fails (as a disk error during COMMIT does)."""

    def fail(_: Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    event.listen(Engine, "commit", fail)
    try:
        yield
    finally:
        event.remove(Engine, "commit", fail)


def _count(path: Path, table: str) -> int:
    with closing(sqlite3.connect(path)) as connection:
        (count,) = connection.execute(f"SELECT count(*) FROM {table}").fetchone()
        return int(count)


def test_the_parent_folder_is_created_and_the_file_is_in_wal_mode(
    stores: SqliteStores, path: Path
) -> None:
    assert path.is_file()
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_runs_survive_closing_and_reopening_the_file(path: Path, clock: ManualClock) -> None:
    first = open_sqlite_stores(path, clock, partitions=2).unwrap()
    appended = first.events.append(request_after("run-a", GENESIS, 3, started_at=T0))
    assert isinstance(appended, Appended)
    first.close()
    again = open_sqlite_stores(path, clock, partitions=2).unwrap()
    assert again.events.read_head("run-a") == Success(appended.head)
    read = again.events.read_run("run-a")
    assert isinstance(read, Success)
    assert len(read.unwrap()) == 3
    assert again.events.append(request_after("run-a", GENESIS, 1)) == Appended(
        appended.head, already_committed=True
    ), "committed command ids are kept in the file too"
    again.close()


def test_a_file_created_with_other_partitions_is_refused(path: Path, clock: ManualClock) -> None:
    open_sqlite_stores(path, clock, partitions=2).unwrap().close()
    assert open_sqlite_stores(path, clock, partitions=3) == Failure(
        OpenFailure(OpenFailureReason.PARTITIONS_CHANGED, "2")
    )
    settings = Settings(store=StoreSettings(kind="sqlite", path=str(path), partitions=3))
    with pytest.raises(SettingsError, match=r"^store\.partitions: .*created with 2 partitions"):
        build_stores(settings, clock)


def test_a_file_that_is_not_a_database_is_unavailable_naming_the_path(
    tmp_path: Path, clock: ManualClock
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not an SQLite database" * 100)
    assert open_sqlite_stores(junk, clock, partitions=2) == Failure(
        OpenFailure(OpenFailureReason.UNAVAILABLE)
    )
    settings = Settings(store=StoreSettings(kind="sqlite", path=str(junk)))
    with pytest.raises(SettingsError, match=r"^store\.path: "):
        build_stores(settings, clock)


def test_a_write_lock_held_past_the_busy_timeout_is_unavailable_and_writes_nothing(
    stores: SqliteStores, path: Path, clock: ManualClock
) -> None:
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    body = PayloadWrite(key, b"raw", T0 + timedelta(hours=1))
    with write_lock_held_elsewhere(path):
        assert stores.events.append(request_after("run-a", GENESIS, 2)) == StoreUnavailable(
            "TIMEOUT"
        )
        assert stores.vault.put([body]) == Failure(StoreUnavailable("TIMEOUT"))
        assert stores.events.read_head("run-a") == Success(None), "reads do not wait for it"
    assert isinstance(stores.events.append(request_after("run-a", GENESIS, 2)), Appended)


def test_a_failure_in_the_middle_of_an_append_rolls_every_write_back(
    stores: SqliteStores, path: Path, clock: ManualClock
) -> None:
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    good = events_after("run-a", GENESIS, 1)[0]
    request = AppendRequest(
        run_id="run-a",
        expected=GENESIS,
        command_id="broken",
        events=(good, good),  # the second insert breaks the primary key
        unique_keys=("k",),
        payloads=(PayloadWrite(key, b"raw", T0 + timedelta(hours=1)),),
        started_at=T0,
    )
    assert stores.events.append(request) == StoreUnavailable("SERVER_ERROR")
    for table in ("events", "partition_log", "runs", "unique_keys", "commands", "vault"):
        assert _count(path, table) == 0, table
    assert isinstance(stores.events.append(request_after("run-a", GENESIS, 1, "ok")), Appended)


def test_a_failed_commit_is_an_unknown_outcome_that_a_retry_resolves(
    stores: SqliteStores,
) -> None:
    request = request_after("run-a", GENESIS, 2, "retry-me")
    with failing_commits():
        assert stores.events.append(request) == UnknownOutcome("COMMIT_FAILED")
    retried = stores.events.append(request)
    assert isinstance(retried, Appended)
    assert retried.head.sequence == 2
    again = stores.events.append(request)
    assert again == Appended(retried.head, already_committed=True)


def test_a_failed_commit_of_a_write_without_a_command_id_is_the_store_unavailable(
    stores: SqliteStores, path: Path
) -> None:
    """Vault writes, purges and run expiries have no command id to retry with: a commit whose
    outcome is unknown is STORE_UNAVAILABLE (COMMIT_FAILED), and nothing was written."""
    stores.events.append(request_after("run-a", GENESIS, 1))
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    unavailable = Failure(StoreUnavailable("COMMIT_FAILED"))
    with failing_commits():
        assert stores.vault.put([PayloadWrite(key, b"raw", T0 + timedelta(hours=1))]) == (
            unavailable
        )
        assert stores.events.expire_run("run-a", T0) == unavailable
        assert stores.events.prune(T0) == unavailable
        assert stores.vault.purge_expired() == unavailable
    assert _count(path, "vault") == 0
    assert _count(path, "run_meta") == 0, "no expiry was set"


def test_a_stored_body_or_event_of_another_type_reads_as_bytes(
    stores: SqliteStores, path: Path
) -> None:
    """Someone with the file can store text in a BLOB column: it reads as bytes (and then
    fails its digest), never as a crash."""
    key = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    stores.events.append(request_after("run-a", GENESIS, 1))
    stores.vault.put([PayloadWrite(key, b"raw", T0 + timedelta(hours=1))])
    with closing(sqlite3.connect(path)) as other:
        other.execute("UPDATE vault SET body = 'typed over'")
        other.execute("UPDATE events SET data = 12")
        other.commit()
    assert stores.vault.get_many([key]) == Success((b"typed over",))
    read = stores.events.read_run("run-a")
    assert isinstance(read, Success)
    assert [event.data for event in read.unwrap()] == [b"12"]


def test_expired_bodies_read_as_absent_until_purged_then_are_gone(
    stores: SqliteStores, path: Path, clock: ManualClock
) -> None:
    short = PayloadKey("run-a", "call-1", PayloadPart.RAW)
    long = PayloadKey("run-a", "call-2", PayloadPart.RAW)
    assert stores.vault.put(
        [
            PayloadWrite(short, b"short", T0 + timedelta(seconds=10)),
            PayloadWrite(long, b"long", T0 + timedelta(hours=1)),
        ]
    ) == Success(None)
    assert stores.vault.remaining_ttl_ms(short) == Success(10_000)
    clock.advance(timedelta(seconds=10))
    assert stores.vault.get_many([short, long]) == Success((None, b"long"))
    assert _count(path, "vault") == 2, "reading does not delete"
    assert stores.vault.purge_expired() == Success(VaultPurged(1, compacted=True))
    assert _count(path, "vault") == 1
    assert stores.vault.purge_expired() == Success(VaultPurged(0, compacted=True))


def test_a_body_appended_already_expired_replaces_nothing_and_is_never_readable(
    stores: SqliteStores, clock: ManualClock
) -> None:
    key = PayloadKey("run-a", "call-1", PayloadPart.RESULT)
    stores.vault.put([PayloadWrite(key, b"old", T0 + timedelta(hours=1))])
    stale = PayloadWrite(key, b"new", T0 - timedelta(seconds=1))
    assert isinstance(
        stores.events.append(request_after("run-a", GENESIS, 1, payloads=(stale,))), Appended
    )
    assert stores.vault.get_many([key]) == Success((None,))
    assert stores.vault.remaining_ttl_ms(key) == Success(None)


def test_log_positions_page_through_a_partition_and_a_malformed_one_reads_nothing(
    stores: SqliteStores,
) -> None:
    stores.events.append(request_after("run-a", GENESIS, 2))
    partition = stores.events.partition_of("run-a")
    first = stores.events.read_log(partition, None, 1)
    assert isinstance(first, Success)
    (entry,) = first.unwrap()
    assert entry.event.sequence == 1
    rest = stores.events.read_log(partition, entry.position, 10)
    assert isinstance(rest, Success)
    assert [e.event.sequence for e in rest.unwrap()] == [2]
    assert stores.events.read_log(partition, "not-a-position", 10) == Success(())
    assert stores.events.read_head("run-a") == Success(ChainHead(2, rest.unwrap()[0].event.hash))


@pytest.mark.parametrize(("chosen", "pragma"), [(None, 2), ("FULL", 2), ("NORMAL", 1)])
def test_the_settings_choose_how_often_the_file_is_synced(
    tmp_path: Path, clock: ManualClock, chosen: str | None, pragma: int
) -> None:
    """``[store] synchronous``: FULL (the default, 2) syncs every commit; NORMAL (1) syncs at
    checkpoints only."""
    store = StoreSettings(kind="sqlite", path=str(tmp_path / "store.db"))
    if chosen is not None:
        store = StoreSettings.model_validate({**store.model_dump(), "synchronous": chosen})
    events, _, close = build_stores(Settings(store=store), clock)
    try:
        assert isinstance(events, SqliteEventStore)
        read = events._db.read(lambda c: c.exec_driver_sql("PRAGMA synchronous").scalar())
        assert read == Success(pragma)
    finally:
        close()


def test_an_unknown_synchronous_mode_is_refused_by_the_settings() -> None:
    with pytest.raises(ValueError, match="synchronous"):
        StoreSettings.model_validate({"kind": "sqlite", "synchronous": "OFF"})
