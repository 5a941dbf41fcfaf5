"""``factledger worker`` as a real process: the planted secrets of a run are gone from every
file of the store once their time to live and one purge interval have passed; a killed worker's
partitions are taken over by another; SIGTERM ends a worker cleanly with its leases given up."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import redis

from factledger.adapters.bootstrap import Runtime, build_harness, build_runtime, harness_from
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.config.sections import StoreSettings, VaultSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.demo.incident import SCENARIOS, demo_settings, transcript_path
from factledger.adapters.system import SystemClock
from factledger.domain.json_types import JsonObject
from factledger.ports.partition_leases import MAINTENANCE_LEASE
from tests.support.processes import wait_until
from tests.support.redis_server import INSTALL_HINT, RedisProcess, redis_binary
from tests.support.worker_process import Predicate, WorkerProcess, event, settings_environment

pytestmark = pytest.mark.integration

PARTITIONS = 4
SECRET = re.compile(rb"sk_live_[A-Za-z0-9]{6,}")
WORKER = {
    "purge_interval_seconds": 0.5,
    "retention_interval_seconds": 3600,
    "poll_interval_seconds": 0.1,
    "heartbeat_interval_seconds": 0.3,
    "lease_ttl_seconds": 1.5,
}


def _settings(tmp_path: Path) -> Settings:
    store = StoreSettings(
        kind="sqlite", path=str(tmp_path / "state" / "store.db"), partitions=PARTITIONS
    )
    return demo_settings(tmp_path / "work", store).model_copy(
        update={"vault": VaultSettings(ttl_seconds=1)}
    )


def _environment(tmp_path: Path) -> dict[str, str]:
    return settings_environment(
        {
            "store": {
                "kind": "sqlite",
                "path": str(tmp_path / "state" / "store.db"),
                "partitions": PARTITIONS,
            },
            "worker": WORKER,
        }
    )


def _everything_in(*folders: Path) -> bytes:
    return b"".join(
        path.read_bytes()
        for folder in folders
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    )


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[list[WorkerProcess]]:
    started: list[WorkerProcess] = []
    yield started
    for worker in started:
        worker.close()


def _start(workers: list[WorkerProcess], tmp_path: Path, owner: str) -> WorkerProcess:
    worker = WorkerProcess(_environment(tmp_path), owner, tmp_path / "tmp" / owner)
    workers.append(worker)
    return worker


def _after(moment: datetime) -> Predicate:
    def purged_after(line: JsonObject) -> bool:
        at = line.get("at")
        return (
            line.get("event") == "purged"
            and line.get("compacted") is True
            and isinstance(at, str)
            and datetime.fromisoformat(at) > moment
        )

    return purged_after


def _planted_transcript(folder: Path, secrets: list[str]) -> Path:
    """The honest agent, each of its first two queries carrying a secret (the request and raw
    bodies keep them; events and audit rows never do)."""
    transcript = json.loads(transcript_path("honest").read_text(encoding="utf-8"))
    for turn, secret in zip(transcript["turns"][:2], secrets, strict=True):
        arguments = turn["tool_call"]["arguments"]["input"]
        arguments["query"] = f"{arguments['query']} {secret}"
    path = folder / "planted.json"
    path.write_text(json.dumps(transcript), encoding="utf-8")
    return path


def test_a_planted_secret_is_gone_from_every_file_after_its_ttl_and_one_purge(
    tmp_path: Path, workers: list[WorkerProcess]
) -> None:
    state = tmp_path / "state"
    secrets = [f"sk_live_{os.urandom(12).hex()}" for _ in range(2)]
    with build_harness(_settings(tmp_path)) as harness:
        run_transcript(harness, _planted_transcript(tmp_path, secrets))
        expired_by = SystemClock().now() + timedelta(seconds=1)
        planted = set(SECRET.findall(_everything_in(state)))
        assert planted == {secret.encode() for secret in secrets}, "the bodies hold them"
        worker = _start(workers, tmp_path, "purger")
        # The first purge that began after every body expired (the application still open).
        worker.wait_for(_after(expired_by), 60, "a purge after the bodies expired")
        left = _everything_in(state, worker.temp_dir)
        assert sorted(secret for secret in planted if secret in left) == []
        files = sorted(path.name for path in state.iterdir())
        assert "store.db" in files
        assert worker.terminate() == 0
    purged = [line for line in worker.seen if line.get("event") == "purged"]
    assert sum(int(str(line["bodies"])) for line in purged) > 0


def _leases(audit: Path) -> dict[int, str]:
    with closing(sqlite3.connect(audit)) as connection:
        rows = connection.execute("SELECT lease, owner FROM audit_leases").fetchall()
    return {int(lease): str(owner) for lease, owner in rows}


def _health(audit: Path) -> dict[str, tuple[str, str]]:
    with closing(sqlite3.connect(audit)) as connection:
        rows = connection.execute(
            "SELECT owner, state, partitions FROM audit_worker_health"
        ).fetchall()
    return {str(owner): (str(state), str(parts)) for owner, state, parts in rows}


def _partitions_of(audit: Path, owner: str) -> set[int]:
    state, parts = _health(audit).get(owner, ("", ""))
    if state != "RUNNING":
        return set()
    return {int(part) for part in parts.split(",") if part}


def _split_between(audit: Path, first: str, second: str) -> Callable[[], bool]:
    def split() -> bool:
        one, two = _partitions_of(audit, first), _partitions_of(audit, second)
        return bool(one) and bool(two) and one | two == set(range(PARTITIONS))

    return split


def _two_workers(
    tmp_path: Path, workers: list[WorkerProcess]
) -> tuple[WorkerProcess, WorkerProcess, Path]:
    audit = tmp_path / "state" / "audit.db"
    first = _start(workers, tmp_path, "first")
    first.wait_for(event("started"), 60, "its start")
    second = _start(workers, tmp_path, "second")
    second.wait_for(event("started"), 60, "its start")
    wait_until(_split_between(audit, "first", "second"), 60, "the partitions split in two")
    return first, second, audit


def _projected(runtime: Runtime, audit: Path, run_id: str) -> Callable[[], bool]:
    head = runtime.store.read_head(run_id).unwrap()
    assert head is not None

    def done() -> bool:
        with closing(sqlite3.connect(audit)) as connection:
            row = connection.execute(
                "SELECT last_sequence FROM audit_runs WHERE run_id = ?", (run_id,)
            ).fetchone()
        return row is not None and int(row[0]) == head.sequence

    return done


def test_a_killed_worker_s_partitions_and_maintenance_are_taken_over_by_another(
    tmp_path: Path, workers: list[WorkerProcess]
) -> None:
    first, second, audit = _two_workers(tmp_path, workers)
    first.kill()
    wait_until(
        lambda: (
            _partitions_of(audit, "second") == set(range(PARTITIONS))
            and set(_leases(audit).values()) == {"second"}
        ),
        60,
        "the survivor to hold every partition and the maintenance lease",
    )
    assert _leases(audit).get(MAINTENANCE_LEASE) == "second"
    # The survivor keeps the projection caught up: runs recorded now reach the audit.
    runtime = build_runtime(_settings(tmp_path))
    try:
        harness = harness_from(runtime)
        runs = [run_transcript(harness, transcript_path(name)).run_id for name in SCENARIOS]
        for run_id in runs:
            wait_until(_projected(runtime, audit, run_id), 60, f"{run_id} in the audit")
    finally:
        runtime.close()
    assert second.terminate() == 0


def test_sigterm_ends_a_worker_cleanly_with_its_leases_given_up(
    tmp_path: Path, workers: list[WorkerProcess]
) -> None:
    first, second, audit = _two_workers(tmp_path, workers)
    held_before = {lease for lease, owner in _leases(audit).items() if owner == "first"}
    assert held_before
    assert first.terminate() == 0
    stopped = first.wait_for(event("stopped"), 5, "its stopped line")
    assert stopped["owner"] == "first"
    assert "first" not in _leases(audit).values(), "every lease given up on the way out"
    assert _health(audit)["first"][0] == "STOPPED"
    wait_until(
        lambda: _partitions_of(audit, "second") == set(range(PARTITIONS)),
        60,
        "the other worker to follow every partition",
    )
    assert second.terminate() == 0


def test_on_redis_with_an_append_only_file_a_planted_secret_leaves_the_server_s_files(
    tmp_path: Path, workers: list[WorkerProcess], key_prefix: str
) -> None:
    binary = redis_binary()
    if binary is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = RedisProcess(binary, appendonly=True, appendfsync="always")
    server.start()
    try:
        store = StoreSettings(
            kind="redis", url=server.url, key_prefix=key_prefix, partitions=PARTITIONS
        )
        settings = demo_settings(tmp_path / "work", store).model_copy(
            update={"vault": VaultSettings(ttl_seconds=1)}
        )
        secrets = [f"sk_live_{os.urandom(12).hex()}" for _ in range(2)]
        with build_harness(settings) as harness:
            run_transcript(harness, _planted_transcript(tmp_path, secrets))
        expired_by = SystemClock().now() + timedelta(seconds=1)
        assert set(SECRET.findall(_everything_in(server.workdir))) == {
            secret.encode() for secret in secrets
        }
        environment = settings_environment(
            {
                "store": {"kind": "redis", "url": server.url, "key_prefix": key_prefix},
                "audit": {"url": f"sqlite:///{(tmp_path / 'audit.db').as_posix()}"},
                "worker": WORKER,
            }
        )
        environment["FACTLEDGER_STORE__PARTITIONS"] = str(PARTITIONS)
        worker = WorkerProcess(environment, "redis-purger", tmp_path / "tmp")
        workers.append(worker)
        worker.wait_for(_after(expired_by), 60, "a purge after the bodies expired")
        client = redis.Redis.from_url(server.url)
        wait_until(
            lambda: not int(client.info("persistence")["aof_rewrite_in_progress"]),
            30,
            "the append-only file rewrite",
        )
        client.close()
        left = _everything_in(server.workdir)
        assert [secret for secret in secrets if secret.encode() in left] == []
        assert worker.terminate() == 0
    finally:
        server.cleanup()
