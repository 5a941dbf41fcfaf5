"""Helpers to start throwaway servers on free loopback ports and stop them by pid."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_open(host: str, port: int, timeout: float = 0.2) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``predicate`` until it holds or fail with a message naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise RuntimeError(f"timed out after {timeout:.0f}s waiting for {what}")
