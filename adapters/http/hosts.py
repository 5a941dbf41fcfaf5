"""The ``Host`` header rule that stops DNS rebinding: an API without a token answers only
requests addressed to a loopback name.

A page on another site can make a browser send requests to ``127.0.0.1`` under a name the
attacker controls; the ``Host`` header still carries that name. Without a token the API
serves only ``localhost``, ``127.0.0.1`` and ``[::1]`` (any port) and the names of ``[http]
allowed_hosts``; anything else gets 421 ``MISDIRECTED_REQUEST``. With a token the token is
the guard, and ``allowed_hosts``, when set, still narrows the names served.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from factledger.adapters.http.problems import problem_response

__all__ = ["LOOPBACK_NAMES", "HostAllowlist", "allowlist", "host_name"]

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names served without a token."""


def host_name(header: str) -> str | None:
    """The name of a ``Host`` header without its port (``[::1]:8787`` → ``::1``), lower-case;
    None when it is not a well-formed host."""
    value = header.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return name or None
    name, colon, port = value.partition(":")
    if colon and not port.isdigit():
        return None
    return name or None


class HostAllowlist:
    """ASGI middleware answering 421 to a request whose ``Host`` is not served."""

    def __init__(self, app: ASGIApp, *, allowed: Iterable[str], any_host: bool) -> None:
        self._app = app
        self._allowed = frozenset(name.strip("[]").lower() for name in allowed)
        self._any_host = any_host

    def serves(self, header: str | None) -> bool:
        """True when a request with this ``Host`` header is served."""
        if self._any_host:
            return True
        name = None if header is None else host_name(header)
        return name is not None and name in self._allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a misaddressed HTTP request; pass everything else through."""
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            raw = headers.get(b"host")
            header = None if raw is None else raw.decode("latin-1")
            if not self.serves(header):
                response = problem_response("MISDIRECTED_REQUEST")
                await response(scope, receive, send)
                return
        await self._app(scope, receive, send)


def allowlist(has_token: bool, allowed_hosts: Iterable[str]) -> tuple[frozenset[str], bool]:
    """The names served and whether any is: without a token, loopback and ``allowed_hosts``;
    with one, any host unless ``allowed_hosts`` narrows it."""
    extra = frozenset(name.strip("[]").lower() for name in allowed_hosts)
    if has_token and not extra:
        return LOOPBACK_NAMES, True
    return LOOPBACK_NAMES | extra, False
