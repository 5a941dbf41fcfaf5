"""Why a model call gave no usable answer: a closed set of reason codes, and how a client's
short failure code maps onto it (pure: the mapping never sees a message, only a code)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Final

__all__ = ["ModelFailureReason", "model_failure_reason"]


class ModelFailureReason(StrEnum):
    """What went wrong with one model call."""

    TIMEOUT = "TIMEOUT"
    """No answer within the time limit."""
    CONNECTION_REFUSED = "CONNECTION_REFUSED"
    """Nothing listens at the endpoint (or the name does not resolve)."""
    CONNECTION_FAILED = "CONNECTION_FAILED"
    """The connection broke or could not be used."""
    RATE_LIMITED = "RATE_LIMITED"
    """HTTP 429 after every retry."""
    HTTP_4XX = "HTTP_4XX"
    """The endpoint refused the request (authentication, model name, request shape)."""
    HTTP_5XX = "HTTP_5XX"
    """The endpoint failed after every retry."""
    MALFORMED_REPLY = "MALFORMED_REPLY"
    """An answer came, but not one the protocol allows."""
    DEADLINE = "DEADLINE"
    """The run's deadline left no time for the call."""
    OTHER = "OTHER"
    """Any other failure code."""


_HTTP: Final = re.compile(r"HTTP_([1-5])\d\d")
_DIRECT: Final = {
    "TIMEOUT": ModelFailureReason.TIMEOUT,
    "CONNECTION_REFUSED": ModelFailureReason.CONNECTION_REFUSED,
    "CONNECTION": ModelFailureReason.CONNECTION_FAILED,
    "CONNECTION_FAILED": ModelFailureReason.CONNECTION_FAILED,
    "HTTP_429": ModelFailureReason.RATE_LIMITED,
    "MALFORMED_REPLY": ModelFailureReason.MALFORMED_REPLY,
    "MALFORMED_VERDICT": ModelFailureReason.MALFORMED_REPLY,
    "DEADLINE": ModelFailureReason.DEADLINE,
}


def model_failure_reason(code: str) -> ModelFailureReason:
    """The reason a client's failure code stands for (``HTTP_503`` is ``HTTP_5XX``)."""
    direct = _DIRECT.get(code)
    if direct is not None:
        return direct
    status = _HTTP.fullmatch(code)
    if status is None:
        return ModelFailureReason.OTHER
    return ModelFailureReason.HTTP_5XX if status.group(1) == "5" else ModelFailureReason.HTTP_4XX
