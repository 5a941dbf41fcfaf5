"""A throwaway Prometheus for the metrics integration tests, loaded with a fixed history.

The history (the demo's metrics file) is written as OpenMetrics and turned into TSDB blocks
with ``promtool tsdb create-blocks-from openmetrics`` in a temporary directory; ``prometheus``
then serves that storage on a free loopback port, with a retention long enough to keep the
old blocks, and is stopped by pid at the end. Without the binaries the tests fail and say what
to install (``scripts/ensure_prometheus.sh`` installs Debian's package): they never skip.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.support.processes import free_port, wait_until

INSTALL_HINT = (
    "Prometheus is needed by the metrics integration tests: run scripts/ensure_prometheus.sh "
    "(Debian/Ubuntu: apt-get install prometheus, which brings prometheus and promtool)."
)


def _binaries() -> tuple[str, str]:
    prometheus, promtool = shutil.which("prometheus"), shutil.which("promtool")
    if prometheus is None or promtool is None:
        raise RuntimeError(INSTALL_HINT)
    return prometheus, promtool


def openmetrics_from_fixture(fixture: Path) -> str:
    """The fixture's series as OpenMetrics text (one family after another, ``# EOF`` last)."""
    document = json.loads(fixture.read_text(encoding="utf-8"))
    families: dict[str, list[str]] = {}
    for series in document["series"]:
        labels = dict(series["labels"])
        name = labels.pop("__name__")
        spelled = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
        lines = families.setdefault(name, [f"# TYPE {name} gauge"])
        lines.extend(f"{name}{{{spelled}}} {value} {stamp}" for stamp, value in series["samples"])
    body = [line for lines in families.values() for line in lines]
    return "\n".join([*body, "# EOF", ""])


def _load(promtool: str, fixture: Path, storage: Path) -> None:
    source = storage.parent / "history.om"
    source.write_text(openmetrics_from_fixture(fixture), encoding="utf-8")
    subprocess.run(
        [promtool, "tsdb", "create-blocks-from", "openmetrics", str(source), str(storage)],
        check=True,
        capture_output=True,
        timeout=120,
    )


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/-/ready", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def prometheus_with_history(fixture: Path) -> Iterator[str]:
    """A Prometheus serving ``fixture``'s series; yields its base URL."""
    prometheus, promtool = _binaries()
    with tempfile.TemporaryDirectory(prefix="factledger-prometheus-") as folder:
        root = Path(folder)
        storage = root / "data"
        storage.mkdir()
        _load(promtool, fixture, storage)
        config = root / "prometheus.yml"
        config.write_text("global:\n  scrape_interval: 15s\n", encoding="utf-8")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        log = (root / "prometheus.log").open("wb")
        process = subprocess.Popen(
            [
                prometheus,
                f"--config.file={config}",
                f"--storage.tsdb.path={storage}",
                "--storage.tsdb.retention.time=100y",
                f"--web.listen-address=127.0.0.1:{port}",
                "--log.level=warn",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(lambda: process.poll() is not None or _ready(url), 60, "prometheus ready")
            if process.poll() is not None:
                raise RuntimeError("prometheus exited: " + (root / "prometheus.log").read_text())
            yield url
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
            log.close()
