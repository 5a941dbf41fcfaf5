"""A throwaway Redis Cluster on loopback: 3 masters with a replica each, so failover works."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.support.processes import free_port, port_open, wait_until

INSTALL_HINT = (
    "The cluster tests need redis-server and redis-cli "
    "(Debian/Ubuntu: apt-get install redis-server redis-tools)."
)


class RedisClusterProcesses:
    """Six redis-server processes made into one cluster; stopped by pid."""

    def __init__(self, server: str, cli: str, nodes: int = 6) -> None:
        self.server = server
        self.cli = cli
        self.ports = _cluster_ports(nodes)
        self.workdir = Path(tempfile.mkdtemp(prefix="factledger-cluster-"))
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start_node(self, port: int) -> None:
        folder = self.workdir / str(port)
        folder.mkdir(exist_ok=True)
        args = [
            self.server, "--bind", "127.0.0.1", "--port", str(port), "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1500",
            "--save", "", "--appendonly", "no", "--dir", str(folder), "--loglevel", "warning",
            "--protected-mode", "no",
        ]  # fmt: skip
        self.processes[port] = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        wait_until(lambda: _answers(port), 10, f"cluster node {port}")

    def start(self) -> None:
        for port in self.ports:
            self.start_node(port)
        addresses = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [self.cli, "--cluster", "create", *addresses, "--cluster-replicas", "1",
             "--cluster-yes"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
        wait_until(self.healthy, 30, "the cluster to agree on its slots")
        wait_until(self._replicas_in_sync, 30, "every master to have a replica in sync")

    def healthy(self) -> bool:
        for port in self.processes:
            try:
                info = redis.Redis(port=port, socket_timeout=0.5).cluster("info")
            except redis.RedisError:
                return False
            if not isinstance(info, dict) or info.get("cluster_state") != "ok":
                return False
        return True

    def _replicas_in_sync(self) -> bool:
        replicas = 0
        for port in self.processes:
            try:
                info = redis.Redis(port=port, socket_timeout=0.5).info("replication")
            except redis.RedisError:
                return False
            if info.get("role") == "slave":
                if info.get("master_link_status") != "up":
                    return False
                replicas += 1
        return replicas == len(self.processes) // 2

    def masters(self) -> list[int]:
        """Ports of the nodes a live node sees as healthy masters now."""
        live = next(iter(self.processes))
        text = redis.Redis(port=live, socket_timeout=1.0).execute_command(  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
            "CLUSTER", "NODES"
        )
        raw = text.decode() if isinstance(text, bytes) else str(text)
        ports: list[int] = []
        for line in raw.splitlines():
            parts = line.split()
            if len(parts) < 3:
                continue
            flags = parts[2].split(",")
            if "master" in flags and "fail" not in flags and "fail?" not in flags:
                ports.append(int(parts[1].split("@")[0].rsplit(":", 1)[1]))
        return sorted(ports)

    @property
    def live_url(self) -> str:
        """A URL naming a node that is still running."""
        return f"redis://127.0.0.1:{next(iter(self.processes))}/0"

    def kill(self, port: int) -> None:
        """Stop a node hard (a crash)."""
        process = self.processes.pop(port)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def cleanup(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.processes.clear()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _cluster_ports(count: int) -> list[int]:
    """Free ports whose cluster-bus twin (port + 10000) is free and valid as well."""
    chosen: list[int] = []
    while len(chosen) < count:
        port = free_port()
        if port + 10000 > 65535 or port in chosen:
            port = random.randint(20000, 45000)
        if port_open("127.0.0.1", port) or port_open("127.0.0.1", port + 10000):
            continue
        if port + 10000 <= 65535 and port not in chosen:
            chosen.append(port)
    return chosen


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_timeout=0.3).ping())
    except redis.RedisError:
        return False


def cluster_binaries() -> tuple[str, str] | None:
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    return (server, cli) if server and cli else None


def wait_for_failover(cluster: RedisClusterProcesses, killed: int, timeout: float = 30) -> None:
    """Until a replica has taken over the killed master's slots and the cluster is ok."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if killed not in cluster.masters() and cluster.healthy():
                return
        except redis.RedisError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the cluster did not fail over in time")
