"""Application logs: structlog, one JSON object per record, ids, codes, sizes and durations
only.

``configure_logging`` builds the pipeline once per process (the composition root calls it) and
returns the ``CallLog`` the ToolBoundary and the release service report to. Records go to the
standard-library logger ``factledger`` as JSON text; as a library, factledger adds only a
``NullHandler`` there, and the application embedding it decides where records go (``logging``
handlers) and from which level. No global structlog configuration is touched.

The last processor before rendering is a policy, not a convention: a key that is not on the
list below is dropped, and a text value that is not shaped like an id or a code (letters,
digits, ``_.:-``, at most 128 characters) is replaced by ``"<withheld>"``. So even a careless
call cannot put a request, a query or a secret into a log record.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping
from typing import Final

import structlog
from structlog.typing import EventDict, WrappedLogger

from factledger.ports.telemetry import CallFinished, CallLog, ReleaseLogged

__all__ = [
    "ALLOWED_KEYS",
    "LOGGER_NAME",
    "StructlogCallLog",
    "configure_logging",
    "logger",
]

LOGGER_NAME: Final = "factledger"
"""The standard-library logger records are written to."""

ALLOWED_KEYS: Final = frozenset(
    {
        "event",
        "level",
        "timestamp",
        "run_id",
        "tool_call_id",
        "tool",
        "status",
        "code",
        "request_bytes",
        "raw_bytes",
        "projection_bytes",
        "duration_ms",
        "outcome",
        "fallback_type",
        "failure_stage",
        "failure_code",
        "projection",
        "partition",
        "partitions",
        "events",
        "rows",
        "runs",
        "log_entries",
        "events_per_second",
    }
)
"""Every key a record may carry."""

_SAFE_TEXT: Final = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
_WITHHELD: Final = "<withheld>"

_lock = threading.Lock()
_configured: structlog.stdlib.BoundLogger | None = None


def _policy(_: WrappedLogger, __: str, event_dict: EventDict) -> EventDict:
    kept: dict[str, object] = {}
    for key, value in event_dict.items():
        if key not in ALLOWED_KEYS:
            continue
        plain = value is None or isinstance(value, bool | int | float)
        safe = plain or (isinstance(value, str) and _SAFE_TEXT.fullmatch(value) is not None)
        kept[key] = value if safe else _WITHHELD
    return kept


def _build() -> structlog.stdlib.BoundLogger:
    target = logging.getLogger(LOGGER_NAME)
    if not any(isinstance(handler, logging.NullHandler) for handler in target.handlers):
        target.addHandler(logging.NullHandler())
    built: structlog.stdlib.BoundLogger = structlog.wrap_logger(
        target,
        processors=[
            # A record below the level the embedding application listens at stops here, before
            # any work is spent on it.
            structlog.stdlib.filter_by_level,
            structlog.contextvars.merge_contextvars,
            structlog.stdlib.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _policy,
            structlog.processors.JSONRenderer(sort_keys=True),
        ],
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return built


def logger() -> structlog.stdlib.BoundLogger:
    """The process's factledger logger (built on first use)."""
    global _configured  # noqa: PLW0603 - the one process-wide logger, built once
    with _lock:
        if _configured is None:
            _configured = _build()
        return _configured


class StructlogCallLog:
    """The ``CallLog`` port on structlog; a logging failure never reaches the caller."""

    def __init__(self, log: structlog.stdlib.BoundLogger) -> None:
        self._log = log
        self._target = logging.getLogger(LOGGER_NAME)

    def call_finished(self, record: CallFinished) -> None:
        if not self._target.isEnabledFor(logging.INFO):  # nobody listens: spend nothing
            return
        self._emit(
            "tool_call.finished",
            {
                "run_id": record.run_id,
                "tool_call_id": record.tool_call_id,
                "tool": record.tool_name,
                "status": record.status,
                "code": None if record.code is None else record.code.value,
                "request_bytes": record.request_bytes,
                "raw_bytes": record.raw_bytes,
                "projection_bytes": record.projection_bytes,
                "duration_ms": round(record.duration_ms, 3),
            },
        )

    def release_decided(self, record: ReleaseLogged) -> None:
        if not self._target.isEnabledFor(logging.INFO):
            return
        self._emit(
            "release.decided",
            {
                "run_id": record.run_id,
                "code": record.code,
                "outcome": None if record.outcome is None else record.outcome.value,
                "fallback_type": None
                if record.fallback_type is None
                else record.fallback_type.value,
                "failure_stage": None
                if record.failure_stage is None
                else record.failure_stage.value,
                "failure_code": None if record.failure_code is None else record.failure_code.value,
                "duration_ms": round(record.duration_ms, 3),
            },
        )

    def _emit(self, event: str, fields: Mapping[str, object]) -> None:
        try:
            self._log.info(event, **fields)
        except Exception:  # a log record is never worth a failed call
            return


def configure_logging() -> CallLog:
    """The JSON logging pipeline (built once per process) as the application's ``CallLog``."""
    return StructlogCallLog(logger())
