"""A real ``factledger worker`` process for the integration tests: started with settings in its
environment, its JSON lines read as they come (a reader thread feeds a queue, so a test waits
for an event, never for a fixed time), stopped or killed by pid."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from factledger.domain.json_types import JsonObject

Predicate = Callable[[JsonObject], bool]


def settings_environment(sections: Mapping[str, Mapping[str, object]]) -> dict[str, str]:
    """``FACTLEDGER_<SECTION>__<KEY>`` variables for ``sections`` (values as JSON)."""
    return {
        f"FACTLEDGER_{section.upper()}__{key.upper()}": (
            value if isinstance(value, str) else json.dumps(value)
        )
        for section, keys in sections.items()
        for key, value in keys.items()
    }


class WorkerProcess:
    """One ``factledger worker --json`` process."""

    def __init__(self, settings: Mapping[str, str], owner: str, temp_dir: Path) -> None:
        self.owner = owner
        self.temp_dir = temp_dir
        temp_dir.mkdir(parents=True, exist_ok=True)
        environment = {
            key: value for key, value in os.environ.items() if not key.startswith("FACTLEDGER_")
        }
        environment.update(settings)
        # SQLite puts temporary files where these say: a folder the test can search.
        environment.update({"TMPDIR": str(temp_dir), "SQLITE_TMPDIR": str(temp_dir)})
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "factledger.adapters.cli.main",
                "worker",
                "--json",
                "--owner",
                owner,
            ],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.seen: list[JsonObject] = []
        self._lines: queue.Queue[JsonObject | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(json.loads(line))
        self._lines.put(None)

    def wait_for(self, predicate: Predicate, timeout: float, what: str) -> JsonObject:
        """The first line (from now on, or already seen) that ``predicate`` accepts."""
        for line in self.seen:
            if predicate(line):
                return line
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.owner}: no {what} within {timeout:.0f}s")
            try:
                found = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if found is None:
                raise AssertionError(f"{self.owner} ended before {what}: {self.stderr()}")
            self.seen.append(found)
            if predicate(found):
                return found

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read()

    def terminate(self, timeout: float = 30) -> int:
        """SIGTERM, then the exit code."""
        os.kill(self.process.pid, signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        """SIGKILL: no clean-up at all."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def event(name: str) -> Predicate:
    """Accepts lines of one event."""
    return lambda line: line.get("event") == name
