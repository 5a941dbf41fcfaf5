"""The Redis adapters on a 3-master Redis Cluster: the store contract, an end-to-end run, and a
master failing over."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness, build_stores
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.demo.incident import demo_settings, transcript_path
from factledger.adapters.system import SystemClock
from factledger.domain.chain import ChainIntact, verify_chain
from factledger.ports.clock import Clock
from tests.contracts.store_contract import StoreContract, StoreFactory
from tests.support.redis_cluster import RedisClusterProcesses, wait_for_failover

pytestmark = pytest.mark.integration


def _store(cluster: RedisClusterProcesses, prefix: str) -> StoreSettings:
    return StoreSettings(kind="redis", url=cluster.url, cluster=True, key_prefix=prefix)


class TestClusterStore(StoreContract):
    @pytest.fixture
    def clock(self) -> Clock:
        return SystemClock()

    @pytest.fixture
    def make_store(
        self, redis_cluster: RedisClusterProcesses, key_prefix: str, clock: Clock
    ) -> Iterator[StoreFactory]:
        settings = Settings(store=_store(redis_cluster, key_prefix))
        store, vault, close = build_stores(settings, clock)
        yield lambda: (store, vault)
        close()

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        return time.sleep


def test_the_demo_runs_end_to_end_on_the_cluster(
    redis_cluster: RedisClusterProcesses, key_prefix: str, tmp_path: Path
) -> None:
    harness = build_harness(demo_settings(tmp_path, _store(redis_cluster, key_prefix)))
    with harness:
        outcomes = {
            name: run_transcript(harness, transcript_path(name)).release.outcome
            for name in ("honest", "hallucinating", "looping")
        }
        assert outcomes == {"honest": "SUCCESS", "hallucinating": "FALLBACK", "looping": "FALLBACK"}
        store = harness.parts.runs.store
        listed = store.list_runs(10).unwrap()
        assert len(listed) == 3
        for entry in listed:
            verdict = verify_chain(store.read_run(entry.run_id).unwrap(), entry.head, deep=True)
            assert isinstance(verdict, ChainIntact)


def test_a_master_failing_over_gives_store_errors_then_service_never_a_ready_without_record(
    redis_cluster: RedisClusterProcesses, key_prefix: str, tmp_path: Path
) -> None:
    from redis.cluster import RedisCluster

    from factledger.adapters.redis.keys import RedisKeys

    settings = demo_settings(tmp_path, _store(redis_cluster, key_prefix))
    harness = build_harness(settings)
    arguments = '{"input": {"query": "GW-504 pool exhausted"}}'
    with harness:
        run_id = harness.start_run(question="q", service="card-gateway")
        first = harness.observe(run_id, "before", "lookup_knowledge", arguments)
        assert first.status == "READY"
        key = RedisKeys(key_prefix, settings.store.partitions).run(run_id).events
        client = RedisCluster.from_url(redis_cluster.url)
        node = client.get_node_from_key(key)  # type: ignore[no-untyped-call]  # untyped in redis-py
        port = node.port
        client.close()
        redis_cluster.kill(port)
        during = harness.observe(run_id, "during", "lookup_knowledge", arguments)
        assert during.status in {"ERROR", "READY"}
        if during.status == "ERROR":
            assert during.error_code == "STORE_ERROR"
        wait_for_failover(redis_cluster, port)
        after = None
        for attempt in range(20):  # the client learns the new topology on its next calls
            after = harness.observe(
                run_id, f"after-{attempt}", "lookup_knowledge", arguments.replace("GW", "gw")
            )
            if after.status == "READY" or after.error_code != "STORE_ERROR":
                break
            time.sleep(0.25)
        assert after is not None
        assert after.status in {"READY", "REFUSED"}, after
        log = harness.parts.runs.load(run_id)
        assert not isinstance(log, Exception)
        store = harness.parts.runs.store
        head = store.read_head(run_id).unwrap()
        verdict = verify_chain(store.read_run(run_id).unwrap(), head, deep=True)
        assert isinstance(verdict, ChainIntact)
        record = harness.parts.canonical.read(run_id, "during")
        if during.status == "ERROR" and record is not None:
            assert not getattr(record, "is_citable", False)
