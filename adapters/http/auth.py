"""Bearer-token authentication: one shared token, compared in constant time.

The token itself never sits in a file: ``[http] token_env`` names the environment variable that
holds it. Without a token the server only binds loopback (see ``server.py``); with one, every
``/runs`` request must carry ``Authorization: Bearer <token>`` or gets 401 problem+json.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from factledger.adapters.http.problems import ProblemError

__all__ = ["TokenError", "bearer_guard", "token_from_env"]


_SCHEME = HTTPBearer(
    auto_error=False,
    description="The token held by the environment variable that `[http] token_env` names.",
)


class TokenError(ValueError):
    """``[http] token_env`` names a variable that does not hold a usable token."""


def token_from_env(token_env: str | None, environ: Mapping[str, str]) -> str | None:
    """The bearer token named by ``[http] token_env``; None when no variable is named."""
    if token_env is None:
        return None
    token = environ.get(token_env, "")
    if not token.strip():
        raise TokenError(f"[http] token_env names {token_env!r}, which is not set or is empty")
    if token != token.strip() or not token.isprintable():
        raise TokenError(f"the token in {token_env!r} has spaces or control characters")
    return token


def bearer_guard(token: str) -> Callable[..., None]:
    """A dependency that refuses a request without ``Authorization: Bearer <token>``."""
    expected = token.encode("utf-8")

    def require_token(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_SCHEME)],
    ) -> None:
        given = b"" if credentials is None else credentials.credentials.encode("utf-8")
        if not hmac.compare_digest(given, expected):
            raise ProblemError("UNAUTHORIZED", headers={"WWW-Authenticate": "Bearer"})

    return require_token
