"""A Redis for benchmarks: a throwaway server on a free loopback port, or a given URL."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def redis_for_bench(url: str | None) -> Iterator[str]:
    """``url`` when given; else a fresh redis-server (nothing on disk) stopped afterwards."""
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed: pass --redis-url")
    port = _free_port()
    workdir = tempfile.mkdtemp(prefix="factledger-bench-redis-")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", workdir, "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    bench_url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(200):
            try:
                if redis.Redis.from_url(bench_url).ping():
                    break
            except redis.RedisError:
                time.sleep(0.02)
        yield bench_url
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
