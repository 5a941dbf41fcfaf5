"""A throwaway redis-server on a free loopback port, or the one already running.

The integration tests prefer their own process (started from the ``redis-server`` binary on a
free port, nothing on disk) so that they can stop and restart it; without the binary they use a
Redis already answering on 127.0.0.1:6379 under a unique key prefix. With neither, they fail and
say what to install: they never skip.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import redis

from tests.support.processes import free_port, port_open, wait_until

INSTALL_HINT = (
    "Redis is needed by the integration tests: install redis-server "
    "(Debian/Ubuntu: apt-get install redis-server) or start one on 127.0.0.1:6379."
)


class RedisProcess:
    """One redis-server process the tests own; stop() and start() keep its port."""

    def __init__(self, binary: str, *, appendonly: bool = False, appendfsync: str = "always"):
        self.binary = binary
        self.port = free_port()
        self.host = "127.0.0.1"
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.workdir = Path(tempfile.mkdtemp(prefix="factledger-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self) -> None:
        args = [
            self.binary,
            "--bind", self.host,
            "--port", str(self.port),
            "--save", "",
            "--dir", str(self.workdir),
            "--appendonly", "yes" if self.appendonly else "no",
            "--appendfsync", self.appendfsync,
            "--protected-mode", "no",
            "--loglevel", "warning",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        wait_until(self._answers, 10, f"redis-server on port {self.port}")

    def _answers(self) -> bool:
        if not port_open(self.host, self.port):
            return False
        try:
            return bool(redis.Redis(host=self.host, port=self.port, socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self, *, hard: bool = False) -> None:
        """Stop the process by pid (SIGKILL when ``hard``) and wait for it to end."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL if hard else signal.SIGTERM)
            self.process.wait(timeout=10)
        self.process = None

    def cleanup(self) -> None:
        self.stop(hard=True)
        shutil.rmtree(self.workdir, ignore_errors=True)


def redis_binary() -> str | None:
    """The path of redis-server, when installed."""
    found = shutil.which("redis-server")
    if found:
        return found
    for candidate in ("/usr/bin/redis-server", "/usr/local/bin/redis-server"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def running_redis_url() -> str | None:
    """The URL of a Redis already answering on the default loopback port, if any."""
    url = os.environ.get("FACTLEDGER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        if redis.Redis.from_url(url, socket_timeout=0.5).ping():
            return url
    except redis.RedisError:
        return None
    return None
