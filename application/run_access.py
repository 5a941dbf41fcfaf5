"""Who may use a run through a transport: the principal that started it, and no other.

A principal is what a transport knows its caller by: an MCP session, or the bearer token a
request carried (by digest, never the token itself). The run records the digest of the
principal that started it in its own ``RUN_STARTED`` event (``DiagnosisContext.owner``), so
the rule holds in every process that reads the store and after a restart. A run another
principal started is answered as if it did not exist (``UNKNOWN_RUN``), so a run id learnt
elsewhere opens nothing and confirms nothing.

A run with no owner (started with no principal: through the facade directly, by a loopback
HTTP caller without a token, or recorded before owners were) is usable only while no token is
configured: behind a token every run must be the caller's own.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

from attrs import frozen

__all__ = ["Caller", "owner_digest", "token_principal"]

_TOKEN_DOMAIN: Final = b"factledger/token-principal/v1\x00"
_OWNER_DOMAIN: Final = b"factledger/run-owner/v1\x00"


def token_principal(token: str) -> str:
    """The principal of a bearer token: ``token:`` and 32 hex digits of a SHA-256 of the
    token under a fixed prefix (so the digest is of no use anywhere else)."""
    digest = hashlib.sha256(_TOKEN_DOMAIN + token.encode("utf-8")).hexdigest()
    return "token:" + digest[:32]


def owner_digest(principal: str) -> str:
    """What a run records of the principal that started it: a SHA-256 of the principal under
    a fixed prefix (an MCP session id is a capability and is never stored as it is)."""
    return hashlib.sha256(_OWNER_DOMAIN + principal.encode("utf-8")).hexdigest()


@frozen
class Caller:
    """Who asks for a run through a transport, and whether that transport has tokens."""

    principal: str | None
    """The caller's principal; None: an anonymous caller (loopback HTTP without a token)."""
    tokens_configured: bool
    """True when the transport requires a bearer token."""

    @property
    def owner(self) -> str | None:
        """The owner digest a run started by this caller records."""
        return None if self.principal is None else owner_digest(self.principal)

    def may_use(self, owner: str | None) -> bool:
        """True for a run this caller started, and for a run with no owner while no token is
        configured."""
        if owner is None:
            return not self.tokens_configured
        mine = self.owner
        return mine is not None and hmac.compare_digest(mine, owner)
