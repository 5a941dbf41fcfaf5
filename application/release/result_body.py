"""Where the published release result is kept: one vault body per run, under one key."""

from __future__ import annotations

from typing import Final

from factledger.ports.payload_vault import PayloadKey, PayloadPart

__all__ = ["RELEASE_BODY_ID", "release_body_key"]

RELEASE_BODY_ID: Final = "release"
"""The ``tool_call_id`` part of the result's key (its part, RELEASE, is never a call's)."""


def release_body_key(run_id: str) -> PayloadKey:
    """The key of the run's published release result."""
    return PayloadKey(run_id, RELEASE_BODY_ID, PayloadPart.RELEASE)
