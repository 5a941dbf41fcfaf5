"""Who may use a run through a transport: the principal that started it, and no other.

A principal is what a transport knows its caller by: an MCP session, or the bearer token a
request carried (by digest, never the token itself). ``RunOwners`` remembers the principal of
each run started through the transport (bounded, oldest forgotten first); a run another
principal started is answered as if it did not exist (``UNKNOWN_RUN``), so a run id learnt
elsewhere opens nothing. A run started with no principal (a sessionless loopback client
without a token) stays open to any caller of that transport, as does a run this process did
not start (another transport, another process, before a restart).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

__all__ = ["RunOwners", "token_principal"]

_MAX_RUNS = 65_536


def token_principal(token: str) -> str:
    """The principal of a bearer token: ``token:`` and 16 hex digits of its SHA-256."""
    return "token:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


class RunOwners:
    """The principal that started each run; thread-safe."""

    def __init__(self, capacity: int = _MAX_RUNS) -> None:
        self._owners: OrderedDict[str, str] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def started(self, run_id: str, principal: str | None) -> None:
        """``principal`` started ``run_id`` (None: nobody in particular)."""
        if principal is None:
            return
        with self._lock:
            self._owners[run_id] = principal
            while len(self._owners) > self._capacity:
                self._owners.popitem(last=False)

    def may_use(self, run_id: str, principal: str | None) -> bool:
        """True unless another principal started ``run_id``."""
        with self._lock:
            owner = self._owners.get(run_id)
        return owner is None or owner == principal
