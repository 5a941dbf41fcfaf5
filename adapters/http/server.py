"""Where the HTTP API listens, and the rule that keeps an unauthenticated API on loopback.

``plan_server(http_settings, bind, environ)`` reads ``[http] bind`` (or an override) and the
token named by ``[http] token_env``; without a token it refuses any address but loopback
(127.0.0.0/8, ::1, ``localhost``) with a ``ServeError`` before anything binds. ``serve``
runs uvicorn until it is stopped.
"""

from __future__ import annotations

import ipaddress
import signal
import threading
from collections.abc import Mapping
from types import FrameType

import uvicorn
from attrs import frozen
from fastapi import FastAPI

from factledger.adapters.config.sections import HttpSettings
from factledger.adapters.http.auth import TokenError, tokens_from_env

__all__ = [
    "ServeError",
    "ServerPlan",
    "is_loopback",
    "parse_bind",
    "plan_server",
    "serve",
    "uvicorn_config",
]


class ServeError(ValueError):
    """The server cannot start as configured; the message says why."""


@frozen
class ServerPlan:
    """Where to listen and with which token."""

    host: str
    """The address (``127.0.0.1``, ``::1``, ``0.0.0.0``, a name)."""
    port: int
    """The TCP port (0: any free port)."""
    token: str | None
    """The (first) bearer token, or None for no authentication (loopback only)."""
    tokens: tuple[str, ...] = ()
    """Every accepted bearer token (``[http] token_env`` may hold several, comma-separated)."""

    @property
    def authority(self) -> str:
        """``host:port`` as a URL spells it."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def parse_bind(bind: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8787`` for IPv6) as a host and a port."""
    if bind.startswith("["):
        host, separator, port = bind[1:].partition("]:")
    else:
        host, separator, port = bind.rpartition(":")
    if not separator or not host or not port.isdigit() or int(port) > 65535:
        raise ServeError(f"bind {bind!r} is not HOST:PORT")
    return host, int(port)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plan_server(http: HttpSettings, bind: str | None, environ: Mapping[str, str]) -> ServerPlan:
    """Where to listen: refuses a non-loopback address when no token is configured."""
    host, port = parse_bind(bind if bind is not None else http.bind)
    try:
        tokens = tokens_from_env(http.token_env, environ)
    except TokenError as missing:
        raise ServeError(str(missing)) from None
    token = tokens[0] if tokens else None
    if token is None and not is_loopback(host):
        raise ServeError(
            f"refusing to listen on {host!r} without a bearer token: set [http] token_env "
            "to the name of an environment variable that holds one, or bind 127.0.0.1"
        )
    return ServerPlan(host, port, token, tokens)


def uvicorn_config(app: FastAPI, plan: ServerPlan, *, log_level: str = "info") -> uvicorn.Config:
    """The uvicorn settings the API runs with (no proxy headers trusted, bounded shutdown)."""
    return uvicorn.Config(
        app,
        host=plan.host,
        port=plan.port,
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
        log_level=log_level,
    )


class _Stopped(Exception):
    """SIGTERM arrived (raised once uvicorn has shut down gracefully)."""


def _stop(_signum: int, _frame: FrameType | None) -> None:
    raise _Stopped


def serve(app: FastAPI, plan: ServerPlan) -> None:
    """Run the API until SIGINT or SIGTERM, then return after a graceful shutdown (uvicorn
    hands the signal back once it has stopped; here it ends the call instead of the process,
    so the caller can close its harness)."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if in_main_thread else None
    try:
        uvicorn.Server(uvicorn_config(app, plan)).run()
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
