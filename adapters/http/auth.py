"""Bearer-token authentication: one token or several, compared in constant time.

The tokens never sit in a file: ``[http] token_env`` names the environment variable that holds
them (several separated by commas, one per team or agent). Without a token the server only
binds loopback (see ``server.py``); with one, every ``/runs`` request must carry
``Authorization: Bearer <token>`` or gets 401 problem+json. The token a request carried is
its principal (``request.state.principal``, by digest): a run is usable only by the token
that started it.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from factledger.adapters.http.problems import ProblemError
from factledger.application.run_access import token_principal

__all__ = ["TokenError", "bearer_guard", "matching_principal", "token_from_env", "tokens_from_env"]


_SCHEME = HTTPBearer(
    auto_error=False,
    description="The token held by the environment variable that `[http] token_env` names.",
)


class TokenError(ValueError):
    """``[http] token_env`` names a variable that does not hold a usable token."""


def tokens_from_env(token_env: str | None, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The bearer tokens named by ``[http] token_env`` (comma-separated); none when no
    variable is named."""
    if token_env is None:
        return ()
    value = environ.get(token_env, "")
    if not value.strip():
        raise TokenError(f"[http] token_env names {token_env!r}, which is not set or is empty")
    tokens = tuple(value.split(","))
    for token in tokens:
        if not token or token != token.strip() or not token.isprintable():
            raise TokenError(
                f"a token in {token_env!r} is empty or has spaces or control characters"
            )
    return tokens


def token_from_env(token_env: str | None, environ: Mapping[str, str]) -> str | None:
    """The first bearer token named by ``[http] token_env``; None when no variable is named."""
    tokens = tokens_from_env(token_env, environ)
    return tokens[0] if tokens else None


def matching_principal(given: str, tokens: tuple[str, ...]) -> str | None:
    """The principal of the token ``given`` equals, None when it is none of ``tokens``; every
    token is compared in constant time (no early exit to time)."""
    encoded = given.encode("utf-8")
    matched = None
    for token in tokens:
        if hmac.compare_digest(encoded, token.encode("utf-8")):
            matched = token_principal(token)
    return matched


def bearer_guard(tokens: tuple[str, ...]) -> Callable[..., None]:
    """A dependency that refuses a request without ``Authorization: Bearer <token>`` for one
    of ``tokens``, and records the matching token's principal on the request."""

    def require_token(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_SCHEME)],
    ) -> None:
        given = "" if credentials is None else credentials.credentials
        matched = matching_principal(given, tokens)
        if matched is None:
            raise ProblemError("UNAUTHORIZED", headers={"WWW-Authenticate": "Bearer"})
        request.state.principal = matched

    return require_token
