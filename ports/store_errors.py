"""Failures every store port can report, as values."""

from __future__ import annotations

from typing import Literal, TypeAlias

from attrs import frozen

__all__ = ["StoreFailureReason", "StoreUnavailable"]

StoreFailureReason: TypeAlias = Literal[
    "CONNECTION", "TIMEOUT", "SERVER_ERROR", "UNEXPECTED_REPLY", "COMMIT_FAILED"
]
"""Why a store call failed: unreachable or refused (``CONNECTION``), out of time or a lock not
free in time (``TIMEOUT``), an error answered by the server (``SERVER_ERROR``), a reply of an
unexpected shape (``UNEXPECTED_REPLY``), or a commit whose outcome is unknown
(``COMMIT_FAILED``). Never server text."""


@frozen
class StoreUnavailable:
    """The store could not be reached or answered with an error; nothing was written."""

    reason: StoreFailureReason
    """Why (see ``StoreFailureReason``)."""
